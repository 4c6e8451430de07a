import type { PoolClient } from '@rex/db';

/**
 * Refreshing a record copies its current state from the records schema (or
 * removes it when it is gone or deleted). A refresh does not depend on the
 * event that asked for it, so applying events twice or out of order is safe.
 */
async function refresh(client: PoolClient, table: string, ids: string[], select: string): Promise<void> {
  if (!ids.length) return;
  await client.query(`DELETE FROM reports.${table} WHERE id = ANY($1::bigint[])`, [ids]);
  await client.query(`INSERT INTO reports.${table} ${select}`, [ids]);
}

export async function refreshSamples(client: PoolClient, ids: string[]): Promise<void> {
  await refresh(
    client,
    'samples',
    ids,
    `SELECT s.id, s.parent_id, s.website_id, s.survey_id, sv.title, s.date_start, s.date_end, s.date_type, s.entered_sref,
            s.entered_sref_system, s.location_id, s.location_name, s.recorder_names, s.comment, s.external_key, s.record_status,
            s.centroid_lat, s.centroid_lon, s.bbox_xmin, s.bbox_ymin, s.bbox_xmax, s.bbox_ymax, s.privacy_precision,
            s.created_by_id, s.created_on, s.updated_on
       FROM records.samples s JOIN records.surveys sv ON sv.id = s.survey_id
      WHERE s.id = ANY($1::bigint[]) AND NOT s.deleted`,
  );
}

const OCCURRENCE_SELECT = `
  SELECT o.id, o.sample_id, o.website_id, s.survey_id, sv.title, o.taxa_taxon_list_id, t.taxon, t.preferred_taxon,
         t.default_common_name, t.taxon_group, t.external_key, s.date_start, s.date_end, s.date_type, s.entered_sref,
         s.entered_sref_system, s.location_id, s.location_name, s.recorder_names, s.centroid_lat, s.centroid_lon,
         s.bbox_xmin, s.bbox_ymin, s.bbox_xmax, s.bbox_ymax, o.record_status, o.record_substatus, o.confidential,
         o.sensitivity_precision, o.release_status, o.zero_abundance, o.training, o.external_key, o.comment,
         o.verified_by_id, o.verified_on, o.created_by_id, o.created_on, o.updated_on, o.deleted OR s.deleted
    FROM records.occurrences o
    JOIN records.samples s ON s.id = o.sample_id
    JOIN records.surveys sv ON sv.id = s.survey_id
    JOIN records.taxa t ON t.id = o.taxa_taxon_list_id`;

/** Occurrences are kept when deleted, marked, for the exchange format's deletions. */
export async function refreshOccurrences(client: PoolClient, ids: string[]): Promise<void> {
  await refresh(client, 'occurrences', ids, `${OCCURRENCE_SELECT} WHERE o.id = ANY($1::bigint[])`);
}

/** Occurrences carry their sample's date, place and survey: a changed sample refreshes them. */
export async function refreshOccurrencesOfSamples(client: PoolClient, sampleIds: string[]): Promise<void> {
  if (!sampleIds.length) return;
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM records.occurrences WHERE sample_id = ANY($1::bigint[])
     UNION SELECT id FROM reports.occurrences WHERE sample_id = ANY($1::bigint[])`,
    [sampleIds],
  );
  await refreshOccurrences(
    client,
    rows.map((row) => row.id),
  );
}

export async function refreshLocations(client: PoolClient, ids: string[]): Promise<void> {
  await refresh(
    client,
    'locations',
    ids,
    `SELECT l.id, l.name, l.code, l.website_id, l.location_type_id, l.public, l.centroid_sref, l.centroid_sref_system,
            l.centroid_lat, l.centroid_lon, l.created_by_id, l.created_on, l.updated_on
       FROM records.locations l WHERE l.id = ANY($1::bigint[]) AND NOT l.deleted`,
  );
}

export async function refreshComments(client: PoolClient, ids: string[]): Promise<void> {
  await refresh(
    client,
    'occurrence_comments',
    ids,
    `SELECT c.id, c.occurrence_id, o.website_id, c.comment, c.person_name, NULL, c.created_by_id, c.created_on, c.updated_on
       FROM records.occurrence_comments c JOIN records.occurrences o ON o.id = c.occurrence_id
      WHERE c.id = ANY($1::bigint[]) AND NOT c.deleted`,
  );
}
