import { SignJWT, importPKCS8 } from 'jose';
import { DEMO } from '@rex/admin';

/** A jwtUser token for the demo user, signed with the demo website's key. */
export async function demoToken(privateKey: string, options: { userId?: number; expiresIn?: string; claims?: Record<string, unknown> } = {}): Promise<string> {
  const key = await importPKCS8(privateKey, 'RS256');
  return new SignJWT({ 'http://indicia.org.uk/user:id': options.userId ?? DEMO.userId, ...options.claims })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(DEMO.websiteUrl)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '24h')
    .sign(key);
}
