import { z } from '@rex/config';
import { bumpIdSequences, forEntry, upsertById, type PoolClient } from '@rex/db';
import { hashSecret, verifySecret } from '../auth/secrets.ts';

// The auth schema's part of a fixtures file (the admin tool's import): websites, users, clients and
// their connections, website sharing; checked here and written here, by the schema's owner.

const id = z.number().int().positive();
const ROLES = { admin: 1, editor: 2, user: 3 } as const;
const SHARING_CODES = { reporting: 'R', verification: 'V', data_flow: 'D', moderation: 'M', peer_review: 'P', editing: 'E' } as const;

const sharing = z.string().transform((value, ctx) => {
  const code = SHARING_CODES[value as keyof typeof SHARING_CODES] ?? value.toUpperCase();
  if (!Object.values(SHARING_CODES).includes(code as 'R')) {
    ctx.addIssue({ code: 'custom', message: `unknown sharing ${value}; one of ${Object.keys(SHARING_CODES).join(', ')} or R, V, D, M, P, E` });
    return z.NEVER;
  }
  return code;
});

/** The auth entries of a fixtures file, as zod object fields (the admin tool joins them with the records' ones). */
export const AUTH_FIXTURES = {
  websites: z
    .array(
      z
        .object({
          id,
          title: z.string().min(1),
          url: z.string().min(1),
          password: z.string().min(1),
          public_key: z.string().nullable().optional(),
          jwks_url: z.string().url().nullable().optional(),
          allow_anon_jwt_post: z.boolean().default(false),
          jwt_require_exp: z.boolean().default(false),
          jwt_max_age_s: z.number().int().positive().nullable().default(null),
          jwt_audience: z.string().min(1).nullable().default(null),
          staging_urls: z.array(z.string()).default([]),
        })
        .strict(),
    )
    .default([]),
  users: z
    .array(
      z
        .object({
          id,
          username: z.string().min(1),
          email: z.string().optional(),
          websites: z
            .array(z.object({ website_id: id, role: z.enum(['admin', 'editor', 'user']).transform((r) => ROLES[r]), banned: z.boolean().default(false) }).strict())
            .default([]),
        })
        .strict(),
    )
    .default([]),
  clients: z
    .array(
      z
        .object({
          id,
          username: z.string().min(1),
          title: z.string().optional(),
          website_id: id.optional(),
          secret: z.string().min(1),
          public_key: z.string().nullable().optional(),
          jwks_url: z.string().url().nullable().optional(),
          connections: z
            .array(
              z
                .object({
                  proj_id: z.string().min(1),
                  website_id: id,
                  title: z.string().min(1),
                  sharing: sharing.default('R'),
                  allow_reports: z.boolean().default(true),
                  limit_to_reports: z.array(z.string()).optional(),
                  allow_data_resources: z.boolean().default(true),
                  limit_to_data_resources: z.array(z.string()).optional(),
                  allow_confidential: z.boolean().default(false),
                  allow_sensitive: z.boolean().default(true),
                  allow_unreleased: z.boolean().default(false),
                  full_precision_sensitive_records: z.boolean().default(false),
                  search_index: z.array(z.string()).default([]),
                  allow_change_feed: z.boolean().default(false),
                })
                .strict(),
            )
            .default([]),
        })
        .strict(),
    )
    .default([]),
  website_sharing: z.array(z.object({ from_website_id: id, to_website_id: id, tasks: z.array(sharing).min(1) }).strict()).default([]),
};

const AuthFixtures = z.object(AUTH_FIXTURES);
export type AuthFixtures = z.infer<typeof AuthFixtures>;

/**
 * Creates or updates the auth entries, keeping their ids, in the caller's transaction; `count`
 * is told of each entry written. Throws FixtureError naming the first entry refused.
 */
