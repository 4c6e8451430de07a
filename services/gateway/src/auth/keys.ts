import { createLocalJWKSet, importSPKI, jwtVerify, type CryptoKey, type JSONWebKeySet, type JWTPayload } from 'jose';

const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g;
const ALGORITHMS = ['RS256'];
const CLOCK_TOLERANCE_S = 60;

/** Verifies a token against a website's or client's keys: one or more PEM keys, or a JWKS URL. */
export type KeySet = { verify: (token: string) => Promise<JWTPayload> };

export class UnreadableKeyError extends Error {}

const verifyOptions = { algorithms: ALGORITHMS, clockTolerance: CLOCK_TOLERANCE_S };
/** Between two fetches of one JWKS after a failure or an unknown key id. */
const JWKS_COOLDOWN_MS = 5_000;

/**
 * The keys published at one JWKS URL, shared by every website and client
 * naming it. They are fetched again once older than `cacheMs`, or when a
 * token names a key they do not hold; when a fetch fails, the keys last
 * fetched keep being used, so an outage of the JWKS host does not stop
 * tokens signed with known keys.
 */
class RemoteKeySet {
  private keys?: ReturnType<typeof createLocalJWKSet>;
  private fetchedAt = 0;
  private attemptedAt = 0;
  private fetching?: Promise<void>;

  private readonly url: URL;
  private readonly cacheMs: number;

  constructor(url: URL, cacheMs: number) {
    this.url = url;
    this.cacheMs = cacheMs;
  }

  private refresh(): Promise<void> {
    this.fetching ??= (async () => {
      this.attemptedAt = Date.now();
      try {
        const response = await fetch(this.url, { signal: AbortSignal.timeout(3_000), redirect: 'error' });
        if (!response.ok) throw new Error(`JWKS ${this.url} answered ${response.status}`);
        this.keys = createLocalJWKSet((await response.json()) as JSONWebKeySet);
        this.fetchedAt = Date.now();
      } finally {
        this.fetching = undefined;
      }
    })();
    return this.fetching;
  }

  private async refreshIfDue(force: boolean): Promise<void> {
    const due = !this.keys || force || Date.now() - this.fetchedAt > this.cacheMs;
    // After a failed fetch, or for a key id the set lacks, the host is asked again only after a pause.
    const pausing = this.keys && (force || this.attemptedAt > this.fetchedAt) && Date.now() - this.attemptedAt < JWKS_COOLDOWN_MS;
    if (!due || pausing) return;
    try {
      await this.refresh();
    } catch (error) {
      if (!this.keys) throw error;
    }
  }

  async verify(token: string): Promise<JWTPayload> {
    await this.refreshIfDue(false);
    try {
      return (await jwtVerify(token, this.keys!, verifyOptions)).payload;
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
      // A key published since the last fetch.
      await this.refreshIfDue(true);
      return (await jwtVerify(token, this.keys!, verifyOptions)).payload;
    }
  }
}

const remoteKeySets = new Map<string, RemoteKeySet>();

/**
 * Builds the key set of a website or client. Several PEM keys are tried in
 * turn (so a key can be rotated without downtime); a JWKS URL's keys are
 * shared by everything naming that URL (see RemoteKeySet).
 */
export async function keySet(options: { publicKey: string | null; jwksUrl: string | null; jwksCacheMs: number }): Promise<KeySet | undefined> {
  if (options.jwksUrl) {
    let remote = remoteKeySets.get(options.jwksUrl);
    if (!remote) {
      remote = new RemoteKeySet(new URL(options.jwksUrl), options.jwksCacheMs);
      remoteKeySets.set(options.jwksUrl, remote);
    }
    const shared = remote;
    return { verify: (token) => shared.verify(token) };
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
