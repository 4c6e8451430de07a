import type { Pool, PoolClient } from '@rex/db';
import type { StoredSample } from '../domain/samples.ts';
import { attributeValuesColumn, type StoredAttributeValue } from './attribute-values-repo.ts';
import { sharedReadById } from './shared-query.ts';
import { iso } from './sql.ts';
import { pageStatementName } from './statement-names.ts';

export type SampleOwnership = { id: string; website_id: string; created_by_id: string; deleted: boolean };

/** Every sample field of the API, formatted as the API returns it. */
const SAMPLE_SELECT = `
  SELECT s.id, s.survey_id, s.location_id, s.date_start, s.date_end, s.date_type, s.entered_sref, s.entered_sref_system,
         s.location_name, ${iso('s.created_on')} AS created_on, ${iso('s.updated_on')} AS updated_on,
         s.created_by_id, s.updated_by_id, s.comment, s.external_key, s.sample_method_id,
         CASE WHEN s.deleted THEN 't' ELSE 'f' END AS deleted, upper(encode(s.geom, 'hex')) AS geom,
         s.recorder_names, s.parent_id, s.input_form, s.group_id, s.privacy_precision, s.record_status,
         s.verified_by_id, ${iso('s.verified_on')} AS verified_on, s.licence_id,
         s.centroid_lat AS lat, s.centroid_lon AS lon, s.website_id AS owner_website_id, s.xmin::text AS version,
         ${attributeValuesColumn('sample', 's')}
    FROM records.samples s`;

export type SampleRow = Record<string, string | number | null | StoredAttributeValue[]> & {
  id: string;
  version: string;
  attribute_values: StoredAttributeValue[] | null;
  owner_website_id: string;
  created_by_id: string;
  deleted: string;
  date_start: string | null;
  date_end: string | null;
  date_type: string;
};

/** A sample by id; reads asked at about the same time share a query (see shared-query.ts). */
export const findSample = sharedReadById<SampleRow>('find-samples', SAMPLE_SELECT, 's.id');

/** Locks a sample for a change; undefined when there is no such row. */
export async function lockSample(client: PoolClient, id: string): Promise<(StoredSample & SampleOwnership & { version: string }) | undefined> {
  const { rows } = await client.query(
    `SELECT id, website_id, created_by_id, deleted, xmin::text AS version, survey_id, date_start, date_end, date_type,
            entered_sref, entered_sref_system, location_id, parent_id
       FROM records.samples WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}

export type DeletedRecord = { entity: 'sample' | 'occurrence'; id: string; survey_id: string };

/** Soft-deletes a sample, its child samples (at any depth) and their occurrences. */
export async function deleteSampleTree(client: PoolClient, id: string, userId: string): Promise<DeletedRecord[]> {
  const { rows } = await client.query<DeletedRecord>(
    `WITH RECURSIVE tree AS (
       SELECT id FROM records.samples WHERE id = $1
       UNION ALL
       SELECT s.id FROM records.samples s JOIN tree ON s.parent_id = tree.id WHERE NOT s.deleted
     ),
     deleted_samples AS (
       UPDATE records.samples SET deleted = true, updated_on = now(), updated_by_id = $2
        WHERE id IN (SELECT id FROM tree) AND NOT deleted
       RETURNING id, survey_id
     ),
     deleted_occurrences AS (
       UPDATE records.occurrences o SET deleted = true, updated_on = now(), updated_by_id = $2
        WHERE o.sample_id IN (SELECT id FROM tree) AND NOT o.deleted
       RETURNING o.id, o.sample_id
     )
     SELECT 'sample' AS entity, id, survey_id FROM deleted_samples
     UNION ALL
     SELECT 'occurrence', o.id, s.survey_id FROM deleted_occurrences o JOIN records.samples s ON s.id = o.sample_id`,
    [id, userId],
  );
  return rows;
}

/** Fields a sample list may be filtered on, by equality, and how their values are checked. */
export const SAMPLE_FILTERS: Record<string, 'integer' | 'text' | 'date'> = {
  id: 'integer',
  survey_id: 'integer',
  location_id: 'integer',
  sample_method_id: 'integer',
  parent_id: 'integer',
  group_id: 'integer',
  privacy_precision: 'integer',
  licence_id: 'integer',
  created_by_id: 'integer',
  updated_by_id: 'integer',
  verified_by_id: 'integer',
  date_start: 'date',
  date_end: 'date',
  date_type: 'text',
  entered_sref: 'text',
  entered_sref_system: 'text',
  location_name: 'text',
  comment: 'text',
  external_key: 'text',
  recorder_names: 'text',
  input_form: 'text',
  record_status: 'text',
};

/** The user's samples, newest id last, one page (plus one row to tell whether more follow). */
export async function listSamples(
  db: Pool,
  options: { userId: string; websiteId: string | null; filters: Record<string, string>; limit: number; offset: number },
): Promise<SampleRow[]> {
  const values: unknown[] = [options.userId];
  const where = ['s.created_by_id = $1', 'NOT s.deleted'];
  if (options.websiteId) {
    values.push(options.websiteId);
    where.push(`s.website_id = $${values.length}`);
  }
  for (const [field, value] of Object.entries(options.filters)) {
    values.push(value);
    where.push(`s.${field} = $${values.length}`);
  }
  values.push(options.limit + 1, options.offset);
  // The page's ids first, in the order of the (created_by_id, id) index (see listOccurrences).
  const text = `WITH page AS MATERIALIZED (
       SELECT s.id FROM records.samples s WHERE ${where.join(' AND ')}
        ORDER BY s.created_by_id, s.id LIMIT $${values.length - 1} OFFSET $${values.length})
     ${SAMPLE_SELECT} JOIN page ON page.id = s.id ORDER BY s.id`;
  const { rows } = await db.query<SampleRow>({ text, values, name: pageStatementName(text, options.filters) });
  return rows;
}
