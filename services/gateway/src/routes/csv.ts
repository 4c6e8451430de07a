/**
 * One CSV cell. A value a spreadsheet would run as a formula (starting with
 * = + - @, a tab or a carriage return) is prefixed with an apostrophe, unless
 * it is a plain number.
 */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) && !/^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line, ending CRLF. */
export const csvLine = (values: (string | null)[]): string => `${values.map(csvCell).join(',')}\r\n`;
