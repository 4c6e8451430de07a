import { importSPKI, type CryptoKey } from 'jose';
import type { Pool } from '@rex/db';
import { TtlCache } from '@rex/cache';

export type Website = {
  id: string;
  url: string;
  publicKey?: CryptoKey;
  /** The stored key could not be read: tokens for this website cannot be checked. */
  badKey: boolean;
  allowAnonJwtPost: boolean;
};

/** Reads websites and roles from the auth schema, caching each answer for a short while. */
export function createDirectory(db: Pool, ttlMs: number) {
  const websites = new TtlCache<Website | null>(ttlMs, 1_000);
  const roles = new TtlCache<number | null>(ttlMs, 50_000);

  async function loadWebsite(url: string): Promise<Website | null> {
    const { rows } = await db.query<{ id: string; url: string; public_key: string | null; allow_anon_jwt_post: boolean }>(
      `SELECT id, url, public_key, allow_anon_jwt_post FROM auth.websites
        WHERE NOT deleted AND (url = $1 OR $1 = ANY (staging_urls))
        ORDER BY (url = $1) DESC, (public_key IS NOT NULL) DESC, id LIMIT 1`,
      [url],
    );
    const row = rows[0];
    if (!row) return null;
    let publicKey: CryptoKey | undefined;
    let badKey = false;
    if (row.public_key) {
      try {
        publicKey = await importSPKI(row.public_key, 'RS256');
      } catch {
        badKey = true;
      }
    }
    return { id: row.id, url: row.url, publicKey, badKey, allowAnonJwtPost: row.allow_anon_jwt_post };
  }

  return {
    websiteByUrl: (url: string) => websites.getOrLoad(url, () => loadWebsite(url)),
    /** The user's role on the website (1 admin, 2 editor, 3 user), or null when none or banned. */
    roleOf: (userId: string, websiteId: string) =>
      roles.getOrLoad(`${userId}:${websiteId}`, async () => {
        const { rows } = await db.query<{ site_role_id: number }>(
          `SELECT uw.site_role_id FROM auth.users_websites uw JOIN auth.users u ON u.id = uw.user_id
            WHERE uw.user_id = $1 AND uw.website_id = $2 AND NOT uw.banned AND NOT u.deleted`,
          [userId, websiteId],
        );
        return rows[0]?.site_role_id ?? null;
      }),
    clear: () => {
      websites.clear();
      roles.clear();
    },
  };
}

export type Directory = ReturnType<typeof createDirectory>;
