import type { Pool } from '@rex/db';
import type { ExchangeRequest__Output } from '@rex/protos';
import { EXCHANGE_DATE_TYPES, EXCHANGE_SYSTEMS, type AnnotationRow, type ObservationRow } from '../domain/exchange-format.ts';
import type { Visibility } from '../library/types.ts';

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')`;

/** Edited-date bounds of an exchange request as SQL on `alias`, binding after the values already in `values`. */
function editedBetween(request: ExchangeRequest__Output, alias: string, values: unknown[]): string[] {
  const bind = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const conditions: string[] = [];
  // timestamptz: a bound with a UTC offset is that moment; one without is in the database's time zone, as updated_on is.
  if (request.editedDateFrom) conditions.push(`${alias}.updated_on >= ${bind(request.editedDateFrom)}::timestamptz`);
  if (request.editedDateTo) {
    const to = request.editedDateTo.length === 10 ? `${request.editedDateTo}T23:59:59.999` : request.editedDateTo;
    conditions.push(`${alias}.updated_on <= ${bind(to)}::timestamptz`);
  }
  return conditions;
}

/** The rows a page asks for. */
export const pageSizeOf = (request: ExchangeRequest__Output): number => Math.max(1, request.pageSize || 100);

/** The page's LIMIT (one row more than the page, to tell whether another follows) and OFFSET. */
function page(request: ExchangeRequest__Output, values: unknown[]): string {
  const size = pageSizeOf(request);
  values.push(size + 1, (Math.max(1, request.page || 1) - 1) * size);
  return `LIMIT $${values.length - 1} OFFSET $${values.length}`;
}

/**
 * The visible occurrences the format can carry, oldest edit first: the one
 * `request.id` names (an external key, or the prefix and a record id), or a
 * page of those edited between the request's dates.
 */
export async function findObservations(pool: Pool, visibility: Visibility, request: ExchangeRequest__Output): Promise<ObservationRow[]> {
  const values = [...visibility.values];
  const conditions = [`(${visibility.sql})`, 'o.taxon_external_key IS NOT NULL', `o.date_type = ANY($${values.push(EXCHANGE_DATE_TYPES)}::text[])`];
  conditions.push(`upper(o.entered_sref_system) = ANY($${values.push(Object.keys(EXCHANGE_SYSTEMS))}::text[])`);
  if (request.id) {
    const prefix = request.idPrefix;
    if (prefix && request.id.startsWith(prefix) && /^\d+$/.test(request.id.slice(prefix.length))) {
      conditions.push(`o.id = $${values.push(request.id.slice(prefix.length))}::bigint AND o.external_key IS NULL`);
    } else {
      conditions.push(`o.external_key = $${values.push(request.id)}`);
    }
  } else {
    conditions.push(...editedBetween(request, 'o', values));
  }
  const { rows } = await pool.query<ObservationRow>(
    `SELECT o.id, o.external_key, o.survey_title, o.taxon_external_key, o.preferred_taxon, o.taxon, o.zero_abundance,
            o.sensitivity_precision, o.date_start, o.date_end, o.date_type, o.location_id, o.location_name, o.entered_sref,
            o.entered_sref_system, o.lat, o.lon, o.recorder_names, o.deleted, ${iso('o.updated_on')} AS updated_on
       FROM reports.occurrences o WHERE ${conditions.join(' AND ')}
      ORDER BY o.updated_on, o.id ${page(request, values)}`,
    values,
  );
  return rows;
}

/**
 * The comments on visible occurrences, oldest edit first: the one `request.id`
 * names (a comment id; none for any other id), or a page of those edited
 * between the request's dates.
 */
export async function findAnnotations(pool: Pool, visibility: Visibility, request: ExchangeRequest__Output): Promise<AnnotationRow[]> {
  const values = [...visibility.values];
  const conditions = [`(${visibility.sql})`];
  if (request.id) {
    if (!/^\d{1,18}$/.test(request.id)) return [];
    conditions.push(`c.id = $${values.push(request.id)}::bigint`);
  } else {
    conditions.push(...editedBetween(request, 'c', values));
  }
  const { rows } = await pool.query<AnnotationRow>(
    `SELECT c.id, c.comment, c.person_name, c.record_status, ${iso('c.created_on')} AS created_on, ${iso('c.updated_on')} AS updated_on,
            o.id AS occurrence_id, o.external_key, o.taxon_external_key
       FROM reports.occurrence_comments c JOIN reports.occurrences o ON o.id = c.occurrence_id
      WHERE ${conditions.join(' AND ')}
      ORDER BY c.updated_on, c.id ${page(request, values)}`,
    values,
  );
  return rows;
}
