import type { JsonValues } from './generated/common/v1/JsonValues.ts';

/** A value of a record as the REST API sees it: a text, null, or a list of texts. */
export type FieldValue = string | null | string[];

/** A record's values by field name. */
export type FieldValues = Record<string, FieldValue>;

/** `values` as a JsonValues message; undefined values are left out. */
export function toJsonValues(values: Record<string, FieldValue | undefined>): JsonValues {
  return { json: JSON.stringify(values) };
}

const isText = (value: unknown): value is string => typeof value === 'string';

/**
 * The values a JsonValues message holds (none when it is absent or empty).
 * Throws when its text is not an object of texts, nulls and lists of texts:
 * the peer that wrote it is broken, and nothing of it may be acted on.
 */
export function fromJsonValues(message: JsonValues | null | undefined): FieldValues {
  if (!message?.json) return {};
  const parsed: unknown = JSON.parse(message.json);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new TypeError('JsonValues must hold a JSON object.');
  for (const value of Object.values(parsed)) {
    if (value !== null && !isText(value) && !(Array.isArray(value) && value.every(isText))) {
      throw new TypeError('Each of JsonValues must be a text, null or a list of texts.');
    }
  }
  return parsed as FieldValues;
}

/** A report row: its values in the order of its columns, each a text or null. */
export type RowValues = (string | null)[];

/** Report rows as a RowBatch's JSON. */
export const toJsonRows = (rows: RowValues[]): string => JSON.stringify(rows);

/** The rows of a RowBatch's JSON; throws when it is not an array of arrays of texts and nulls. */
export function fromJsonRows(json: string): RowValues[] {
  if (!json) return [];
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) throw new TypeError('RowBatch must hold a JSON array of rows.');
  for (const row of parsed) {
    if (!Array.isArray(row) || !row.every((value) => value === null || isText(value))) throw new TypeError('Each row of a RowBatch must be an array of texts and nulls.');
  }
  return parsed as RowValues[];
}
