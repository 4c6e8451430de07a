import type { FieldValue } from '@rex/protos';

/** A report cell as the API shows it: text, or null; dates in ISO 8601, structured values as JSON. */
export function toFieldValue(value: unknown): FieldValue {
  if (value === null || value === undefined) return { null: true };
  if (value instanceof Date) return { text: value.toISOString() };
  return { text: typeof value === 'object' ? JSON.stringify(value) : String(value) };
}
