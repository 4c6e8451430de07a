import { parseBoolean, parseFloatValue, parseInteger, type Value, type Values } from './values.ts';
import { parseVagueDate } from './vague-date.ts';

export type RecordEntity = 'sample' | 'occurrence' | 'location';

export const ATTRIBUTE_PREFIX: Record<RecordEntity, string> = { sample: 'smpAttr', occurrence: 'occAttr', location: 'locAttr' };

export type AttributeDefinition = {
  id: string;
  entity: RecordEntity;
  caption: string;
  dataType: 'T' | 'I' | 'F' | 'D' | 'V' | 'B' | 'L';
  multiValue: boolean;
  required: boolean;
  /** Lookup attributes: term id → term. */
  terms: Map<string, string>;
};

/** One stored value of a custom attribute, in the column its type uses. */
export type AttributeValue = {
  attributeId: string;
  textValue: string | null;
  intValue: number | null;
  floatValue: number | null;
  dateStart: string | null;
  dateEnd: string | null;
  dateType: string | null;
};

const empty = (attributeId: string): AttributeValue => ({
  attributeId,
  textValue: null,
  intValue: null,
  floatValue: null,
  dateStart: null,
  dateEnd: null,
  dateType: null,
});

/** Converts one submitted text to a stored value, or returns the error text. */
export function parseAttributeValue(definition: AttributeDefinition, raw: string): AttributeValue | string {
  const value = empty(definition.id);
  switch (definition.dataType) {
    case 'T':
      value.textValue = raw;
      return value;
    case 'I': {
      const number = parseInteger(raw);
      if (number === undefined) return 'Must be a whole number.';
      value.intValue = number;
      return value;
    }
    case 'F': {
      const number = parseFloatValue(raw);
      if (number === undefined) return 'Must be a number.';
      value.floatValue = number;
      return value;
    }
    case 'B': {
      const flag = parseBoolean(raw);
      if (flag === undefined) return 'Must be true or false.';
      value.intValue = flag ? 1 : 0;
      return value;
    }
    case 'L': {
      const termId = String(parseInteger(raw) ?? '');
      if (!definition.terms.has(termId)) return `The value ${raw} is not a term of this attribute's list.`;
      value.intValue = Number(termId);
      return value;
    }
    case 'D':
    case 'V': {
      const date = parseVagueDate(raw);
      if (!date) return 'The date could not be recognised.';
      if (definition.dataType === 'D' && date.type !== 'D') return 'Must be a single day.';
      value.dateStart = date.start;
      value.dateEnd = date.end;
      value.dateType = date.type;
      return value;
    }
  }
}

export type AttributeKey = { attributeId: string; valueId?: string };

/** Reads `smpAttr:12` (new value) or `smpAttr:12:345` (stored value 345). */
export function parseAttributeKey(entity: RecordEntity, key: string): AttributeKey | undefined {
  const match = new RegExp(`^${ATTRIBUTE_PREFIX[entity]}:(\\d+)(?::(\\d+))?$`).exec(key);
  if (!match) return undefined;
  return { attributeId: match[1], valueId: match[2] };
}

/** A change to one stored value (`smpAttr:12:345`): its new value, or null to remove it. */
export type AttributeValueUpdate = { key: string; valueId: string; attributeId: string; value: AttributeValue | null };

export type AttributeSubmission = {
  values: AttributeValue[];
  replaces: Set<string>;
  updates: AttributeValueUpdate[];
  errors: Record<string, string>;
};

/** Reads `smpAttr:12:345`: the new text of stored value 345; checking that 345 is one is the caller's. */
function readValueUpdate(
  key: string,
  parsed: Required<AttributeKey>,
  raw: Value,
  definition: AttributeDefinition,
): AttributeValueUpdate | string {
  const texts = (Array.isArray(raw) ? raw : raw === null ? [] : [raw]).filter((item) => item.trim() !== '');
  if (texts.length > 1) return 'This key names one stored value; send a single value.';
  if (texts.length === 0) {
    return definition.required ? 'A value is required for this attribute.' : { key, ...parsed, value: null };
  }
  const value = parseAttributeValue(definition, texts[0].trim());
  return typeof value === 'string' ? value : { key, ...parsed, value };
}

/**
 * Validates the custom attribute values among `values` against the attributes
 * available to the record (its survey's; a location's website's). `isNew` (a
 * record being created) checks required attributes and refuses keys naming
 * stored values; on update only the attributes sent are checked.
 * `unavailable` words the error for an attribute that is not among them.
 */
export function readAttributes(
  entity: RecordEntity,
  values: Values,
  definitions: Map<string, AttributeDefinition>,
  isNew: boolean,
  unavailable: (attributeId: string) => string = (attributeId) => `Attribute ${attributeId} is not available for this survey.`,
): AttributeSubmission {
  const result: AttributeSubmission = { values: [], replaces: new Set(), updates: [], errors: {} };
  const prefix = ATTRIBUTE_PREFIX[entity];
  const seen = new Set<string>();
  for (const [key, raw] of Object.entries(values)) {
    const parsed = parseAttributeKey(entity, key);
    if (!parsed) {
      if (key.startsWith(`${prefix}:`)) result.errors[`${entity}:${key}`] = 'Unrecognised attribute key.';
      continue;
    }
    const definition = definitions.get(parsed.attributeId);
    const errorKey = `${entity}:${key}`;
    if (!definition) {
      result.errors[errorKey] = unavailable(parsed.attributeId);
      continue;
    }
    seen.add(parsed.attributeId);
    if (parsed.valueId !== undefined) {
      const update = isNew
        ? `A new ${entity} has no stored values; send ${prefix}:${parsed.attributeId} instead.`
        : readValueUpdate(key, { attributeId: parsed.attributeId, valueId: parsed.valueId }, raw, definition);
      if (typeof update === 'string') result.errors[errorKey] = update;
      else result.updates.push(update);
      continue;
    }
    result.replaces.add(parsed.attributeId);
    const texts = (Array.isArray(raw) ? raw : raw === null ? [] : [raw]).filter((item) => item.trim() !== '');
    if (texts.length > 1 && !definition.multiValue) {
      result.errors[errorKey] = 'This attribute takes a single value.';
      continue;
    }
    if (texts.length === 0 && definition.required) {
      result.errors[errorKey] = 'A value is required for this attribute.';
      continue;
    }
    for (const item of texts) {
      const value = parseAttributeValue(definition, item.trim());
      if (typeof value === 'string') result.errors[errorKey] = value;
      else result.values.push(value);
    }
  }
  for (const update of result.updates) {
    if (result.replaces.has(update.attributeId)) {
      result.errors[`${entity}:${update.key}`] = `${prefix}:${update.attributeId} replaces all its values; send one key or the other.`;
    }
  }
  if (isNew) {
    for (const definition of definitions.values()) {
      if (definition.required && !seen.has(definition.id)) {
        result.errors[`${entity}:${prefix}:${definition.id}`] = 'A value is required for this attribute.';
      }
    }
  }
  return result;
}
