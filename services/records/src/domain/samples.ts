import { readAttributes, type AttributeDefinition, type AttributeValue, type AttributeValueUpdate } from './attributes.ts';
import { addErrors, readPlainFields, refuseIdOnCreate, type Column, type Errors, type FieldKind } from './fields.ts';
import { SrefError, normaliseSref, srefToGeometry } from '@rex/spatial-ref';
import { formatVagueDate, isInFuture, parseVagueDate, type VagueDate } from './vague-date.ts';
import { parseInteger, text, type Values } from './values.ts';

export const RECORD_STATUSES = ['I', 'C', 'V', 'R', 'D', 'T'] as const;
export const DATE_TYPES = ['D', 'DD', 'O', 'OO', 'P', 'Y', 'YY', 'Y-', '-Y', 'M', 'S', 'U', 'C', 'CC', 'C-', '-C'] as const;

const SAMPLE_FIELDS: Record<string, FieldKind> = {
  location_id: 'integer',
  location_name: 'text',
  comment: 'text',
  external_key: 'text',
  sample_method_id: 'integer',
  recorder_names: 'text',
  input_form: 'text',
  group_id: 'integer',
  privacy_precision: 'integer',
  record_status: { oneOf: RECORD_STATUSES, required: true },
  licence_id: 'integer',
};

/** Fields a child sample takes from its parent when it does not give them. */
const INHERITED = ['survey_id', 'entered_sref', 'entered_sref_system', 'licence_id', 'privacy_precision', 'group_id', 'date'] as const;

export type SurveyReference = {
  id: string;
  websiteId: string;
  attributes: { sample: Map<string, AttributeDefinition>; occurrence: Map<string, AttributeDefinition> };
};

/** The stored state a sample update starts from (column values as stored). */
export type StoredSample = Column & {
  survey_id: string;
  date_start: string | null;
  date_end: string | null;
  date_type: string;
  entered_sref: string | null;
  entered_sref_system: string | null;
  location_id: string | null;
};

export type SampleChanges = {
  columns: Column;
  attributes: AttributeValue[];
  replacedAttributes: Set<string>;
  updatedAttributeValues: AttributeValueUpdate[];
  survey?: SurveyReference;
};

function readDate(values: Values, columns: Column, errors: Errors): void {
  const submitted = text(values, 'date');
  let date: VagueDate | null;
  if (submitted !== undefined) {
    date = parseVagueDate(submitted);
  } else if (text(values, 'date_type') !== undefined) {
    date = dateFromFields(text(values, 'date_type')!, text(values, 'date_start'), text(values, 'date_end'));
  } else {
    errors['sample:date_type'] = 'Please supply a date for your observation.';
    return;
  }
  if (!date) {
    errors['sample:date_type'] = 'The date could not be recognised.';
    return;
  }
  if (isInFuture(date)) {
    errors['sample:date_start'] = 'Please specify a date that is not in the future.';
    return;
  }
  columns.date_start = date.start;
  columns.date_end = date.end;
  columns.date_type = date.type;
}

/** A day given in date_start or date_end, as an ISO date; undefined when it is not a single day. */
function fieldDay(value: string): string | undefined {
  const date = parseVagueDate(value);
  return date?.type === 'D' ? (date.start ?? undefined) : undefined;
}

/**
 * A vague date given as the fields it is stored in: each day in any form a single day may be
 * written, stored as ISO (so the database never reads "01/02/2020" in its own order), the end
 * the start when left out, and not before it. Null when the fields do not make a vague date.
 */
function dateFromFields(type: string, startText: string | undefined, endText: string | undefined): VagueDate | null {
  if (!(DATE_TYPES as readonly string[]).includes(type)) return null;
  const start = startText === undefined ? null : fieldDay(startText);
  const end = endText === undefined ? start : fieldDay(endText);
  if (start === undefined || end === undefined) return null;
  if (type !== 'U' && start === null && end === null) return null;
  if (start !== null && end !== null && end < start) return null;
  return { start, end, type };
}

