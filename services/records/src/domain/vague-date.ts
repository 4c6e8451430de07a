// Vague dates as the Indicia warehouse stores them (application/helpers/vague_date.php and
// application/libraries/DateParser.php): a start date, an end date and a type code.
//
// Conventions taken from the warehouse:
// - A century C runs from year (C-1)*100+1 to C*100: 20C = 1901-01-01 to 2000-12-31.
// - Winter YYYY runs from 1 December of YYYY-1 to the end of February of YYYY
//   (Winter 2010 = 2009-12-01 to 2010-02-28); the other seasons are Mar–May, Jun–Aug, Sep–Nov.
// - A month (M) or season (S) without a year is stored with the dates of the current year,
//   because the month or season can only be recovered from the stored dates.
// - Two-digit years up to the current two-digit year are this century, later ones the last.
// - An open-ended day or month ('from 12/10/1997', 'before June 1998') becomes a DD/OO range
//   over that single day or month: D- and O- are not date types.

export type VagueDate = { start: string | null; end: string | null; type: string };

type Season = 'spring' | 'summer' | 'autumn' | 'winter';

type DatePart =
  | { kind: 'day'; year: number; month: number; day: number }
  | { kind: 'monthInYear'; year: number; month: number }
  | { kind: 'month'; month: number }
  | { kind: 'seasonInYear'; season: Season; year: number }
  | { kind: 'season'; season: Season }
  | { kind: 'year'; year: number }
  | { kind: 'century'; century: number };

type DateBounds = { start: string; end: string };

const MONTH_NAMES = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];
const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const SEASONS: Season[] = ['spring', 'summer', 'autumn', 'winter'];
const SEASON_FIRST_MONTH: Record<Season, number> = { spring: 3, summer: 6, autumn: 9, winter: 12 };

const RANGE_SEPARATOR = ' to ';

/** No vague date is longer ("from 12 September 2024 to 13 October 2025" and the like); longer text is refused unparsed. */
export const MAX_VAGUE_DATE_LENGTH = 100;

/** Parses a date as typed by a recorder; null when the text is not a recognised vague date. */
export function parseVagueDate(input: string, today: Date = new Date()): VagueDate | null {
  if (input.length > MAX_VAGUE_DATE_LENGTH) return null;
  const text = input.trim().replace(/\s+/g, ' ');
  if (text === '') return null;
  if (/^(u|unknown)$/i.test(text)) return { start: null, end: null, type: 'U' };
  const date = parseDateOrRange(text, today);
  // Year 0 (and the winter of year 1, which starts in December of year 0) names no day the
  // calendar has; ISO dates sort as text, and a negative year's "00-1" before any other.
  return date !== null && [date.start, date.end].some((day) => day !== null && day < FIRST_DAY) ? null : date;
}

const FIRST_DAY = '0001-01-01';

function parseDateOrRange(text: string, today: Date): VagueDate | null {
  const range = splitRange(text);
  if (range === null) {
    const part = parseDatePart(text, today);
    return part === null ? null : singleVagueDate(part, today);
  }
  const start = range.start === null ? null : parseDatePart(range.start, today);
  const end = range.end === null ? null : parseDatePart(range.end, today);
  if ((range.start !== null && start === null) || (range.end !== null && end === null)) return null;
  return rangeVagueDate(start, end, today);
}

/** The warehouse's display form of a vague date; '' when the dates do not fit the type. */
export function formatVagueDate(date: VagueDate): string {
  const start = parseIsoDate(date.start);
  const end = parseIsoDate(date.end);
  switch (date.type) {
    case 'D':
      return start ? formatDay(start) : '';
    case 'DD':
      return start && end ? formatDay(start) + RANGE_SEPARATOR + formatDay(end) : '';
    case 'O':
      return start ? formatMonthInYear(start) : '';
    case 'OO':
      return start && end ? formatMonthInYear(start) + RANGE_SEPARATOR + formatMonthInYear(end) : '';
    case 'M':
      return start ? MONTH_NAMES[start.month - 1] : '';
    case 'S':
      return start ? seasonNameStartingIn(start.month) : '';
    case 'P': {
      const season = start ? seasonNameStartingIn(start.month) : '';
      return season && end ? `${season} ${formatYear(end.year)}` : '';
    }
    case 'Y':
      return start ? formatYear(start.year) : '';
    case 'YY':
      return start && end ? formatYear(start.year) + RANGE_SEPARATOR + formatYear(end.year) : '';
    case 'Y-':
      return start ? `From ${formatYear(start.year)}` : '';
    case '-Y':
      return end ? `To ${formatYear(end.year)}` : '';
    case 'C':
      return start ? `${centuryOfStart(start.year)}C` : '';
    case 'CC':
      return start && end ? `${centuryOfStart(start.year)}C${RANGE_SEPARATOR}${centuryOfEnd(end.year)}C` : '';
    case 'C-':
      return start ? `From ${centuryOfStart(start.year)}C` : '';
    case '-C':
      return end ? `To ${centuryOfEnd(end.year)}C` : '';
    case 'U':
      return 'Unknown';
    default:
      return '';
  }
}

