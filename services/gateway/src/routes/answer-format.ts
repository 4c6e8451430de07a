import type { Request, Response } from 'express';
import { HttpError } from '../http-error.ts';
import { csvLine } from '@rex/protos';
import { htmlPage, htmlValue, keysOf } from './html-page.ts';

export type Format = 'json' | 'html' | 'csv' | 'ndjson';

const MEDIA_TYPES: Record<string, Format> = { 'application/json': 'json', 'text/html': 'html', 'text/csv': 'csv', 'application/x-ndjson': 'ndjson' };

const listed = (formats: Format[]) => (formats.length > 1 ? `${formats.slice(0, -1).join(', ')} or ${formats.at(-1)}` : formats[0]);

/**
 * The format of an answer that comes in `offered`: `?format=` wins (400 when
 * the answer does not come in it); else the first type the Accept header
 * lists that the answer comes in; else JSON (no Accept header, or one naming
 * none of those types, such as a bare wildcard).
 */
export function answerFormat(req: Request, offered: Format[]): Format {
  const asked = req.query.format;
  if (asked !== undefined) {
    if (typeof asked === 'string' && (offered as string[]).includes(asked)) return asked as Format;
    throw new HttpError(400, `format must be ${listed(offered)}`);
  }
  for (const entry of (req.get('accept') ?? '').split(',')) {
    const format = MEDIA_TYPES[entry.split(';')[0].trim().toLowerCase()];
    if (format && offered.includes(format)) return format;
  }
  return 'json';
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The rows of an answer as CSV has them: its `data` list of objects, or its
 * `data` object of objects keyed by name (a report's params or columns: one
 * row each, the key first as `name`). Undefined when it has neither.
 */
function csvRows(body: unknown): Record<string, unknown>[] | undefined {
  if (!isObject(body)) return undefined;
  const { data } = body;
  if (Array.isArray(data)) return data.every(isObject) ? data : undefined;
  if (isObject(data) && Object.values(data).every(isObject)) {
    return Object.entries(data).map(([name, fields]) => ({ name, ...(fields as Record<string, unknown>) }));
  }
  return undefined;
}

const cellText = (value: unknown): string | null =>
  value === null || value === undefined ? null : typeof value === 'object' ? JSON.stringify(value) : String(value);

function csv(rows: Record<string, unknown>[]): string {
  const keys = keysOf(rows);
  if (!keys.length) return '';
  return csvLine(keys) + rows.map((row) => csvLine(keys.map((key) => cellText(row[key])))).join('');
}

/**
 * Sends a JSON answer in the format the client asks for: JSON, an HTML page
 * of nested tables (titled `title`), or CSV when it has data rows.
 */
export function sendAnswer(req: Request, res: Response, body: unknown, title: string): void {
  const rows = csvRows(body);
  const format = answerFormat(req, rows ? ['json', 'html', 'csv'] : ['json', 'html']);
  res.vary('Accept');
  if (format === 'html') res.type('html').send(htmlPage(title, htmlValue(body)));
  else if (format === 'csv') res.type('text/csv').send(csv(rows!));
  else res.json(body);
}