function readGeometry(sref: string | undefined, system: string | undefined, hasLocation: boolean, columns: Column, errors: Errors): void {
  if (sref === undefined || system === undefined) {
    if (hasLocation && sref === undefined && system === undefined) {
      Object.assign(columns, { entered_sref: null, entered_sref_system: null, geom: null, ...emptyBox });
      return;
    }
    if (sref === undefined) errors['sample:entered_sref'] = 'The spatial reference must be supplied.';
    if (system === undefined) errors['sample:entered_sref_system'] = 'The spatial reference system must be supplied.';
    return;
  }
  try {
    const geometry = srefToGeometry(sref, system);
    columns.entered_sref = normaliseSref(sref, system);
    columns.entered_sref_system = system.toUpperCase() === system ? system : system.toLowerCase();
    columns.geom = Buffer.from(geometry.wkbHex, 'hex');
    [columns.bbox_xmin, columns.bbox_ymin, columns.bbox_xmax, columns.bbox_ymax] = geometry.bbox;
    columns.centroid_lat = geometry.centroid.lat;
    columns.centroid_lon = geometry.centroid.lon;
  } catch (error) {
    if (!(error instanceof SrefError)) throw error;
    if (error.kind === 'unknown_system') errors['sample:entered_sref_system'] = error.message;
    else errors['sample:entered_sref'] = error.message;
  }
}

const emptyBox = { bbox_xmin: null, bbox_ymin: null, bbox_xmax: null, bbox_ymax: null, centroid_lat: null, centroid_lon: null };

function readSurvey(values: Values, surveys: Map<string, SurveyReference>, errors: Errors): SurveyReference | undefined {
  const raw = text(values, 'survey_id');
  if (raw === undefined) {
    errors['sample:survey_id'] = 'The survey must be supplied.';
    return undefined;
  }
  const survey = parseInteger(raw) === undefined ? undefined : surveys.get(String(parseInteger(raw)));
  if (!survey) errors['sample:survey_id'] = `The survey ${raw} is not a survey of this website.`;
  return survey;
}

/** Values of a child sample with what it does not give filled in from its parent's submission. */
export function inheritFromParent(child: Values, parent: Values): Values {
  const merged: Values = { ...child };
  for (const field of INHERITED) {
    if (text(merged, field) === undefined && parent[field] !== undefined) merged[field] = parent[field];
  }
  if (text(child, 'date') === undefined && text(child, 'date_type') !== undefined) delete merged.date;
  return merged;
}

/** Checks a new sample's values; returns its columns and attribute values. */
export function planNewSample(values: Values, surveys: Map<string, SurveyReference>, errors: Errors): SampleChanges {
  const columns: Column = {};
  const local: Errors = {};
  refuseIdOnCreate(values, 'sample', local);
  const survey = readSurvey(values, surveys, local);
  if (survey) columns.survey_id = survey.id;
  readPlainFields('sample', values, SAMPLE_FIELDS, columns, local);
  readDate(values, columns, local);
  readGeometry(text(values, 'entered_sref'), text(values, 'entered_sref_system'), columns.location_id != null, columns, local);
  const attributes = survey
    ? readAttributes('sample', values, survey.attributes.sample, true)
    : { values: [], replaces: new Set<string>(), updates: [], errors: {} };
  addErrors(local, attributes.errors);
  addErrors(errors, local);
  return { columns, attributes: attributes.values, replacedAttributes: attributes.replaces, updatedAttributeValues: attributes.updates, survey };
}

/** Checks the changed values of a stored sample; only what was sent changes. */
export function planSampleUpdate(
  values: Values,
  stored: StoredSample,
  surveys: Map<string, SurveyReference>,
  errors: Errors,
): SampleChanges {
  const columns: Column = {};
  const local: Errors = {};
  let survey = surveys.get(stored.survey_id);
  if ('survey_id' in values) {
    survey = readSurvey(values, surveys, local);
    if (survey) columns.survey_id = survey.id;
  }
  readPlainFields('sample', values, SAMPLE_FIELDS, columns, local);
  if (['date', 'date_start', 'date_end', 'date_type'].some((field) => field in values)) readDate(values, columns, local);
  if ('entered_sref' in values || 'entered_sref_system' in values) {
    const sref = 'entered_sref' in values ? text(values, 'entered_sref') : (stored.entered_sref ?? undefined);
    const system = 'entered_sref_system' in values ? text(values, 'entered_sref_system') : (stored.entered_sref_system ?? undefined);
    const locationId = 'location_id' in columns ? columns.location_id : stored.location_id;
    readGeometry(sref, system, locationId != null, columns, local);
  }
  const attributes = survey
    ? readAttributes('sample', values, survey.attributes.sample, false)
    : { values: [], replaces: new Set<string>(), updates: [], errors: {} };
  addErrors(local, attributes.errors);
  addErrors(errors, local);
  return { columns, attributes: attributes.values, replacedAttributes: attributes.replaces, updatedAttributeValues: attributes.updates, survey };
}

export const displayDate = (start: string | null, end: string | null, type: string): string =>
  formatVagueDate({ start, end, type });
