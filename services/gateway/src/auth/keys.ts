import { createRemoteJWKSet, importSPKI, jwtVerify, type CryptoKey, type JWTPayload } from 'jose';

const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g;
const ALGORITHMS = ['RS256'];
const CLOCK_TOLERANCE_S = 60;

/** Verifies a token against a website's or client's keys: one or more PEM keys, or a JWKS URL. */
export type KeySet = { verify: (token: string) => Promise<JWTPayload> };

export class UnreadableKeyError extends Error {}

/**
 * Builds the key set of a website or client. Several PEM keys are tried in
 * turn (so a key can be rotated without downtime); a JWKS URL is fetched by
 * jose and its keys cached for `jwksCacheMs`.
 */
export async function keySet(options: { publicKey: string | null; jwksUrl: string | null; jwksCacheMs: number }): Promise<KeySet | undefined> {
  const verifyOptions = { algorithms: ALGORITHMS, clockTolerance: CLOCK_TOLERANCE_S };
  if (options.jwksUrl) {
    const jwks = createRemoteJWKSet(new URL(options.jwksUrl), { cacheMaxAge: options.jwksCacheMs, cooldownDuration: 5_000, timeoutDuration: 3_000 });
    return { verify: async (token) => (await jwtVerify(token, jwks, verifyOptions)).payload };
  }
  if (!options.publicKey) return undefined;
  const blocks = options.publicKey.match(PEM_BLOCK) ?? [];
  if (!blocks.length) throw new UnreadableKeyError('no PEM public key found');
  let keys: CryptoKey[];
  try {
    keys = await Promise.all(blocks.map((block) => importSPKI(block, 'RS256')));
  } catch (error) {
    throw new UnreadableKeyError((error as Error).message);
  }
  return {
    async verify(token) {
      let failure: unknown;
      for (const key of keys) {
        try {
          return (await jwtVerify(token, key, verifyOptions)).payload;
        } catch (error) {
          failure = error;
        }
      }
      throw failure;
    },
  };
}
