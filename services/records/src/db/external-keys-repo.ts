import type { Pool, PoolClient } from '@rex/db';

export type KeyedEntity = 'sample' | 'occurrence' | 'location';

export const KEYED_TABLES: Record<KeyedEntity, { table: string; index: string; path: string }> = {
  sample: { table: 'records.samples', index: 'samples_external_key', path: 'samples' },
  occurrence: { table: 'records.occurrences', index: 'occurrences_external_key', path: 'occurrences' },
  location: { table: 'records.locations', index: 'locations_external_key', path: 'locations' },
};

/** The first live record of `entity` in the website holding one of `keys`, other than the records in `exceptIds`. */
export async function recordWithExternalKey(
  db: Pool | PoolClient,
  entity: KeyedEntity,
  websiteId: string,
  keys: string[],
  exceptIds: string[],
): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT t.id::text FROM ${KEYED_TABLES[entity].table} t
      WHERE t.website_id = $1 AND t.external_key = ANY($2::text[]) AND NOT t.deleted AND NOT (t.id = ANY($3::bigint[]))
      ORDER BY t.id LIMIT 1`,
    [websiteId, keys, exceptIds],
  );
  return rows[0]?.id;
}
