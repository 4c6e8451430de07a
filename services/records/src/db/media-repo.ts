import type { Pool, PoolClient } from '@rex/db';
import { MEDIA, type MediaKind } from '../domain/media.ts';
import { iso } from './sql.ts';

/** Every field of a medium as the API returns it. */
const select = (kind: MediaKind) => `
  SELECT m.id, m.${MEDIA[kind].parentColumn}, m.path, m.caption, m.media_type_id, m.media_type, m.exif, m.licence_id,
         ${kind === 'occurrence' ? 'm.external_details, ' : ''}m.website_id,
         ${iso('m.created_on')} AS created_on, m.created_by_id, ${iso('m.updated_on')} AS updated_on, m.updated_by_id,
         CASE WHEN m.deleted THEN 't' ELSE 'f' END AS deleted, m.xmin::text AS version
    FROM ${MEDIA[kind].table} m`;

export type MediumRow = Record<string, string | null> & { id: string; website_id: string; created_by_id: string; deleted: string; version: string };

export async function findMedium(db: Pool | PoolClient, kind: MediaKind, id: string, lock = false): Promise<MediumRow | undefined> {
  const { rows } = await db.query<MediumRow>(`${select(kind)} WHERE m.id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0];
}

export const mediumFilters = (kind: MediaKind): Record<string, 'integer' | 'text'> => ({
  id: 'integer',
  [MEDIA[kind].parentColumn]: 'integer',
  media_type_id: 'integer',
  licence_id: 'integer',
  caption: 'text',
  path: 'text',
  media_type: 'text',
});

export async function listMedia(
  db: Pool,
  kind: MediaKind,
  options: { userId: string; websiteId: string | null; filters: Record<string, string>; limit: number; offset: number },
): Promise<MediumRow[]> {
  const values: unknown[] = [options.userId];
  const where = ['m.created_by_id = $1', 'NOT m.deleted'];
  if (options.websiteId) where.push(`m.website_id = $${values.push(options.websiteId)}`);
  for (const [field, value] of Object.entries(options.filters)) where.push(`m.${field} = $${values.push(value)}`);
  values.push(options.limit + 1, options.offset);
  const { rows } = await db.query<MediumRow>(`${select(kind)} WHERE ${where.join(' AND ')} ORDER BY m.id LIMIT $${values.length - 1} OFFSET $${values.length}`, values);
  return rows;
}

/** The record a standalone medium is added to, with what ownership and the outbox need. */
export async function parentOf(db: Pool, kind: MediaKind, id: string): Promise<{ website_id: string; created_by_id: string; deleted: boolean; survey_id: string | null } | undefined> {
  const query = {
    sample: 'SELECT website_id, created_by_id, deleted, survey_id FROM records.samples WHERE id = $1',
    occurrence: `SELECT o.website_id, o.created_by_id, o.deleted, s.survey_id FROM records.occurrences o JOIN records.samples s ON s.id = o.sample_id WHERE o.id = $1`,
    location: 'SELECT website_id, created_by_id, deleted, NULL AS survey_id FROM records.locations WHERE id = $1',
  }[kind];
  const { rows } = await db.query(query, [id]);
  return rows[0];
}

/** Soft-deletes the live media of the given records and releases their files; returns the ids deleted. */
export async function deleteMediaOf(client: PoolClient, kind: MediaKind, parentIds: string[], userId: string): Promise<string[]> {
  if (!parentIds.length) return [];
  const { rows } = await client.query<{ id: string; path: string }>(
    `UPDATE ${MEDIA[kind].table} SET deleted = true, updated_on = now(), updated_by_id = $2
      WHERE ${MEDIA[kind].parentColumn} = ANY($1::bigint[]) AND NOT deleted RETURNING id, path`,
    [parentIds, userId],
  );
  await releaseFiles(client, rows.map((row) => row.path));
  return rows.map((row) => row.id);
}

/** Soft-deletes one medium and releases its file. */
export async function deleteMedium(client: PoolClient, kind: MediaKind, id: string, userId: string): Promise<void> {
  const { rows } = await client.query<{ path: string }>(
    `UPDATE ${MEDIA[kind].table} SET deleted = true, updated_on = now(), updated_by_id = $2 WHERE id = $1 RETURNING path`,
    [id, userId],
  );
  await releaseFiles(client, rows.map((row) => row.path));
}

/** The files of deleted media, to be forgotten by media (see media-claims.ts forgetReleased). */
async function releaseFiles(client: PoolClient, paths: string[]): Promise<void> {
  if (paths.length) await client.query('UPDATE records.media_claims SET released_on = now() WHERE path = ANY($1::text[]) AND released_on IS NULL', [paths]);
}
