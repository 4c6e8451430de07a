import { hash } from 'node:crypto';
import { TtlCache, type Invalidation } from '@rex/cache';
import type { Pool } from '@rex/db';
import { keySet, UnreadableKeyError, type KeySet } from './keys.ts';
import { HttpError } from '../http-error.ts';
import { verifySecret } from './secrets.ts';

export type Website = {
  id: string;
  url: string;
  password: string;
  keys?: KeySet;
  /** The stored key cannot be read: tokens for this website cannot be checked. */
  badKey: boolean;
  allowAnonJwtPost: boolean;
  /** What its user tokens must carry: an expiry, an issue time no older than maxAgeS, this audience. */
  tokenRules: TokenRules;
};

export type TokenRules = { requireExp: boolean; maxAgeS: number | null; audience: string | null };

export type Connection = {
  projId: string;
  websiteId: string;
  title: string;
  sharing: string;
  allowReports: boolean;
  limitToReports: string[] | null;
  allowDataResources: boolean;
  limitToDataResources: string[] | null;
  allowConfidential: boolean;
  allowSensitive: boolean;
  allowUnreleased: boolean;
  fullPrecisionSensitiveRecords: boolean;
  searchIndex: string[];
  allowChangeFeed: boolean;
};

export type Client = {
  id: string;
  username: string;
  secretHash: string;
  keys?: KeySet;
  badKey: boolean;
  connections: Map<string, Connection>;
};

type WebsiteRow = {
  id: string;
  url: string;
  password: string;
  public_key: string | null;
  jwks_url: string | null;
  allow_anon_jwt_post: boolean;
  jwt_require_exp: boolean;
  jwt_max_age_s: number | null;
  jwt_audience: string | null;
};

/** The notification channel the auth schema's triggers announce every change on (migration 0005). */
export const AUTH_CHANGED = 'rex_auth_changed';

/** Wrong secrets a client may be sent in a minute before further attempts are refused (429) unchecked. */
export const CLIENT_FAILURES_PER_MINUTE = 10;

