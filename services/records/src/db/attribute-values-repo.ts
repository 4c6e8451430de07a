import type { PoolClient } from '@rex/db';
import type { AttributeValue, AttributeValueUpdate } from '../domain/attributes.ts';

// Custom attribute values of samples, occurrences and locations: what is
// stored, written and changed for each, in one place.

export type StoredAttributeValue = {
  attribute_id: string;
  value_id: string;
  caption: string;
  data_type: AttributeValue['dateType'] & string;
  multi_value: boolean;
  text_value: string | null;
  int_value: string | null;
  float_value: number | null;
  date_start: string | null;
  date_end: string | null;
  date_type: string | null;
  term: string | null;
};

const VALUE_TABLES = {
  sample: { table: 'records.sample_attribute_values', key: 'sample_id' },
  occurrence: { table: 'records.occurrence_attribute_values', key: 'occurrence_id' },
  location: { table: 'records.location_attribute_values', key: 'location_id' },
} as const;

/**
 * The one INSERT of attribute values of `entity`, from a SELECT of the record's id, attribute id,
 * text, integer and float values, date start, end and type; also a part of the statement that
 * writes new records.
 */
export function insertAttributeValues(entity: keyof typeof VALUE_TABLES, rows: string): string {
  const { table, key } = VALUE_TABLES[entity];
  return `INSERT INTO ${table} (${key}, attribute_id, text_value, int_value, float_value, date_start, date_end, date_type) ${rows}`;
}

/**
 * The live attribute values of each `entity` record the SELECT reads (as `alias`), as one JSON
 * array of StoredAttributeValue: the `attribute_values` column of every record read.
 */
export function attributeValuesColumn(entity: keyof typeof VALUE_TABLES, alias: string): string {
  const { table, key } = VALUE_TABLES[entity];
  return `(SELECT json_agg(json_build_object('attribute_id', v.attribute_id::text, 'value_id', v.id::text, 'caption', a.caption,
                 'data_type', a.data_type, 'multi_value', a.multi_value, 'text_value', v.text_value,
                 'int_value', v.int_value::text, 'float_value', v.float_value, 'date_start', v.date_start, 'date_end', v.date_end,
                 'date_type', v.date_type, 'term', term.term) ORDER BY v.attribute_id, v.id)
            FROM ${table} v
            JOIN records.attributes a ON a.id = v.attribute_id
            LEFT JOIN records.attribute_terms term ON a.data_type = 'L' AND term.id = v.int_value
           WHERE v.${key} = ${alias}.id AND NOT v.deleted) AS attribute_values`;
}

/** Stores attribute values; values of `replaced` attributes already stored are soft-deleted first. */
export async function saveAttributeValues(
  client: PoolClient,
  entity: keyof typeof VALUE_TABLES,
  ownerId: string,
  values: AttributeValue[],
  replaced: Set<string> = new Set(),
): Promise<void> {
  const { table, key } = VALUE_TABLES[entity];
  if (replaced.size) {
    await client.query(`UPDATE ${table} SET deleted = true WHERE ${key} = $1 AND attribute_id = ANY($2::bigint[]) AND NOT deleted`, [
      ownerId,
      [...replaced],
    ]);
  }
  if (!values.length) return;
  await client.query(
    insertAttributeValues(entity, 'SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::float8[], $6::date[], $7::date[], $8::text[])'),
    [
      ownerId,
      values.map((v) => v.attributeId),
      values.map((v) => v.textValue),
      values.map((v) => v.intValue),
      values.map((v) => v.floatValue),
      values.map((v) => v.dateStart),
      values.map((v) => v.dateEnd),
      values.map((v) => v.dateType),
    ],
  );
}

/** Of `valueIds`, those that are live values of the record: value id → attribute id. */
export async function liveAttributeValues(
  client: PoolClient,
  entity: keyof typeof VALUE_TABLES,
  ownerId: string,
  valueIds: string[],
): Promise<Map<string, string>> {
  if (!valueIds.length) return new Map();
  const { table, key } = VALUE_TABLES[entity];
  const { rows } = await client.query<{ id: string; attribute_id: string }>(
    `SELECT id::text, attribute_id::text FROM ${table} WHERE ${key} = $1 AND id = ANY($2::bigint[]) AND NOT deleted`,
    [ownerId, valueIds],
  );
  return new Map(rows.map((row) => [row.id, row.attribute_id]));
}

/** Overwrites stored values in place (a null value soft-deletes it); the caller has checked they are the record's. */
export async function updateAttributeValues(
  client: PoolClient,
  entity: keyof typeof VALUE_TABLES,
  ownerId: string,
  updates: AttributeValueUpdate[],
): Promise<void> {
  const { table, key } = VALUE_TABLES[entity];
  for (const { valueId, value } of updates) {
    if (value === null) {
      await client.query(`UPDATE ${table} SET deleted = true WHERE id = $1 AND ${key} = $2`, [valueId, ownerId]);
      continue;
    }
    await client.query(
      `UPDATE ${table} SET text_value = $3, int_value = $4, float_value = $5, date_start = $6, date_end = $7, date_type = $8
        WHERE id = $1 AND ${key} = $2`,
      [valueId, ownerId, value.textValue, value.intValue, value.floatValue, value.dateStart, value.dateEnd, value.dateType],
    );
  }
}
