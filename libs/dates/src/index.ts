// Dates as clients write them in parameters and filters: checked to name a
// real day (and time), so an impossible one is the client's 400, never the
// database's error.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// ISO 8601 date-time, optionally with fractions of a second and a UTC offset. In a
// query string an unencoded `+` arrives as a space, so a space before the offset is one.
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|([+\- ])(\d{2}):?(\d{2}))?$/;

/** YYYY-MM-DD naming a day that exists (year 1 or later). */
export function isRealDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not turn years 0-99 into 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  return year > 0 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SS with optional fractions and a UTC offset
 * (`Z`, `+01:00`, `-0530`), naming a moment that exists.
 */
export function isRealDateOrDateTime(value: string): boolean {
  return canonicalMoment(value) !== undefined;
}

/** The moment as PostgreSQL reads it (a space where the offset's `+` was), or undefined when it is not one. */
export function canonicalMoment(value: string): string | undefined {
  if (isRealDate(value)) return value;
  const match = DATE_TIME.exec(value);
  if (!match || !isRealDate(match[1]) || Number(match[2]) > 23 || Number(match[3]) > 59 || Number(match[4]) > 59) return undefined;
  const [sign, hours, minutes] = [match[5], match[6], match[7]];
  if (sign && (Number(hours) > 14 || Number(minutes) > 59)) return undefined;
  return sign === ' ' ? value.replace(/ (?=\d{2}:?\d{2}$)/, '+') : value;
}
