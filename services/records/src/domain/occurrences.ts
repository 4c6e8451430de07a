import { readAttributes, type AttributeDefinition, type AttributeValue, type AttributeValueUpdate } from './attributes.ts';
import { addErrors, readPlainFields, type Column, type Errors, type FieldKind } from './fields.ts';
import { RECORD_STATUSES } from './samples.ts';
import { parseInteger, text, type Values } from './values.ts';

const OCCURRENCE_FIELDS: Record<string, FieldKind> = {
  determiner_id: 'integer',
  external_key: 'text',
  confidential: 'boolean',
  comment: 'text',
  record_status: { oneOf: RECORD_STATUSES, required: true },
  record_substatus: { oneOf: ['1', '2', '3', '4', '5'] },
  zero_abundance: 'boolean',
  training: 'boolean',
  sensitivity_precision: 'integer',
  release_status: { oneOf: ['R', 'P', 'U'], required: true },
  record_decision_source: { oneOf: ['H', 'M'] },
  machine_involvement: { oneOf: ['0', '1', '2', '3', '4', '5'] },
};

export type OccurrenceChanges = {
  columns: Column;
  attributes: AttributeValue[];
  replacedAttributes: Set<string>;
  updatedAttributeValues: AttributeValueUpdate[];
};

function readTaxon(values: Values, taxa: Set<string>, columns: Column, errors: Errors): void {
  const raw = text(values, 'taxa_taxon_list_id');
  if (raw === undefined) {
    errors['occurrence:taxa_taxon_list_id'] = 'The taxon must be specified.';
    return;
  }
  const id = parseInteger(raw);
  if (id === undefined || !taxa.has(String(id))) {
    errors['occurrence:taxa_taxon_list_id'] = `The taxon ${raw} is not known.`;
    return;
  }
  columns.taxa_taxon_list_id = id;
}

/** Checks an occurrence's values. `isNew` requires the taxon and required attributes. */
export function planOccurrence(
  values: Values,
  taxa: Set<string>,
  attributes: Map<string, AttributeDefinition>,
  isNew: boolean,
  errors: Errors,
): OccurrenceChanges {
  const columns: Column = {};
  const local: Errors = {};
  if (isNew || 'taxa_taxon_list_id' in values) readTaxon(values, taxa, columns, local);
  readPlainFields('occurrence', values, OCCURRENCE_FIELDS, columns, local);
  for (const field of ['record_substatus', 'machine_involvement']) {
    if (typeof columns[field] === 'string') columns[field] = Number(columns[field]);
  }
  const read = readAttributes('occurrence', values, attributes, isNew);
  addErrors(local, read.errors);
  addErrors(errors, local);
  return { columns, attributes: read.values, replacedAttributes: read.replaces, updatedAttributeValues: read.updates };
}

/** Taxon ids named anywhere in a list of occurrence values. */
export function taxonIds(occurrences: Values[]): string[] {
  const ids = new Set<string>();
  for (const values of occurrences) {
    const id = parseInteger(text(values, 'taxa_taxon_list_id') ?? '');
    if (id !== undefined) ids.add(String(id));
  }
  return [...ids];
}
