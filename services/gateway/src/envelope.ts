import { fromJsonValues, toJsonValues, type FieldValue, type FieldValues, type SavedRecord__Output, type Submission } from '@rex/protos';
import { HttpError } from './http-error.ts';

/** Child keys of a submission, per entity, and the entity each child is. */
const CHILDREN: Record<string, Record<string, string>> = {
  sample: { samples: 'sample', occurrences: 'occurrence', media: 'sample_medium' },
  occurrence: { media: 'occurrence_medium', associations: 'occurrence_association' },
  location: { media: 'location_medium' },
  survey: {},
  attribute: {},
};

/** Where each entity's records live, for hrefs. */
export const RESOURCE_OF: Record<string, string> = {
  sample: 'samples',
  occurrence: 'occurrences',
  location: 'locations',
  sample_medium: 'sample_media',
  occurrence_medium: 'occurrence_media',
  location_medium: 'location_media',
  survey: 'surveys',
};

/** Children written as plain objects of fields rather than {values: {...}} (an occurrence's associations). */
const FLAT_CHILDREN = new Set(['occurrence_association']);

function flatChild(entity: string, child: unknown): unknown {
  if (!child || typeof child !== 'object' || Array.isArray(child)) throw new HttpError(400, { [`${entity}:values`]: 'Each association must be a JSON object of fields.' });
  return 'values' in child ? child : { values: child };
}

function fieldValue(entity: string, key: string, value: unknown): FieldValue {
  if (value === null) return null;
  if ((typeof value === 'string' && value.includes('\0')) || (Array.isArray(value) && value.some((item) => typeof item === 'string' && item.includes('\0')))) {
    throw new HttpError(400, { [`${entity}:${key}`]: 'Text may not contain NUL characters.' });
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (Array.isArray(value) && value.every((item) => ['string', 'number', 'boolean'].includes(typeof item))) {
    return value.map((item) => (typeof item === 'boolean' ? (item ? 't' : 'f') : String(item)));
  }
  throw new HttpError(400, { [`${entity}:${key}`]: 'Must be a text, number, boolean, null or a list of those.' });
}

/** Turns a JSON submission (`values` plus child arrays) into the records service's form, checking its shape. */
export function toSubmission(entity: string, body: unknown): Submission {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, { [`${entity}:values`]: 'The submission must be a JSON object with values.' });
  }
  const object = body as Record<string, unknown>;
  const rawValues = object.values ?? {};
  if (!rawValues || typeof rawValues !== 'object' || Array.isArray(rawValues)) {
    throw new HttpError(400, { [`${entity}:values`]: 'values must be an object of field names to values.' });
  }
  const values: FieldValues = {};
  for (const [key, value] of Object.entries(rawValues)) values[key] = fieldValue(entity, key, value);
  const submission: Submission = { values: toJsonValues(values) };
  for (const [key, childEntity] of Object.entries(CHILDREN[entity] ?? {})) {
    const children = object[key];
    if (children === undefined) continue;
    if (!Array.isArray(children)) throw new HttpError(400, { [`${entity}:${key}`]: `${key} must be an array.` });
    (submission as Record<string, unknown>)[key] = children.map((child) => toSubmission(childEntity, FLAT_CHILDREN.has(childEntity) ? flatChild(childEntity, child) : child));
  }
  return submission;
}

/** The create/update response: values, href and the saved children, each with its own href. */
export function envelope(saved: SavedRecord__Output, servicesUrl: string): Record<string, unknown> {
  const values = fromJsonValues(saved.values);
  const body: Record<string, unknown> = { values, href: `${servicesUrl}/rest/${RESOURCE_OF[saved.entity]}/${values.id}` };
  for (const key of ['occurrences', 'samples', 'media'] as const) {
    if (saved[key].length) body[key] = saved[key].map((child) => envelope(child, servicesUrl));
  }
  return body;
}