export async function importAuthFixtures(client: PoolClient, fixtures: AuthFixtures, count: (kind: string) => void): Promise<void> {
  for (const [i, w] of fixtures.websites.entries()) {
    await upsertById(
      client,
      'auth.websites',
      {
        id: w.id,
        title: w.title,
        url: w.url,
        staging_urls: w.staging_urls,
        password: w.password,
        public_key: w.public_key ?? null,
        jwks_url: w.jwks_url ?? null,
        allow_anon_jwt_post: w.allow_anon_jwt_post,
        jwt_require_exp: w.jwt_require_exp,
        jwt_max_age_s: w.jwt_max_age_s,
        jwt_audience: w.jwt_audience,
        deleted: false,
        updated_on: new Date(),
      },
      `websites[${i}]`,
    );
    count('websites');
  }
  for (const [i, u] of fixtures.users.entries()) {
    await upsertById(client, 'auth.users', { id: u.id, username: u.username, email: u.email ?? null, deleted: false, updated_on: new Date() }, `users[${i}]`);
    await client.query('DELETE FROM auth.users_websites WHERE user_id = $1', [u.id]);
    for (const [j, role] of u.websites.entries()) {
      await forEntry(`users[${i}].websites[${j}]`, () =>
        client.query('INSERT INTO auth.users_websites (user_id, website_id, site_role_id, banned) VALUES ($1, $2, $3, $4)', [u.id, role.website_id, role.role, role.banned]),
      );
    }
    count('users');
  }
  for (const [i, c] of fixtures.clients.entries()) {
    const { rows } = await client.query<{ secret_hash: string }>('SELECT secret_hash FROM auth.clients WHERE id = $1', [c.id]);
    // A secret already stored keeps its hash (and salt), so importing the same file twice changes nothing.
    const secretHash = rows[0] && (await verifySecret(c.secret, rows[0].secret_hash)) ? rows[0].secret_hash : hashSecret(c.secret);
    await upsertById(
      client,
      'auth.clients',
      { id: c.id, username: c.username, title: c.title ?? c.username, website_id: c.website_id ?? null, secret_hash: secretHash, public_key: c.public_key ?? null, jwks_url: c.jwks_url ?? null, deleted: false },
      `clients[${i}]`,
    );
    for (const [j, conn] of c.connections.entries()) {
      await forEntry(`clients[${i}].connections[${j}]`, () =>
        client.query(
          `INSERT INTO auth.client_connections (client_id, proj_id, website_id, title, sharing, allow_reports, limit_to_reports,
             allow_data_resources, limit_to_data_resources, allow_confidential, allow_sensitive, allow_unreleased,
             full_precision_sensitive_records, search_index, allow_change_feed, deleted)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, false)
           ON CONFLICT (client_id, proj_id) DO UPDATE SET website_id = EXCLUDED.website_id, title = EXCLUDED.title,
             sharing = EXCLUDED.sharing, allow_reports = EXCLUDED.allow_reports, limit_to_reports = EXCLUDED.limit_to_reports,
             allow_data_resources = EXCLUDED.allow_data_resources, limit_to_data_resources = EXCLUDED.limit_to_data_resources,
             allow_confidential = EXCLUDED.allow_confidential, allow_sensitive = EXCLUDED.allow_sensitive,
             allow_unreleased = EXCLUDED.allow_unreleased, full_precision_sensitive_records = EXCLUDED.full_precision_sensitive_records,
             search_index = EXCLUDED.search_index, allow_change_feed = EXCLUDED.allow_change_feed, deleted = false`,
          [
            c.id, conn.proj_id, conn.website_id, conn.title, conn.sharing, conn.allow_reports, conn.limit_to_reports ?? null,
            conn.allow_data_resources, conn.limit_to_data_resources ?? null, conn.allow_confidential, conn.allow_sensitive,
            conn.allow_unreleased, conn.full_precision_sensitive_records, conn.search_index, conn.allow_change_feed,
          ],
        ),
      );
    }
    count('clients');
  }
  for (const [i, share] of fixtures.website_sharing.entries()) {
    await forEntry(`website_sharing[${i}]`, () =>
      client.query(
        `INSERT INTO auth.website_sharing (from_website_id, to_website_id, tasks) VALUES ($1, $2, $3)
         ON CONFLICT (from_website_id, to_website_id) DO UPDATE SET tasks = EXCLUDED.tasks`,
        [share.from_website_id, share.to_website_id, share.tasks],
      ),
    );
    count('website_sharing');
  }
  await bumpIdSequences(client, ['auth.websites', 'auth.users', 'auth.clients']);
}

/** The ids of the websites that exist (not deleted), for the records' entries that name one. */
export async function liveWebsiteIds(client: PoolClient): Promise<Set<number>> {
  const { rows } = await client.query<{ id: string }>('SELECT id FROM auth.websites WHERE NOT deleted');
  return new Set(rows.map((row) => Number(row.id)));
}