/**
 * True when the date starts after today (the server's local date). Dates without a start
 * (-Y, -C, U) and year-less months and seasons (M, S) are never in the future.
 */
export function isInFuture(date: VagueDate, today: Date = new Date()): boolean {
  if (date.start === null || date.type === 'M' || date.type === 'S') return false;
  const todayIso = isoDate(today.getFullYear(), today.getMonth() + 1, today.getDate());
  return date.start.slice(0, 10) > todayIso;
}

// ---------------------------------------------------------------------------------------------
// Splitting ranges, in the warehouse's order of precedence.

type RangeText = { start: string | null; end: string | null }; // null = open end

function splitRange(text: string): RangeText | null {
  const separated = / to | - /i.exec(text);
  if (separated) {
    return { start: text.slice(0, separated.index).trim(), end: text.slice(separated.index + separated[0].length).trim() };
  }
  const hyphenated =
    /^(\d{1,2}[/.]\d{1,2}[/.]\d{2}(?:\d{2})?)-(\d{1,2}[/.]\d{1,2}[/.]\d{2}(?:\d{2})?)$/.exec(text) ?? // days
    /^(\d{1,2}[/.]\d{2}(?:\d{2})?)-(\d{1,2}[/.]\d{2}(?:\d{2})?)$/.exec(text) ?? // months
    /^(\d{4})-(\d{4})$/.exec(text) ?? // years
    /^(\d{1,2}c)-(\d{1,2}c)$/i.exec(text); // centuries
  if (hyphenated) return { start: hyphenated[1], end: hyphenated[2] };

  let open = /^(?:to|pre|before\.?)\s*(.*)$/i.exec(text);
  if (open) return { start: null, end: open[1].trim() };
  open = /^(?:from|after)\s*(.*)$/i.exec(text) ?? /^(.*)-$/.exec(text);
  if (open) return { start: open[1].trim(), end: null };
  open = /^-(.*)$/.exec(text);
  if (open) return { start: null, end: open[1].trim() };
  return null;
}

// ---------------------------------------------------------------------------------------------
// Parsing one date (one side of a range).

function parseDatePart(text: string, today: Date): DatePart | null {
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (match) return dayPart(Number(match[1]), Number(match[2]), Number(match[3]));

  match = /^(\d{1,2})([/.])(\d{1,2})\2(\d{4}|\d{2})$/.exec(text);
  if (match) {
    const year = expandYear(match[4], today);
    const first = Number(match[1]);
    const second = Number(match[3]);
    // The warehouse falls back to the American m/d/yy only when d/m/yy cannot be read.
    if (second > 12 && match[2] === '/' && match[4].length === 2) return dayPart(year, first, second);
    return dayPart(year, second, first);
  }

  match = /^(?:([a-z]+) )?(\d{1,2}) ([a-z]+) (\d{4}|\d{2})$/i.exec(text);
  if (match) {
    const month = monthNumber(match[3]);
    if (month === null || (match[1] !== undefined && !isWeekdayName(match[1]))) return null;
    return dayPart(expandYear(match[4], today), month, Number(match[2]));
  }

  match = /^(\d{4})-(\d{1,2})$/.exec(text);
  if (match) return monthInYearPart(Number(match[1]), Number(match[2]));

  match = /^(\d{1,2})[/.](\d{4}|\d{2})$/.exec(text);
  if (match) return monthInYearPart(expandYear(match[2], today), Number(match[1]));

  match = /^([a-z]+) (\d{4}|\d{2})$/i.exec(text);
  if (match) {
    const year = expandYear(match[2], today);
    const month = monthNumber(match[1]);
    if (month !== null) return { kind: 'monthInYear', year, month };
    const season = seasonOf(match[1]);
    return season === null ? null : { kind: 'seasonInYear', season, year };
  }

  if (/^[a-z]+$/i.test(text)) {
    const month = monthNumber(text);
    if (month !== null) return { kind: 'month', month };
    const season = seasonOf(text);
    return season === null ? null : { kind: 'season', season };
  }

  match = /^(\d{1,2})c$/i.exec(text);
  if (match) {
    const century = Number(match[1]);
    return century >= 1 ? { kind: 'century', century } : null;
  }

  match = /^(\d{4}|\d{2})$/.exec(text);
  if (match) return { kind: 'year', year: expandYear(match[1], today) };
  return null;
}

function dayPart(year: number, month: number, day: number): DatePart | null {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { kind: 'day', year, month, day };
}

function monthInYearPart(year: number, month: number): DatePart | null {
  return month >= 1 && month <= 12 ? { kind: 'monthInYear', year, month } : null;
}

function expandYear(digits: string, today: Date): number {
  if (digits.length === 4) return Number(digits);
  const twoDigitYear = Number(digits);
  const currentYear = today.getFullYear();
  const currentCentury = Math.floor(currentYear / 100) * 100;
  return twoDigitYear <= currentYear % 100 ? currentCentury + twoDigitYear : currentCentury - 100 + twoDigitYear;
}

