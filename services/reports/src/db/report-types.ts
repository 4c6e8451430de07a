import pg from 'pg';

const TIMESTAMPTZ = pg.types.builtins.TIMESTAMPTZ;
const parseTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ);

/** A timestamptz as PostgreSQL writes it in UTC: date, time, up to six digits of a second, `+00`. */
const UTC_TEXT = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/**
 * A timestamptz of a report row: the text a report shows for it (ISO 8601 in UTC, to the
 * millisecond, as `Date#toISOString` writes it), made from PostgreSQL's text without a Date in
 * between; other forms (another zone, years beyond four digits, BC, infinity) are parsed as usual.
 */
export function reportTimestamp(text: string): string | ReturnType<typeof parseTimestamptz> {
  const utc = UTC_TEXT.exec(text);
  if (!utc) return parseTimestamptz(text);
  return `${utc[1]}T${utc[2]}.${(utc[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
}

/** How report queries read their values: as the pool does, timestamps straight to their text. */
export const REPORT_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ && format !== 'binary' ? reportTimestamp : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
