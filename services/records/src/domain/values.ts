import { toJsonValues, type FieldValue, type FieldValues, type JsonValues } from '@rex/protos';

/** A submitted value as the domain sees it. */
export type Value = FieldValue;
export type Values = FieldValues;

/** One custom attribute's stored values in detail (`?verbose`): each value's fields. */
export type AttributeDetails = { multiValue: boolean; values: Record<string, Value>[] };

export function toAttributeDetails(details: Record<string, AttributeDetails>) {
  const out: Record<string, { multiValue: boolean; values: { values: JsonValues }[] }> = {};
  for (const [key, { multiValue, values }] of Object.entries(details)) {
    out[key] = { multiValue, values: values.map((value) => ({ values: toJsonValues(value) })) };
  }
  return out;
}

/** The value as one trimmed text, or undefined when absent, null or empty. */
export function text(values: Values, key: string): string | undefined {
  const value = values[key];
  if (value === undefined || value === null || Array.isArray(value)) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

export const has = (values: Values, key: string): boolean => key in values;

const TRUE = new Set(['true', 't', 'yes', 'y', 'on', '1']);
const FALSE = new Set(['false', 'f', 'no', 'n', 'off', '0']);

/** Parses the warehouse's boolean spellings; undefined when it is none of them. */
export function parseBoolean(value: string): boolean | undefined {
  const lower = value.trim().toLowerCase();
  if (TRUE.has(lower)) return true;
  if (FALSE.has(lower)) return false;
  return undefined;
}

export function parseInteger(value: string): number | undefined {
  const trimmed = value.trim();
  if (!/^-?\d{1,15}$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

export function parseFloatValue(value: string): number | undefined {
  const trimmed = value.trim();
  if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed)) return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
}
