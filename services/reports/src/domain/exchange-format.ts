// The deprecated taxon-observations and annotations exchange format: which
// records it can carry and how their fields are written.

/** Date types the format can express. */
export const EXCHANGE_DATE_TYPES = ['D', 'DD', 'O', 'OO', 'Y', 'YY', '-Y', 'U'];

/** Spatial reference systems the format can express, by the name it gives each. */
export const EXCHANGE_SYSTEMS: Readonly<Record<string, string>> = { OSGB: 'OSGB', OSIE: 'OSI', '4326': 'WGS84', '27700': 'OSGB36' };

export type ObservationRow = {
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

export type AnnotationRow = {
  id: string;
  comment: string | null;
  person_name: string | null;
  record_status: string | null;
  created_on: string;
  updated_on: string;
  occurrence_id: string;
  external_key: string | null;
  taxon_external_key: string | null;
};

/** Size in metres of a British or Irish grid reference's square (`SU1234` → 1000). */
function gridPrecision(sref: string): number | undefined {
  const digits = sref.replace(/^[A-Z]{1,2}/i, '').replace(/[A-Z]+$/i, '');
  if (!/^\d*$/.test(digits) || digits.length % 2) return undefined;
  return 10 ** (5 - digits.length / 2);
}

function withoutEmpty(fields: Record<string, string | undefined | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== null && entry[1] !== ''));
}

/** An occurrence as a taxon observation; `prefix` makes ids of records without an external key. */
export function observationFields(row: ObservationRow, prefix: string): Record<string, string> {
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
    projection: EXCHANGE_SYSTEMS[system],
    precision: grid && row.entered_sref ? String(gridPrecision(row.entered_sref) ?? '') : undefined,
    recorder: row.recorder_names,
    delete: row.deleted ? 'T' : undefined,
    lastEditDate: row.updated_on,
    href: `taxon-observations/${id}`,
  });
}

/** A comment on an occurrence as an annotation of its taxon observation. */
export function annotationFields(row: AnnotationRow, prefix: string): Record<string, string> {
  return withoutEmpty({
    id: row.id,
    taxonObservationId: row.external_key ?? `${prefix}${row.occurrence_id}`,
    taxonVersionKey: row.taxon_external_key,
    comment: row.comment,
    statusCode1: row.record_status === 'V' ? 'A' : row.record_status === 'R' ? 'N' : row.record_status ? 'U' : undefined,
    authorName: row.person_name,
    dateTime: row.created_on,
    lastEditDate: row.updated_on,
    href: `annotations/${row.id}`,
  });
}
