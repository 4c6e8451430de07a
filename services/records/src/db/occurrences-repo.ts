import type { Pool, PoolClient } from '@rex/db';
import { attributeValuesColumn, type StoredAttributeValue } from './attribute-values-repo.ts';
import { sharedReadById } from './shared-query.ts';
import { iso } from './sql.ts';
import { pageStatementName } from './statement-names.ts';

/** Every occurrence field of the API, formatted as the API returns it, with its taxon's names. */
const OCCURRENCE_SELECT = `
  SELECT o.id, o.sample_id, o.website_id, o.determiner_id, o.taxa_taxon_list_id, o.external_key,
         CASE WHEN o.confidential THEN 't' ELSE 'f' END AS confidential,
         ${iso('o.created_on')} AS created_on, o.created_by_id, ${iso('o.updated_on')} AS updated_on, o.updated_by_id,
         ${iso('o.verified_on')} AS verified_on, o.verified_by_id, o.comment, o.record_status, o.record_substatus,
         CASE WHEN o.zero_abundance THEN 't' ELSE 'f' END AS zero_abundance,
         CASE WHEN o.training THEN 't' ELSE 'f' END AS training,
         o.sensitivity_precision, o.release_status, o.record_decision_source, o.machine_involvement,
         CASE WHEN o.deleted THEN 't' ELSE 'f' END AS deleted,
         t.taxon, t.preferred_taxon, t.default_common_name, t.taxon_group, t.external_key AS taxa_taxon_list_external_key,
         o.xmin::text AS version,
         ${attributeValuesColumn('occurrence', 'o')}
    FROM records.occurrences o JOIN records.taxa t ON t.id = o.taxa_taxon_list_id`;

export type OccurrenceRow = Record<string, string | number | null | StoredAttributeValue[]> & {
  id: string;
  website_id: string;
  created_by_id: string;
  deleted: string;
  version: string;
  attribute_values: StoredAttributeValue[] | null;
};

/** An occurrence by id; reads asked at about the same time share a query (see shared-query.ts). */
export const findOccurrence = sharedReadById<OccurrenceRow>('find-occurrences', OCCURRENCE_SELECT, 'o.id');

/** Fields an occurrence list may be filtered on, by equality. */
export const OCCURRENCE_FILTERS: Record<string, 'integer' | 'text'> = {
  id: 'integer',
  sample_id: 'integer',
  taxa_taxon_list_id: 'integer',
  determiner_id: 'integer',
  created_by_id: 'integer',
  sensitivity_precision: 'integer',
  external_key: 'text',
  record_status: 'text',
  release_status: 'text',
  comment: 'text',
};

export async function listOccurrences(
  db: Pool,
  options: { userId: string; websiteId: string | null; filters: Record<string, string>; limit: number; offset: number },
): Promise<OccurrenceRow[]> {
  const values: unknown[] = [options.userId];
  const where = ['o.created_by_id = $1', 'NOT o.deleted'];
  if (options.websiteId) where.push(`o.website_id = $${values.push(options.websiteId)}`);
  for (const [field, value] of Object.entries(options.filters)) where.push(`o.${field} = $${values.push(value)}`);
  values.push(options.limit + 1, options.offset);
  // The page's ids first, in the order of the (created_by_id, id) index, so PostgreSQL walks the
  // index instead of sorting every row of the user (and formats only the rows of the page).
  const text = `WITH page AS MATERIALIZED (
       SELECT o.id FROM records.occurrences o WHERE ${where.join(' AND ')}
        ORDER BY o.created_by_id, o.id LIMIT $${values.length - 1} OFFSET $${values.length})
     ${OCCURRENCE_SELECT} JOIN page ON page.id = o.id ORDER BY o.id`;
  const { rows } = await db.query<OccurrenceRow>({ text, values, name: pageStatementName(text, options.filters) });
  return rows;
}

export type LockedOccurrence = { id: string; website_id: string; created_by_id: string; deleted: boolean; version: string; sample_id: string; survey_id: string };

export async function lockOccurrence(client: PoolClient, id: string): Promise<LockedOccurrence | undefined> {
  const { rows } = await client.query<LockedOccurrence>(
    `SELECT o.id, o.website_id, o.created_by_id, o.deleted, o.xmin::text AS version, o.sample_id, s.survey_id
       FROM records.occurrences o JOIN records.samples s ON s.id = o.sample_id WHERE o.id = $1 FOR UPDATE OF o`,
    [id],
  );
  return rows[0];
}

/** The sample a new occurrence goes into: the caller's own, live, in the caller's website. */
export async function sampleForOccurrence(db: Pool, id: string): Promise<{ id: string; survey_id: string; website_id: string; created_by_id: string; deleted: boolean } | undefined> {
  const { rows } = await db.query('SELECT id, survey_id, website_id, created_by_id, deleted FROM records.samples WHERE id = $1', [id]);
  return rows[0];
}

export async function deleteOccurrence(client: PoolClient, id: string, userId: string): Promise<void> {
  await client.query('UPDATE records.occurrences SET deleted = true, updated_on = now(), updated_by_id = $2 WHERE id = $1', [id, userId]);
}
