import { readPlainFields, type Column, type Errors, type FieldKind } from './fields.ts';
import { text, type Values } from './values.ts';

export type MediaKind = 'sample' | 'occurrence' | 'location';

/** Where each kind of medium lives and what it hangs from. */
export const MEDIA: Record<MediaKind, { entity: string; table: string; parentColumn: string; sequence: string }> = {
  sample: { entity: 'sample_medium', table: 'records.sample_media', parentColumn: 'sample_id', sequence: 'records.sample_media_id_seq' },
  occurrence: { entity: 'occurrence_medium', table: 'records.occurrence_media', parentColumn: 'occurrence_id', sequence: 'records.occurrence_media_id_seq' },
  location: { entity: 'location_medium', table: 'records.location_media', parentColumn: 'location_id', sequence: 'records.location_media_id_seq' },
};

const MEDIUM_FIELDS: Record<string, FieldKind> = {
  caption: 'text',
  exif: 'text',
  licence_id: 'integer',
  media_type_id: 'integer',
  external_details: 'text',
};

/** A medium as planned: its columns, and for a new one the queued file it claims. */
export type MediumPlan = { kind: MediaKind; columns: Column; queued?: string };

/**
 * Checks a medium's values. A new medium names an uploaded file (`queued`);
 * the file of an existing one cannot be replaced, and `path` is only ever
 * set from the queue.
 */
export function planMedium(kind: MediaKind, values: Values, isNew: boolean, errors: Errors): MediumPlan {
  const entity = MEDIA[kind].entity;
  const columns: Column = {};
  const local: Errors = {};
  readPlainFields(entity, values, MEDIUM_FIELDS, columns, local);
  if ('path' in values) local[`${entity}:path`] = 'The path is set from the media queue: name the uploaded file in queued.';
  const queued = text(values, 'queued');
  if (isNew && queued === undefined && !('path' in values)) local[`${entity}:path`] = 'The image file must be supplied.';
  if (!isNew && 'queued' in values) local[`${entity}:queued`] = 'The file of a medium cannot be replaced; delete the medium and add another.';
  for (const [key, message] of Object.entries(local)) if (!(key in errors)) errors[key] = message;
  return { kind, columns, queued: isNew ? queued : undefined };
}

/** The queued names a set of plans claims; a name given twice is an error on the second. */
export function queuedNames(plans: MediumPlan[], errors: Errors): string[] {
  const names = new Set<string>();
  for (const plan of plans) {
    if (!plan.queued) continue;
    if (names.has(plan.queued)) errors[`${MEDIA[plan.kind].entity}:queued`] = `The file ${plan.queued} is named more than once.`;
    names.add(plan.queued);
  }
  return [...names];
}
