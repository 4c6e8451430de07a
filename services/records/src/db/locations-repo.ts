import type { Pool, PoolClient } from '@rex/db';
import type { Column } from '../domain/fields.ts';
import { attributeValuesColumn, type StoredAttributeValue } from './attribute-values-repo.ts';
import { insertIdempotencyKey } from './idempotency-repo.ts';
import { insertOutboxRows } from './outbox-repo.ts';
import { iso } from './sql.ts';

const LOCATION_SELECT = `
  SELECT l.id, l.name, l.code, l.parent_id, l.centroid_sref, l.centroid_sref_system,
         ${iso('l.created_on')} AS created_on, l.created_by_id, ${iso('l.updated_on')} AS updated_on, l.updated_by_id,
         l.comment, l.external_key, upper(encode(l.centroid_geom, 'hex')) AS centroid_geom, upper(encode(l.boundary_geom, 'hex')) AS boundary_geom,
         l.location_type_id, CASE WHEN l.public THEN 't' ELSE 'f' END AS public, l.centroid_lat AS lat, l.centroid_lon AS lon,
         CASE WHEN l.deleted THEN 't' ELSE 'f' END AS deleted, l.website_id, l.xmin::text AS version,
         ${attributeValuesColumn('location', 'l')}
    FROM records.locations l`;

export type LocationRow = Record<string, string | number | null | StoredAttributeValue[]> & {
  id: string;
  website_id: string;
  created_by_id: string;
  public: string;
  deleted: string;
  version: string;
  centroid_sref: string | null;
  centroid_sref_system: string | null;
  location_type_id: string | null;
  attribute_values: StoredAttributeValue[] | null;
};

export async function findLocation(db: Pool | PoolClient, id: string, lock = false): Promise<LocationRow | undefined> {
  const { rows } = await db.query<LocationRow>(`${LOCATION_SELECT} WHERE l.id = $1${lock ? ' FOR UPDATE OF l' : ''}`, [id]);
  return rows[0];
}

/**
 * Which of `ids` the caller may not see: a location is visible when it is
 * public, or is the caller's own in the caller's website (and not deleted).
 */
export async function invisibleLocations(db: Pool | PoolClient, ids: string[], who: { websiteId: string; userId: string }): Promise<string[]> {
  if (!ids.length) return [];
  const { rows } = await db.query<{ id: string }>(
    `SELECT given.id::text AS id FROM unnest($1::bigint[]) AS given(id)
      WHERE NOT EXISTS (
        SELECT 1 FROM records.locations l
         WHERE l.id = given.id AND NOT l.deleted AND (l.public OR (l.website_id = $2 AND l.created_by_id = $3::bigint)))`,
    [ids, who.websiteId, who.userId || '0'],
  );
  return rows.map((row) => row.id);
}

export const LOCATION_FILTERS: Record<string, 'integer' | 'text'> = {
  id: 'integer',
  location_type_id: 'integer',
  parent_id: 'integer',
  created_by_id: 'integer',
  name: 'text',
  code: 'text',
  external_key: 'text',
};

/** The user's locations in the website, and any public location. */
export async function listLocations(db: Pool, options: { userId: string; websiteId: string | null; filters: Record<string, string>; limit: number; offset: number }): Promise<LocationRow[]> {
  const values: unknown[] = [options.userId, options.websiteId];
  const where = ['NOT l.deleted', '((l.created_by_id = $1 AND l.website_id = $2) OR l.public)'];
  for (const [field, value] of Object.entries(options.filters)) where.push(`l.${field} = $${values.push(value)}`);
  values.push(options.limit + 1, options.offset);
  const { rows } = await db.query<LocationRow>(`${LOCATION_SELECT} WHERE ${where.join(' AND ')} ORDER BY l.id LIMIT $${values.length - 1} OFFSET $${values.length}`, values);
  return rows;
}

export async function deleteLocation(client: PoolClient, id: string, userId: string): Promise<void> {
  await client.query('UPDATE records.locations SET deleted = true, updated_on = now(), updated_by_id = $2 WHERE id = $1', [id, userId]);
}

/**
 * Inserts a location with its outbox event (and the idempotency record when
 * a key is given) in one statement.
 */
export async function insertLocation(
  db: Pool,
  columns: Column,
  owner: { websiteId: string; userId: string },
  idempotency?: { key: string; requestHash: string },
): Promise<{ id: string; created_on: string; updated_on: string; version: string }> {
  const row: Column = { ...columns, website_id: owner.websiteId, created_by_id: owner.userId, updated_by_id: owner.userId };
  const names = Object.keys(row);
  const values: unknown[] = names.map((name) => row[name]);
  const key = idempotency
    ? `, k AS (${insertIdempotencyKey(
        `SELECT $${values.push(owner.websiteId)}, $${values.push(owner.userId)}, $${values.push(idempotency.key)}, $${values.push(idempotency.requestHash)},
                jsonb_build_object('tree', jsonb_build_object('locations', jsonb_build_array(id::text)), 'stamp', ${iso('created_on')}, 'version', xmin::text)
           FROM l`,
      )})`
    : '';
  const { rows } = await db.query(
    `WITH l AS (INSERT INTO records.locations (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})
                RETURNING id, website_id, created_by_id, created_on, updated_on, xmin),
          e AS (${insertOutboxRows("SELECT 'location', id, 'create', website_id, NULL::bigint, created_by_id FROM l")})${key}
     SELECT id, ${iso('created_on')} AS created_on, ${iso('updated_on')} AS updated_on, xmin::text AS version FROM l`,
    values,
  );
  return rows[0];
}
