import { readPlainFields, type Column, type Errors, type FieldKind } from './fields.ts';
import { EXTERNAL_MEDIA_TYPES, externalMediaType, isLink, linkRefusal } from './external-media.ts';
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

/** What a stored medium shows, which an update may repeat but not change. */
export type StoredMedium = { path: string | null; media_type: string | null };

const REPLACED = 'The file of a medium cannot be replaced; delete the medium and add another.';

/**
 * Checks a medium's values. A new medium names an uploaded file (`queued`),
 * or is a link: `path` an https:// URL and `media_type` one of the external
 * types. What a medium shows (its file or link, and the media type that goes
 * with it) cannot change; an update that sends the stored values back is fine.
 */
export function planMedium(kind: MediaKind, values: Values, isNew: boolean, errors: Errors, stored?: StoredMedium): MediumPlan {
  const entity = MEDIA[kind].entity;
  const columns: Column = {};
  const local: Errors = {};
  readPlainFields(entity, values, MEDIUM_FIELDS, columns, local);
  const queued = text(values, 'queued');
  const path = text(values, 'path');
  if (!isNew) {
    if ('path' in values && path !== stored?.path) local[`${entity}:path`] = REPLACED;
    if ('queued' in values && queued !== stored?.path) local[`${entity}:queued`] = REPLACED;
    if ('media_type' in values && text(values, 'media_type') !== stored?.media_type) local[`${entity}:media_type`] = 'The media type follows the file or link of a medium and cannot be changed.';
  } else if (path !== undefined && isLink(path)) {
    const refusal = linkRefusal(path);
    const mediaType = externalMediaType(text(values, 'media_type'));
    if (refusal) local[`${entity}:path`] = refusal;
    if (queued !== undefined) local[`${entity}:queued`] = 'A medium is an uploaded file (queued) or a link (path), not both.';
    if (!mediaType) local[`${entity}:media_type`] = `A link needs one of the external media types: ${EXTERNAL_MEDIA_TYPES.join(', ')}.`;
    if (!refusal && mediaType) Object.assign(columns, { path, media_type: mediaType });
  } else if ('path' in values) {
    local[`${entity}:path`] = 'The path of a medium is an https:// link to a file kept elsewhere; an uploaded file is named in queued.';
  } else if (queued === undefined) {
    local[`${entity}:path`] = 'The image file must be supplied.';
  }
  for (const [key, message] of Object.entries(local)) if (!(key in errors)) errors[key] = message;
  return { kind, columns, queued: isNew && !('path' in values) ? queued : undefined };
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
