import type { PoolClient } from '@rex/db';
import { blurSref } from '@rex/spatial-ref';

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

type Blurrable = { id: string; entered_sref: string | null; entered_sref_system: string | null; precision: number };

type BlurredColumns = { sref: string | null; system: string | null; lat: number | null; lon: number | null; bbox: (number | null)[] };

const HIDDEN: BlurredColumns = { sref: null, system: null, lat: null, lon: null, bbox: [null, null, null, null] };

/** The location others see of a record blurred to `precision` metres (private samples, sensitive occurrences). */
function blurredColumns(row: Blurrable): BlurredColumns {
  if (!row.entered_sref || !row.entered_sref_system) return HIDDEN;
  try {
    const { sref, system, geometry } = blurSref(row.entered_sref, row.entered_sref_system, row.precision);
    return { sref, system, lat: geometry.centroid.lat, lon: geometry.centroid.lon, bbox: geometry.bbox };
  } catch {
    return HIDDEN; // a reference that no longer reads is hidden rather than shown exactly
  }
}

/**
 * The read model is what others see, so the rows `select` finds (id, reference and precision)
 * get their location blurred to the grid square of their precision, and lose the site's name and
 * location id, as the warehouse's cache tables do.
 */
async function blurLocations(client: PoolClient, table: 'samples' | 'occurrences', select: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const { rows } = await client.query<Blurrable>(select, [ids]);
  if (!rows.length) return;
  const blurred = rows.map(blurredColumns);
  await client.query(
    `UPDATE reports.${table} t
        SET entered_sref = b.sref, entered_sref_system = b.system, lat = b.lat, lon = b.lon,
            bbox_xmin = b.xmin, bbox_ymin = b.ymin, bbox_xmax = b.xmax, bbox_ymax = b.ymax, location_id = NULL, location_name = NULL
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::float8[], $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::float8[])
            AS b(id, sref, system, lat, lon, xmin, ymin, xmax, ymax)
      WHERE t.id = b.id`,
    [
      rows.map((row) => row.id),
      blurred.map((b) => b.sref),
      blurred.map((b) => b.system),
      blurred.map((b) => b.lat),
      blurred.map((b) => b.lon),
      ...[0, 1, 2, 3].map((corner) => blurred.map((b) => b.bbox[corner])),
    ],
  );
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
  await blurLocations(
    client,
    'samples',
    `SELECT id, entered_sref, entered_sref_system, privacy_precision AS precision
       FROM reports.samples WHERE id = ANY($1::bigint[]) AND privacy_precision > 1`,
    ids,
  );
}

/**
 * A record's custom attribute values as text by attribute id, as the API
 * shows them: a lookup's term, a date's day, a vague date's range; several
 * values of one attribute joined by "; ".
 */
const attributeValues = (entity: 'sample' | 'occurrence', ownerId: string) => `
  (SELECT coalesce(jsonb_object_agg(v.attribute_id::text, v.value), '{}'::jsonb) FROM (
     SELECT av.attribute_id, string_agg(CASE a.data_type
              WHEN 'L' THEN coalesce(t.term, av.int_value::text)
              WHEN 'I' THEN av.int_value::text
              WHEN 'B' THEN av.int_value::text
              WHEN 'F' THEN av.float_value::text
              WHEN 'T' THEN av.text_value
              WHEN 'D' THEN av.date_start::text
              ELSE concat_ws(' - ', av.date_start::text, nullif(av.date_end, av.date_start)::text) END, '; ' ORDER BY av.id) AS value
       FROM records.${entity}_attribute_values av
       JOIN records.attributes a ON a.id = av.attribute_id
       LEFT JOIN records.attribute_terms t ON a.data_type = 'L' AND t.id = av.int_value
      WHERE av.${entity}_id = ${ownerId} AND NOT av.deleted
      GROUP BY av.attribute_id) v)`;

const OCCURRENCE_SELECT = `
  SELECT o.id, o.sample_id, o.website_id, s.survey_id, sv.title, o.taxa_taxon_list_id, t.taxon, t.preferred_taxon,
         t.default_common_name, t.taxon_group, t.external_key, s.date_start, s.date_end, s.date_type, s.entered_sref,
         s.entered_sref_system, s.location_id, s.location_name, s.recorder_names, s.centroid_lat, s.centroid_lon,
         s.bbox_xmin, s.bbox_ymin, s.bbox_xmax, s.bbox_ymax, o.record_status, o.record_substatus, o.confidential,
         o.sensitivity_precision, o.release_status, o.zero_abundance, o.training, o.external_key, o.comment,
         o.verified_by_id, o.verified_on, o.created_by_id, o.created_on, o.updated_on, o.deleted OR s.deleted,
         ${attributeValues('occurrence', 'o.id')}, ${attributeValues('sample', 's.id')}
    FROM records.occurrences o
    JOIN records.samples s ON s.id = o.sample_id
    JOIN records.surveys sv ON sv.id = s.survey_id
    JOIN records.taxa t ON t.id = o.taxa_taxon_list_id`;

/** Occurrences are kept when deleted, marked, for the exchange format's deletions. */
export async function refreshOccurrences(client: PoolClient, ids: string[]): Promise<void> {
  await refresh(client, 'occurrences', ids, `${OCCURRENCE_SELECT} WHERE o.id = ANY($1::bigint[])`);
  await blurLocations(
    client,
    'occurrences',
    `SELECT o.id, o.entered_sref, o.entered_sref_system, greatest(o.sensitivity_precision, s.privacy_precision) AS precision
       FROM reports.occurrences o JOIN records.samples s ON s.id = o.sample_id
      WHERE o.id = ANY($1::bigint[]) AND greatest(o.sensitivity_precision, s.privacy_precision) > 1`,
    ids,
  );
}

/**
 * Occurrences carry their sample's date, place and survey: a changed sample refreshes them. The
 * occurrences of `sampleIds` (as records and the read model hold them) joined with `occurrenceIds`,
 * so that an occurrence changed together with its sample is refreshed once.
 */
export async function withOccurrencesOfSamples(client: PoolClient, sampleIds: string[], occurrenceIds: string[]): Promise<string[]> {
  if (!sampleIds.length) return occurrenceIds;
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM records.occurrences WHERE sample_id = ANY($1::bigint[])
     UNION SELECT id FROM reports.occurrences WHERE sample_id = ANY($1::bigint[])`,
    [sampleIds],
  );
  return [...new Set([...occurrenceIds, ...rows.map((row) => row.id)])];
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

export async function refreshAssociations(client: PoolClient, ids: string[]): Promise<void> {
  await refresh(
    client,
    'occurrence_associations',
    ids,
    `SELECT a.id, a.from_occurrence_id, a.to_occurrence_id, a.association_type_id, a.comment, a.website_id, a.created_by_id, a.created_on, a.updated_on
       FROM records.occurrence_associations a
      WHERE a.id = ANY($1::bigint[]) AND NOT a.deleted`,
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
