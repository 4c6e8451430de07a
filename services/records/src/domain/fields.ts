import { isRealDate } from '@rex/dates';
import { parseBoolean, parseInteger, text, type Values } from './values.ts';

export type Column = Record<string, unknown>;
export type Errors = Record<string, string>;

/** A code from a list; `required` codes cannot be cleared (their column is NOT NULL). */
export type FieldKind = 'text' | 'integer' | 'boolean' | { oneOf: readonly string[]; required?: boolean };

/**
 * Copies plain fields from the submitted values into columns, checking each
 * against its kind. Absent fields are left alone; null or '' clears the field.
 */
export function readPlainFields(
  entity: string,
  values: Values,
  kinds: Record<string, FieldKind>,
  columns: Column,
  errors: Errors,
): void {
  for (const [field, kind] of Object.entries(kinds)) {
    if (!(field in values)) continue;
    const raw = text(values, field);
    if (Array.isArray(values[field])) {
      errors[`${entity}:${field}`] = 'A single value is expected.';
      continue;
    }
    if (raw === undefined) {
      if (typeof kind === 'object' && kind.required) errors[`${entity}:${field}`] = `A value is required: one of ${kind.oneOf.join(', ')}.`;
      else columns[field] = kind === 'boolean' ? false : null;
      continue;
    }
    if (kind === 'text') {
      columns[field] = raw;
    } else if (kind === 'integer') {
      const number = parseInteger(raw);
      if (number === undefined) errors[`${entity}:${field}`] = 'Must be a whole number.';
      else columns[field] = number;
    } else if (kind === 'boolean') {
      const flag = parseBoolean(raw);
      if (flag === undefined) errors[`${entity}:${field}`] = 'Must be true or false.';
      else columns[field] = flag;
    } else {
      const upper = raw.toUpperCase();
      if (!kind.oneOf.includes(upper)) errors[`${entity}:${field}`] = `Must be one of ${kind.oneOf.join(', ')}.`;
      else columns[field] = upper;
    }
  }
}

/** Records the first error for a key; a later one for the same key is dropped. */
export function addErrors(target: Errors, more: Errors): void {
  for (const [key, message] of Object.entries(more)) if (!(key in target)) target[key] = message;
}

export type FilterKind = 'integer' | 'text' | 'date';

/**
 * The list filters among query parameters: fields of `kinds` only (others are
 * ignored), each value checked by its kind; problems go to `errors`.
 */
export function readFilters(entity: string, given: Record<string, string>, kinds: Record<string, FilterKind>, errors: Errors): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const [field, value] of Object.entries(given)) {
    const kind = Object.hasOwn(kinds, field) ? kinds[field] : undefined;
    if (!kind) continue;
    if (kind === 'integer' && !/^-?\d{1,18}$/.test(value.trim())) errors[`${entity}:${field}`] = `Invalid filter on numeric field ${field}`;
    else if (kind === 'date' && !isRealDate(value)) errors[`${entity}:${field}`] = `Invalid filter on date field ${field}: a date as YYYY-MM-DD is expected.`;
    else if (value.includes('\0')) errors[`${entity}:${field}`] = `Invalid filter on ${field}: it may not contain NUL characters.`;
    else filters[field] = value;
  }
  return filters;
}

/** A create names no id: the record's id is the database's (`<entity>:id` otherwise). */
export function refuseIdOnCreate(values: Values, entity: string, errors: Errors): void {
  if (text(values, 'id') !== undefined) errors[`${entity}:id`] = 'Cannot POST with id to update, use PUT instead.';
}