/** Full name or its first three letters, any case. */
function matchesName(word: string, name: string): boolean {
  const lower = word.toLowerCase();
  return lower === name.toLowerCase() || lower === name.slice(0, 3).toLowerCase();
}

function monthNumber(word: string): number | null {
  const index = MONTH_NAMES.findIndex((name) => matchesName(word, name));
  return index === -1 ? null : index + 1;
}

function isWeekdayName(word: string): boolean {
  return WEEKDAY_NAMES.some((name) => matchesName(word, name));
}

function seasonOf(word: string): Season | null {
  return SEASONS.find((season) => matchesName(word, season)) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Turning parsed parts into vague dates.

function singleVagueDate(part: DatePart, today: Date): VagueDate {
  const bounds = boundsOf(part, today);
  switch (part.kind) {
    case 'day': return { ...bounds, type: 'D' };
    case 'monthInYear': return { ...bounds, type: 'O' };
    case 'month': return { ...bounds, type: 'M' };
    case 'seasonInYear': return { ...bounds, type: 'P' };
    case 'season': return { ...bounds, type: 'S' };
    case 'year': return { ...bounds, type: 'Y' };
    case 'century': return { ...bounds, type: 'C' };
  }
}

const CLOSED_RANGE_TYPES: Partial<Record<DatePart['kind'], string>> = {
  day: 'DD', monthInYear: 'OO', year: 'YY', century: 'CC',
};

function rangeVagueDate(start: DatePart | null, end: DatePart | null, today: Date): VagueDate | null {
  let result: VagueDate | null = null;
  if (start !== null && end !== null) {
    const type = CLOSED_RANGE_TYPES[start.kind];
    if (type === undefined || start.kind !== end.kind) return null;
    result = { start: boundsOf(start, today).start, end: boundsOf(end, today).end, type };
  } else if (start !== null || end !== null) {
    const part = (start ?? end) as DatePart;
    const bounds = boundsOf(part, today);
    if (part.kind === 'day' || part.kind === 'monthInYear') {
      result = { ...bounds, type: CLOSED_RANGE_TYPES[part.kind] as string };
    } else if (part.kind === 'year' || part.kind === 'century') {
      const letter = part.kind === 'year' ? 'Y' : 'C';
      result = start !== null
        ? { start: bounds.start, end: null, type: `${letter}-` }
        : { start: null, end: bounds.end, type: `-${letter}` };
    }
  }
  if (result !== null && result.start !== null && result.end !== null && result.end < result.start) return null;
  return result;
}

/** First and last day covered by a part; parts without a year take today's year. */
function boundsOf(part: DatePart, today: Date): DateBounds {
  switch (part.kind) {
    case 'day': {
      const day = isoDate(part.year, part.month, part.day);
      return { start: day, end: day };
    }
    case 'monthInYear':
      return monthBounds(part.year, part.month);
    case 'month':
      return monthBounds(today.getFullYear(), part.month);
    case 'seasonInYear':
      return seasonBounds(part.season, part.year);
    case 'season':
      return seasonBounds(part.season, today.getFullYear());
    case 'year':
      return { start: isoDate(part.year, 1, 1), end: isoDate(part.year, 12, 31) };
    case 'century':
      return { start: isoDate((part.century - 1) * 100 + 1, 1, 1), end: isoDate(part.century * 100, 12, 31) };
  }
}

function monthBounds(year: number, month: number): DateBounds {
  return { start: isoDate(year, month, 1), end: isoDate(year, month, daysInMonth(year, month)) };
}

function seasonBounds(season: Season, year: number): DateBounds {
  if (season === 'winter') {
    return { start: isoDate(year - 1, 12, 1), end: isoDate(year, 2, daysInMonth(year, 2)) };
  }
  const firstMonth = SEASON_FIRST_MONTH[season];
  return { start: isoDate(year, firstMonth, 1), end: monthBounds(year, firstMonth + 2).end };
}

// ---------------------------------------------------------------------------------------------
// Calendar helpers.

type CalendarDate = { year: number; month: number; day: number };

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isoDate(year: number, month: number, day: number): string {
  return `${formatYear(year)}-${twoDigits(month)}-${twoDigits(day)}`;
}

function parseIsoDate(value: string | null): CalendarDate | null {
  const match = value === null ? null : /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return null;
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

function formatYear(year: number): string {
  return String(year).padStart(4, '0');
}

function formatDay(date: CalendarDate): string {
  return `${twoDigits(date.day)}/${twoDigits(date.month)}/${formatYear(date.year)}`;
}

function formatMonthInYear(date: CalendarDate): string {
  return `${twoDigits(date.month)}/${formatYear(date.year)}`;
}

function seasonNameStartingIn(month: number): string {
  const season = SEASONS.find((candidate) => SEASON_FIRST_MONTH[candidate] === month);
  return season === undefined ? '' : season[0].toUpperCase() + season.slice(1);
}

// Both accept the warehouse's 1901–2000 and the calendar-style 1900–1999 reading of 20C.
function centuryOfStart(year: number): number {
  return Math.floor(year / 100) + 1;
}

function centuryOfEnd(year: number): number {
  return Math.floor((year + 1) / 100);
}
