import { HttpError } from '../http-error.ts';
import type { Directory, TokenRules, Website } from './directory.ts';
import { bearerToken, peekPayload, type JwtPayload } from './jwt.ts';
import { selectScope } from './scope.ts';
import { TtlCache, type Invalidation } from '@rex/cache';
import type { AuthRequest, Authenticator } from './authenticate.ts';
import { isRecordId } from '@rex/protos';


type Verified = { payload: JwtPayload; website: Website };

/** `email_verified` as issuers write it: false, and also "false", 0 or "0". */
const isUnverified = (claim: unknown) => claim === false || claim === 'false' || claim === 0 || claim === '0';

const LEEWAY_S = 60;

/** A website's rules for its tokens beyond the signature: an expiry, a maximum age, an audience. */
export function checkTokenRules(payload: JwtPayload, rules: TokenRules, now = Date.now()): void {
  if (rules.requireExp && typeof payload.exp !== 'number') throw new HttpError(401, 'The token must have an expiry (exp).');
  if (rules.maxAgeS !== null) {
    const issuedAt = payload.iat;
    if (typeof issuedAt !== 'number') throw new HttpError(401, 'The token must say when it was issued (iat).');
    if (now / 1000 - issuedAt > rules.maxAgeS + LEEWAY_S) throw new HttpError(401, 'The token is older than this website allows.');
    // A token dated in the future would pass the age check for as long as its issuer liked.
    if (issuedAt - now / 1000 > LEEWAY_S) throw new HttpError(401, 'The token says it was issued in the future (iat).');
  }
  if (rules.audience !== null) {
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!audiences.includes(rules.audience)) throw new HttpError(401, 'The token is not meant for this API (aud).');
  }
}

/**
 * jwtUser: an RS256 token issued by a website (`iss` = its url), verified with
 * the website's stored public key. With the namespaced `user:id` claim the
 * caller is that user (who needs a role on the website); without it, the
 * website anonymously.
 */
export function jwtUser(directory: Directory, claimNamespace: string, cacheTtlMs: number, changes?: Invalidation): Authenticator {
  const userClaim = `http://${claimNamespace}/user:id`;
  const scopeClaim = `http://${claimNamespace}/scope`;
  const clientClaim = `http://${claimNamespace}/client:username`;
  // A verified token is remembered (until it expires, and no longer than the
  // directory's own cache) so that a client's repeated requests pay for the
  // signature check once.
  const verified = new TtlCache<Verified>(cacheTtlMs, 20_000, changes);

  async function verify(token: string, payload: JwtPayload & { iss: string }): Promise<Verified | undefined> {
    const website = await directory.websiteByUrl(payload.iss);
    if (!website) return undefined;
    if (website.badKey) throw new HttpError(500, 'The public key stored for the website cannot be read.');
    if (!website.keys) return undefined;
    try {
      const payload = await website.keys.verify(token);
      const entry = { payload: payload as JwtPayload, website };
      const untilExpiry = typeof payload.exp === 'number' ? payload.exp * 1000 - Date.now() : cacheTtlMs;
      verified.set(token, entry, Math.min(untilExpiry, cacheTtlMs));
      return entry;
    } catch {
      throw new HttpError(401, 'Unable to authorise');
    }
  }

  return async (req: AuthRequest) => {
    const token = bearerToken(req.authorization);
    if (!token) return undefined;
    let result = verified.get(token);
    if (!result) {
      const peeked = peekPayload(token);
      if (clientClaim in peeked) return undefined;
      result = await verify(token, peeked);
      if (!result) return undefined;
    }
    const { payload, website } = result;
    if (isUnverified(payload.email_verified)) throw new HttpError(401, 'The email address of the user is not verified.');
    checkTokenRules(payload, website.tokenRules);
    const rawUser = payload[userClaim];
    if (rawUser === undefined || rawUser === null) {
      const scope = selectScope({ tokenScope: payload.scope, namespacedScope: payload[scopeClaim], requested: req.query.scope, fallback: 'reporting' });
      return { method: 'jwtUser', entity: 'website', websiteId: website.id, scope, mayPostAnonymously: website.allowAnonJwtPost, credential: `website:${website.id}` };
    }
    const userId = String(rawUser);
    if (!isRecordId(userId)) throw new HttpError(401, 'Unable to authorise');
    const role = await directory.roleOf(userId, website.id);
    if (role === null) throw new HttpError(403, 'The user has no role on this website.');
    const fallback = role === 3 || req.resource === 'reports' ? 'userWithinWebsite' : 'website';
    const scope = selectScope({ tokenScope: payload.scope, namespacedScope: payload[scopeClaim], requested: req.query.scope, fallback });
    return { method: 'jwtUser', entity: 'user', websiteId: website.id, userId, role, scope, credential: `user:${userId}:${website.id}` };
  };
}
