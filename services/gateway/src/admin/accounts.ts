import { updateWhere, type Pool } from '@rex/db';
import { hashSecret } from '../auth/secrets.ts';

// The auth schema's rows as an operator keeps them (the admin tool's commands): websites, users and
// their roles, clients and their connections. Only reads and writes; the tool parses and reports.

type Row = Record<string, unknown>;
/** Columns to change; undefined ones are left as they are. */
type Changes = Record<string, unknown>;

export const websites = {
  list: async (db: Pool): Promise<Row[]> =>
    (await db.query(`SELECT id, title, url, (public_key IS NOT NULL) AS has_key, jwks_url, allow_anon_jwt_post, deleted AS disabled FROM auth.websites ORDER BY id`)).rows,

  async add(db: Pool, website: { title: string; url: string; password: string; publicKey: string | null; jwksUrl: string | null; allowAnonJwtPost: boolean }): Promise<string> {
    const { rows } = await db.query<{ id: string }>(
      'INSERT INTO auth.websites (title, url, password, public_key, jwks_url, allow_anon_jwt_post) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
      [website.title, website.url, website.password, website.publicKey, website.jwksUrl, website.allowAnonJwtPost],
    );
    return rows[0].id;
  },

  /** False when there is no such website. */
  update: (db: Pool, id: unknown, changes: Changes): Promise<boolean> => updateWhere(db, 'auth.websites', { id }, { ...changes, updated_on: new Date() }),

  exists: async (db: Pool, id: unknown): Promise<boolean> => (await db.query('SELECT 1 FROM auth.websites WHERE id = $1 AND NOT deleted', [id])).rows.length > 0,

  /** Whether the database holds any website at all, disabled ones too (an operator's data). */
  anyAtAll: async (db: Pool): Promise<boolean> => (await db.query('SELECT 1 FROM auth.websites LIMIT 1')).rows.length > 0,
};

export const users = {
  /** With each one's roles (`<website>:<role>`), only those with a role on `websiteId` when given. */
  list: async (db: Pool, websiteId: unknown): Promise<Row[]> =>
    (
      await db.query(
        `SELECT u.id, u.username, u.email, u.deleted AS disabled,
                array_remove(array_agg(CASE WHEN uw.website_id IS NULL THEN NULL
                  ELSE uw.website_id || ':' || CASE uw.site_role_id WHEN 1 THEN 'admin' WHEN 2 THEN 'editor' ELSE 'user' END
                       || CASE WHEN uw.banned THEN '(banned)' ELSE '' END END ORDER BY uw.website_id), NULL) AS roles
           FROM auth.users u LEFT JOIN auth.users_websites uw ON uw.user_id = u.id
          WHERE $1::bigint IS NULL OR EXISTS (SELECT 1 FROM auth.users_websites x WHERE x.user_id = u.id AND x.website_id = $1)
          GROUP BY u.id ORDER BY u.id`,
        [websiteId ?? null],
      )
    ).rows,

  async add(db: Pool, user: { username: string; email: string | null }): Promise<string> {
    const { rows } = await db.query<{ id: string }>('INSERT INTO auth.users (username, email) VALUES ($1, $2) RETURNING id', [user.username, user.email]);
    return rows[0].id;
  },

  update: (db: Pool, id: unknown, changes: Changes): Promise<boolean> => updateWhere(db, 'auth.users', { id }, { ...changes, updated_on: new Date() }),

  /** Gives the user a role (1 admin, 2 editor, 3 user) on the website; throws when either does not exist. */
  async setRole(db: Pool, userId: unknown, websiteId: unknown, role: number, banned: boolean): Promise<void> {
    await db.query(
      `INSERT INTO auth.users_websites (user_id, website_id, site_role_id, banned) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, website_id) DO UPDATE SET site_role_id = EXCLUDED.site_role_id, banned = EXCLUDED.banned`,
      [userId, websiteId, role, banned],
    );
  },

  async removeRole(db: Pool, userId: unknown, websiteId: unknown): Promise<void> {
    await db.query('DELETE FROM auth.users_websites WHERE user_id = $1 AND website_id = $2', [userId, websiteId]);
  },
};

export const clients = {
  list: async (db: Pool): Promise<Row[]> =>
    (
      await db.query(
        `SELECT c.id, c.username, c.title, (c.public_key IS NOT NULL) AS has_key, c.jwks_url, c.deleted AS disabled,
                array_remove(array_agg(CASE WHEN NOT cc.deleted THEN cc.proj_id END ORDER BY cc.proj_id), NULL) AS connections
           FROM auth.clients c LEFT JOIN auth.client_connections cc ON cc.client_id = c.id GROUP BY c.id ORDER BY c.id`,
      )
    ).rows,

  /** The secret is stored hashed, as the gateway checks it. */
  async add(db: Pool, client: { username: string; title: string; secret: string; publicKey: string | null; jwksUrl: string | null }): Promise<string> {
    const { rows } = await db.query<{ id: string }>(
      'INSERT INTO auth.clients (username, title, secret_hash, public_key, jwks_url) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [client.username, client.title, hashSecret(client.secret), client.publicKey, client.jwksUrl],
    );
    return rows[0].id;
  },

  update: (db: Pool, id: unknown, changes: Changes): Promise<boolean> => updateWhere(db, 'auth.clients', { id }, changes),

  setSecret: (db: Pool, id: unknown, secret: string): Promise<boolean> => updateWhere(db, 'auth.clients', { id }, { secret_hash: hashSecret(secret) }),
};

export type NewConnection = {
  clientId: unknown;
  projId: string;
  websiteId: unknown;
  title: string;
  sharing: string;
  allowConfidential: boolean;
  allowSensitive: boolean;
  allowUnreleased: boolean;
  allowReports: boolean;
  allowDataResources: boolean;
  allowChangeFeed: boolean;
};

export const connections = {
  /** Throws when the client or website does not exist or the project id is taken. */
  async add(db: Pool, c: NewConnection): Promise<void> {
    await db.query(
      `INSERT INTO auth.client_connections (client_id, proj_id, website_id, title, sharing, allow_confidential, allow_sensitive,
         allow_unreleased, allow_reports, allow_data_resources, allow_change_feed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [c.clientId, c.projId, c.websiteId, c.title, c.sharing, c.allowConfidential, c.allowSensitive, c.allowUnreleased, c.allowReports, c.allowDataResources, c.allowChangeFeed],
    );
  },

  update: (db: Pool, clientId: unknown, projId: unknown, changes: Changes): Promise<boolean> =>
    updateWhere(db, 'auth.client_connections', { client_id: clientId, proj_id: projId }, changes),

  /** The live connection's website and whether it may read the change feed; undefined when there is none. */
  async find(db: Pool, clientId: unknown, projId: unknown): Promise<{ website_id: string; allow_change_feed: boolean } | undefined> {
    const { rows } = await db.query<{ website_id: string; allow_change_feed: boolean }>(
      'SELECT website_id, allow_change_feed FROM auth.client_connections WHERE client_id = $1 AND proj_id = $2 AND NOT deleted',
      [clientId, projId],
    );
    return rows[0];
  },
};
