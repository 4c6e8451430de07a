// Dates as clients write them in parameters and filters: checked to name a
// real day (and time), so an impossible one is the client's 400, never the
// database's error.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

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

/** YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS naming a moment that exists. */
export function isRealDateOrDateTime(value: string): boolean {
  if (isRealDate(value)) return true;
  const match = DATE_TIME.exec(value);
  return !!match && isRealDate(match[1]) && Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4]) < 60;
}
