import type { RowValues } from '@rex/protos';

/**
 * Report rows as JSON objects keyed by column. Made once per answer from its
 * columns; each row is then written as text, without an object in between.
 * Reports names each column once; were a name repeated, it would come once,
 * where it first comes, with the value of its last column.
 */
export class RowWriter {
  /** Each name's key as JSON text (`"name":`) and the position of the value it shows. */
  private readonly slots: { key: string; index: number }[];

  constructor(columns: string[]) {
    const last = new Map<string, number>();
    columns.forEach((name, index) => last.set(name, index));
    this.slots = [...last].map(([name, index]) => ({ key: `${JSON.stringify(name)}:`, index }));
  }

  /** A row as a JSON object; with `dropEmpty`, keys whose value is null or empty are left out. */
  row(values: RowValues, dropEmpty: boolean): string {
    let text = '';
    for (const { key, index } of this.slots) {
      const value = values[index] ?? null;
      if (dropEmpty && (value === null || value === '')) continue;
      text += `${text ? ',' : '{'}${key}${value === null ? 'null' : JSON.stringify(value)}`;
    }
    return text ? `${text}}` : '{}';
  }
}
