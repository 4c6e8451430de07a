import type { RowValues } from '@rex/protos';

/**
 * How a report row becomes a JSON object: each column name with the JSON text
 * of its key and the position of its value. Made once per answer; each row is
 * then written as text, without an object in between. Reports names each
 * column once; were a name repeated, it would come once, where it first comes,
 * with the value of its last column.
 */
export type RowKeys = { key: string; index: number }[];

export function rowKeys(columns: string[]): RowKeys {
  const last = new Map<string, number>();
  columns.forEach((name, index) => last.set(name, index));
  return [...last].map(([name, index]) => ({ key: `${JSON.stringify(name)}:`, index }));
}

/** A row as a JSON object; with `dropEmpty`, keys whose value is null or empty are left out. */
export function rowJson(keys: RowKeys, values: RowValues, dropEmpty: boolean): string {
  let text = '';
  for (const { key, index } of keys) {
    const value = values[index] ?? null;
    if (dropEmpty && (value === null || value === '')) continue;
    text += `${text ? ',' : '{'}${key}${value === null ? 'null' : JSON.stringify(value)}`;
  }
  return text ? `${text}}` : '{}';
}
