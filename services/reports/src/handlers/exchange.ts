import type { Pool } from '@rex/db';
import { forbidden, notFound, type Handlers } from '@rex/grpc';
import type { ExchangeRequest__Output, ReportsServiceHandlers } from '@rex/protos';
import { NotAllowedError, visibilityFor } from '../domain/visibility.ts';
const DATE_TYPES = ['D', 'DD', 'O', 'OO', 'Y', 'YY', '-Y', 'U'];
const SYSTEMS: Record<string, string> = { OSGB: 'OSGB', OSIE: 'OSI', '4326': 'WGS84', '27700': 'OSGB36' };

type ObservationRow = {
  id: string;
  external_key: string | null;
  survey_title: string | null;
  taxon_external_key: string;
  preferred_taxon: string | null;
  taxon: string;
  zero_abundance: boolean;
  sensitivity_precision: number | null;
  date_start: string | null;
  date_end: string | null;
  date_type: string;
  location_id: string | null;
  location_name: string | null;
  entered_sref: string | null;
  entered_sref_system: string | null;
  lat: number | null;
  lon: number | null;
  recorder_names: string | null;
  deleted: boolean;
  updated_on: string;
};

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')`;

/** Size in metres of a British or Irish grid reference's square (`SU1234` → 1000). */
function gridPrecision(sref: string): number | undefined {
  const digits = sref.replace(/^[A-Z]{1,2}/i, '').replace(/[A-Z]+$/i, '');
  if (!/^\d*$/.test(digits) || digits.length % 2) return undefined;
  return 10 ** (5 - digits.length / 2);
}

function withoutEmpty(fields: Record<string, string | undefined | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== null && entry[1] !== ''));
}

function observation(row: ObservationRow, prefix: string): Record<string, string> {
  const system = (row.entered_sref_system ?? '').toUpperCase();
  const grid = system === 'OSGB' || system === 'OSIE';
  const id = row.external_key ?? `${prefix}${row.id}`;
  return withoutEmpty({
    id,
    datasetName: row.survey_title,
    taxonVersionKey: row.taxon_external_key,
    taxonName: row.preferred_taxon ?? row.taxon,
    zeroAbundance: row.zero_abundance ? 'TRUE' : 'FALSE',
    sensitive: row.sensitivity_precision === null ? 'false' : 'true',
    startDate: row.date_start,
    endDate: row.date_end,
    dateType: row.date_type,
    siteKey: row.location_id,
    siteName: row.location_name,
    gridReference: grid ? row.entered_sref : undefined,
    east: !grid && row.lon !== null ? String(row.lon) : undefined,
    north: !grid && row.lat !== null ? String(row.lat) : undefined,
    projection: SYSTEMS[system],
    precision: grid && row.entered_sref ? String(gridPrecision(row.entered_sref) ?? '') : undefined,
    recorder: row.recorder_names,
    delete: row.deleted ? 'T' : undefined,
    lastEditDate: row.updated_on,
    href: `taxon-observations/${id}`,
  });
}

/** Edited-date bounds, page and id of an exchange request as SQL on `alias`, after the visibility's values. */
function exchangeFilters(request: ExchangeRequest__Output, alias: string, values: unknown[]): string[] {
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

function page(request: ExchangeRequest__Output, values: unknown[]): string {
  const size = Math.max(1, request.pageSize || 100);
  values.push(size + 1, (Math.max(1, request.page || 1) - 1) * size);
  return `LIMIT $${values.length - 1} OFFSET $${values.length}`;
}

function visible(request: ExchangeRequest__Output, includeDeleted: boolean) {
  try {
    return visibilityFor('occurrences', request.auth, false, { includeDeleted });
  } catch (error) {
    if (error instanceof NotAllowedError) throw forbidden(error.message);
    throw error;
  }
}

/** taxon-observations and annotations (a deprecated exchange format) from the read model. */
export function exchangeHandlers(pool: Pool): Pick<Handlers<ReportsServiceHandlers>, 'ListTaxonObservations' | 'ListAnnotations'> {
  return {
    ListTaxonObservations: async (request) => {
      const visibility = visible(request, true);
      const values = [...visibility.values];
      const conditions = [`(${visibility.sql})`, 'o.taxon_external_key IS NOT NULL', `o.date_type = ANY($${values.push(DATE_TYPES)}::text[])`];
      conditions.push(`upper(o.entered_sref_system) = ANY($${values.push(Object.keys(SYSTEMS))}::text[])`);
      if (request.id) {
        const prefix = request.idPrefix;
        if (prefix && request.id.startsWith(prefix) && /^\d+$/.test(request.id.slice(prefix.length))) {
          conditions.push(`o.id = $${values.push(request.id.slice(prefix.length))}::bigint AND o.external_key IS NULL`);
        } else {
          conditions.push(`o.external_key = $${values.push(request.id)}`);
        }
      } else {
        conditions.push(...exchangeFilters(request, 'o', values));
      }
      const { rows } = await pool.query<ObservationRow>(
        `SELECT o.id, o.external_key, o.survey_title, o.taxon_external_key, o.preferred_taxon, o.taxon, o.zero_abundance,
                o.sensitivity_precision, o.date_start, o.date_end, o.date_type, o.location_id, o.location_name, o.entered_sref,
                o.entered_sref_system, o.lat, o.lon, o.recorder_names, o.deleted, ${iso('o.updated_on')} AS updated_on
           FROM reports.occurrences o WHERE ${conditions.join(' AND ')}
          ORDER BY o.updated_on, o.id ${page(request, values)}`,
        values,
      );
      if (request.id && !rows.length) throw notFound();
      const size = Math.max(1, request.pageSize || 100);
      return { items: rows.slice(0, size).map((row) => ({ fields: observation(row, request.idPrefix) })), more: rows.length > size };
    },

    ListAnnotations: async (request) => {
      const visibility = visible(request, false);
      const values = [...visibility.values];
      const conditions = [`(${visibility.sql})`];
      if (request.id) {
        if (!/^\d{1,18}$/.test(request.id)) throw notFound();
        conditions.push(`c.id = $${values.push(request.id)}::bigint`);
      } else {
        conditions.push(...exchangeFilters(request, 'c', values));
      }
      const { rows } = await pool.query(
        `SELECT c.id, c.comment, c.person_name, c.record_status, ${iso('c.created_on')} AS created_on, ${iso('c.updated_on')} AS updated_on,
                o.id AS occurrence_id, o.external_key, o.taxon_external_key
           FROM reports.occurrence_comments c JOIN reports.occurrences o ON o.id = c.occurrence_id
          WHERE ${conditions.join(' AND ')}
          ORDER BY c.updated_on, c.id ${page(request, values)}`,
        values,
      );
      if (request.id && !rows.length) throw notFound();
      const size = Math.max(1, request.pageSize || 100);
      return {
        items: rows.slice(0, size).map((row) => ({
          fields: withoutEmpty({
            id: row.id,
            taxonObservationId: row.external_key ?? `${request.idPrefix}${row.occurrence_id}`,
            taxonVersionKey: row.taxon_external_key,
            comment: row.comment,
            statusCode1: row.record_status === 'V' ? 'A' : row.record_status === 'R' ? 'N' : row.record_status ? 'U' : undefined,
            authorName: row.person_name,
            dateTime: row.created_on,
            lastEditDate: row.updated_on,
            href: `annotations/${row.id}`,
          }),
        })),
        more: rows.length > size,
      };
    },
  };
}
