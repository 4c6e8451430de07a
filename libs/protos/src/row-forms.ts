import type { RowValues } from './json-values.ts';
import type { RowForm__Output } from './generated/reports/v1/RowForm.ts';

const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;
/** What JSON.stringify writes other than as it stands: quotes, backslashes, control characters and (when alone) surrogates. */
const NEEDS_ESCAPES = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Whether a value's first character would make a spreadsheet run it as a formula: = + - @, a tab or a carriage return. */
function startsFormula(value: string): boolean {
  const first = value.charCodeAt(0);
  return first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13;
}

/**
 * One CSV cell. A value a spreadsheet would run as a formula (starting with
 * = + - @, a tab or a carriage return) is prefixed with an apostrophe, unless
 * it is a plain number.
 */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const safe = startsFormula(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line, ending CRLF. */
export function csvLine(values: (string | null)[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += i === 0 ? csvCell(values[i]) : `,${csvCell(values[i])}`;
  return `${line}\r\n`;
}

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
    let text = '{';
    let first = true;
    for (const { key, index } of this.slots) {
      const value = values[index] ?? null;
      if (dropEmpty && (value === null || value === '')) continue;
      if (!first) text += ',';
      first = false;
      text += key;
      text += value === null ? 'null' : NEEDS_ESCAPES.test(value) ? JSON.stringify(value) : `"${value}"`;
    }
    return `${text}}`;
  }
}

/**
 * Writes a report's rows, batch after batch, in one of the text forms of a
 * RowBatch (see RowForm in reports_service.proto): what an HTTP answer sends
 * as it stands. JSON objects of a page's data array are separated by commas
 * across batches, so the writer counts the rows it has written.
 */
export class RowTextWriter {
  private readonly form: Exclude<RowForm__Output, 'ROW_FORM_JSON_ARRAYS'>;
  private readonly objects: RowWriter;
  private written = 0;

  constructor(form: Exclude<RowForm__Output, 'ROW_FORM_JSON_ARRAYS'>, columns: string[]) {
    this.form = form;
    this.objects = new RowWriter(columns);
  }

  /** The text of the next batch. */
  write(rows: RowValues[]): string {
    let text = '';
    for (const row of rows) {
      if (this.form === 'ROW_FORM_CSV') text += csvLine(row);
      else if (this.form === 'ROW_FORM_NDJSON') text += `${this.objects.row(row, false)}\n`;
      else text += `${this.written > 0 ? ',' : ''}${this.objects.row(row, true)}`;
      this.written += 1;
    }
    return text;
  }
}
