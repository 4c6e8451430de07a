import { type JsonValues, type SavedRecord, toJsonValues } from '@rex/protos';
import { ATTRIBUTE_PREFIX, type RecordEntity } from '../domain/attributes.ts';
import { MEDIA, type MediaKind } from '../domain/media.ts';
import { type AttributeDetails, type Value } from '../domain/values.ts';
import { formatVagueDate } from '../domain/vague-date.ts';
import type { StoredAttributeValue } from '../db/attribute-values-repo.ts';

// What a record looks like in an answer: values read, ids and times of what was saved.

/** One record as read: its values, version and, when asked for, its attribute values in detail. */
export type RecordRead = { values: Record<string, Value>; version: string; attributes: Record<string, AttributeDetails>; associations?: Record<string, Value>[] };

export function stamp(id: string, created: string, updated: string = created): JsonValues {
  return toJsonValues({ id, created_on: created, updated_on: updated });
}

/** Saved media as children of a write's answer. */
export const savedMedia = (kind: MediaKind, ids: string[] | undefined, when: string): SavedRecord[] =>
  (ids ?? []).map((id) => ({ entity: MEDIA[kind].entity, values: stamp(id, when) }));

export const savedOccurrence = (id: string, media: Record<string, string[]> | undefined, when: string): SavedRecord => ({
  entity: 'occurrence',
  values: stamp(id, when),
  media: savedMedia('occurrence', media?.[id], when),
});

/** Stored custom attribute values as the API returns them: one text, or a list for several. */
export function attributeValuesForResponse(entity: RecordEntity, rows: StoredAttributeValue[]): Record<string, Value> {
  const grouped = new Map<string, string[]>();
  for (const row of rows) {
    const key = `${ATTRIBUTE_PREFIX[entity]}:${row.attribute_id}`;
    const list = grouped.get(key) ?? [];
    list.push(attributeText(row));
    grouped.set(key, list);
  }
  const out: Record<string, Value> = {};
  for (const [key, list] of grouped) out[key] = list.length === 1 ? list[0] : list;
  return out;
}

/** Stored custom attribute values in detail (`?verbose`), as the warehouse's readAttributes gives them. */
export function attributeDetailsForResponse(entity: RecordEntity, rows: StoredAttributeValue[]): Record<string, AttributeDetails> {
  const out: Record<string, AttributeDetails> = {};
  for (const row of rows) {
    const key = `${ATTRIBUTE_PREFIX[entity]}:${row.attribute_id}`;
    out[key] ??= { multiValue: row.multi_value, values: [] };
    out[key].values.push({
      attribute_id: row.attribute_id,
      value_id: row.value_id,
      caption: row.caption,
      data_type: row.data_type,
      multi_value: row.multi_value ? 't' : 'f',
      value: attributeText(row),
      raw_value: rawAttributeValue(row),
      upper_value: null, // no attribute takes a range
    });
  }
  return out;
}

/** The stored value itself: the term id of a lookup, a date as YYYY-MM-DD, a vague date as start#end#type. */
function rawAttributeValue(row: StoredAttributeValue): string | null {
  switch (row.data_type as string) {
    case 'T':
      return row.text_value;
    case 'I':
    case 'B':
    case 'L':
      return row.int_value;
    case 'F':
      return row.float_value === null ? null : String(row.float_value);
    case 'D':
      return row.date_start;
    default:
      return `${row.date_start ?? ''}#${row.date_end ?? ''}#${row.date_type ?? ''}`;
  }
}

function attributeText(row: StoredAttributeValue): string {
  switch (row.data_type as string) {
    case 'T':
      return row.text_value ?? '';
    case 'I':
    case 'B':
      return String(row.int_value ?? '');
    case 'F':
      return String(row.float_value ?? '');
    case 'L':
      return row.term ?? String(row.int_value ?? '');
    default:
      return row.date_type ? formatVagueDate({ start: row.date_start, end: row.date_end, type: row.date_type }) : '';
  }
}