/** Reads websites, roles and clients from the auth schema, caching each answer for `ttlMs`. */
export function createDirectory(db: Pool, ttlMs: number, jwksCacheMs = 10 * 60_000, changes?: Invalidation) {
  const websitesByUrl = new TtlCache<Website | null>(ttlMs, 1_000, changes);
  const websitesById = new TtlCache<Website | null>(ttlMs, 1_000, changes);
  const roles = new TtlCache<number | null>(ttlMs, 50_000, changes);
  const clients = new TtlCache<Client | null>(ttlMs, 1_000, changes);
  const clientsById = new TtlCache<Client | null>(ttlMs, 1_000, changes);
  const secrets = new TtlCache<boolean>(ttlMs, 10_000, changes);
  // Failed secret checks per client in the current minute: past the limit, no scrypt is run.
  const failures = new TtlCache<number>(60_000, 10_000);
  // The same count for names no client has, kept apart so that a flood of made-up names cannot
  // push real clients' counts out.
  const unknownNameFailures = new TtlCache<number>(60_000, 10_000);
  /** Refuses (429) a key past the limit; otherwise `attempt` decides, and a failure is counted. */
  async function throttled(cache: TtlCache<number>, key: string, attempt: () => Promise<boolean>): Promise<boolean> {
    const failed = cache.get(key) ?? 0;
    if (failed >= CLIENT_FAILURES_PER_MINUTE) throw new HttpError(429, 'Too many failed attempts for this client; try again in a minute.');
    const matches = await attempt();
    // The minute runs from the first failure.
    if (!matches) cache.set(key, failed + 1, failed === 0 ? 60_000 : cache.ttlOf(key));
    return matches;
  }
  const sharing = new TtlCache<string[]>(ttlMs, 10_000, changes);

  async function keysOf(row: { public_key: string | null; jwks_url: string | null }): Promise<{ keys?: KeySet; badKey: boolean }> {
    try {
      return { keys: await keySet({ publicKey: row.public_key, jwksUrl: row.jwks_url, jwksCacheMs }), badKey: false };
    } catch (error) {
      if (error instanceof UnreadableKeyError) return { badKey: true };
      throw error;
    }
  }

  async function toWebsite(row: WebsiteRow | undefined): Promise<Website | null> {
    if (!row) return null;
    return {
      id: row.id,
      url: row.url,
      password: row.password,
      allowAnonJwtPost: row.allow_anon_jwt_post,
      tokenRules: { requireExp: row.jwt_require_exp, maxAgeS: row.jwt_max_age_s, audience: row.jwt_audience },
      ...(await keysOf(row)),
    };
  }

  // Names from credentials that match nothing stay out of the caches, so a
  // flood of made-up names cannot push the real ones out. They are remembered
  // apart, in a small cache of their own, so that a name asked for again and
  // again (a client's token, whose iss no website has, first tried as a
  // website's) is not looked up in the database each time; a flood only
  // pushes other unknown names out of it.
  const known = (value: unknown) => value !== null;
  const unknownNames = new TtlCache<unknown>(ttlMs, 1_000, changes);
  async function unlessUnknown<V>(kind: string, name: string, lookUp: () => Promise<V | null>): Promise<V | null> {
    // Only "unknown" (null) is kept, and not when the auth schema changed while it was looked up.
    return (await unknownNames.getOrLoad(`${kind}\0${name}`, lookUp, (found) => found === null)) as V | null;
  }
  // A name from a credential that no website or client can have: looked up nowhere.
  const unusableName = (name: string) => name.length > 2_000 || name.includes('\0');

  type ClientRow = { id: string; username: string; secret_hash: string; public_key: string | null; jwks_url: string | null };

  /** A REST client (not deleted) with its live connections, found by username or id. */
  async function loadClient(column: 'username' | 'id', value: string): Promise<Client | null> {
    const { rows } = await db.query<ClientRow>(`SELECT id, username, secret_hash, public_key, jwks_url FROM auth.clients WHERE ${column} = $1 AND NOT deleted`, [value]);
    const row = rows[0];
    if (!row) return null;
    const { rows: connections } = await db.query(
      `SELECT c.proj_id, c.website_id, c.title, c.sharing, c.allow_reports, c.limit_to_reports, c.allow_data_resources,
              c.limit_to_data_resources, c.allow_confidential, c.allow_sensitive, c.allow_unreleased,
              c.full_precision_sensitive_records, c.search_index, c.allow_change_feed
         FROM auth.client_connections c JOIN auth.websites w ON w.id = c.website_id
        WHERE c.client_id = $1 AND NOT c.deleted AND NOT w.deleted`,
      [row.id],
    );
    return {
      id: row.id,
      username: row.username,
      secretHash: row.secret_hash,
      connections: new Map(
        connections.map((c) => [
          c.proj_id,
          {
            projId: c.proj_id,
            websiteId: c.website_id,
            title: c.title,
            sharing: c.sharing,
            allowReports: c.allow_reports,
            limitToReports: c.limit_to_reports,
            allowDataResources: c.allow_data_resources,
            limitToDataResources: c.limit_to_data_resources,
            allowConfidential: c.allow_confidential,
            allowSensitive: c.allow_sensitive,
            allowUnreleased: c.allow_unreleased,
            fullPrecisionSensitiveRecords: c.full_precision_sensitive_records,
            searchIndex: c.search_index,
            allowChangeFeed: c.allow_change_feed,
          },
        ]),
      ),
      ...(await keysOf(row)),
    };
  }

  const WEBSITE_COLUMNS = 'id, url, password, public_key, jwks_url, allow_anon_jwt_post, jwt_require_exp, jwt_max_age_s, jwt_audience';

  return {
    /** The website whose url (or one of its staging urls) is `url`; one with a key first. */
    websiteByUrl: async (url: string): Promise<Website | null> => {
      if (unusableName(url)) return null;
      return unlessUnknown('website', url, () => websitesByUrl.getOrLoad(
        url,
        async () => {
          const { rows } = await db.query<WebsiteRow>(
            `SELECT ${WEBSITE_COLUMNS} FROM auth.websites
              WHERE NOT deleted AND (url = $1 OR $1 = ANY (staging_urls))
              ORDER BY (url = $1) DESC, (public_key IS NOT NULL OR jwks_url IS NOT NULL) DESC, id LIMIT 1`,
            [url],
          );
          return toWebsite(rows[0]);
        },
        known,
      ));
    },

    websiteById: (id: string) =>
      websitesById.getOrLoad(id, async () => {
        const { rows } = await db.query<WebsiteRow>(`SELECT ${WEBSITE_COLUMNS} FROM auth.websites WHERE id = $1 AND NOT deleted`, [id]);
        return toWebsite(rows[0]);
      }),

    /** The user's role on the website (1 admin, 2 editor, 3 user), or null when none, banned or deleted. */
    roleOf: (userId: string, websiteId: string) =>
      roles.getOrLoad(`${userId}:${websiteId}`, async () => {
        const { rows } = await db.query<{ site_role_id: number }>(
          `SELECT uw.site_role_id FROM auth.users_websites uw JOIN auth.users u ON u.id = uw.user_id
            WHERE uw.user_id = $1 AND uw.website_id = $2 AND NOT uw.banned AND NOT u.deleted`,
          [userId, websiteId],
        );
        return rows[0]?.site_role_id ?? null;
      }),

    /** A REST client defined with `pnpm admin` (not deleted), with its live connections. */
    clientByUsername: async (username: string): Promise<Client | null> => {
      if (unusableName(username)) return null;
      return unlessUnknown('client', username, () => clients.getOrLoad(username, () => loadClient('username', username), known));
    },

    /** The same, by id: whose a webhook subscription is. */
    clientById: (id: string): Promise<Client | null> => clientsById.getOrLoad(id, () => loadClient('id', id)),

    /** The website and every website that shares its records with it for `task` (R, V, D, M, P, E). */
    sharingWebsites: (websiteId: string, task: string) =>
      sharing.getOrLoad(`${websiteId}:${task}`, async () => {
        const { rows } = await db.query<{ id: string }>(
          `SELECT s.from_website_id AS id FROM auth.website_sharing s JOIN auth.websites w ON w.id = s.from_website_id
            WHERE s.to_website_id = $1 AND $2 = ANY (s.tasks) AND NOT w.deleted ORDER BY 1`,
          [websiteId, task],
        );
        return [websiteId, ...rows.map((row) => row.id)];
      }),

    /**
     * Checks a client secret against its scrypt hash. scrypt is slow on
     * purpose, so a correct answer is remembered (keyed by a digest, never the
     * secret) for the cache's lifetime, and requests that bring the same secret
     * while it is being checked share that check: when the answer expires
     * under load, one scrypt runs instead of one per request waiting.
     */
    clientSecretMatches(client: Client, secret: string): Promise<boolean> {
      const key = hash('sha256', `${client.secretHash}\0${secret}`, 'base64');
      return secrets.getOrLoad(key, () => throttled(failures, client.id, () => verifySecret(secret, client.secretHash)), (matches) => matches);
    },

    /**
     * A secret given for a name no client has: a failure counted as for a real client's name, so
     * the name is refused (429) after as many attempts, and the answers tell nothing of which
     * names exist.
     */
    async unknownClientAttempt(username: string): Promise<void> {
      await throttled(unknownNameFailures, username, async () => false);
    },
  };
}

export type Directory = ReturnType<typeof createDirectory>;
