import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRealDate } from '@rex/dates';
import { planNewSample } from '../../src/domain/samples.ts';
import { MAX_VAGUE_DATE_LENGTH, formatVagueDate, parseVagueDate, type VagueDate } from '../../src/domain/vague-date.ts';

// A fixed seed so CI runs the same cases; FUZZ_RUNS raises the runs and FUZZ_SEED picks other cases.
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const runs = (ci: number) => ({ seed: SEED, numRuns: Number(process.env.FUZZ_RUNS ?? ci) });

const TYPES = ['D', 'DD', 'O', 'OO', 'M', 'S', 'P', 'Y', 'YY', 'Y-', '-Y', 'C', 'CC', 'C-', '-C', 'U'];

// Dates as recorders type them: the parser's own grammar, with out-of-range numbers, unknown
// words, odd case and spacing mixed in.
const pad = (width: number) => (n: number) => String(n).padStart(width, '0');
const year4 = fc.integer({ min: 0, max: 9999 }).map(pad(4));
const year = fc.oneof(year4, fc.integer({ min: 0, max: 99 }).map(pad(2)));
const month = fc.oneof(fc.integer({ min: 0, max: 13 }).map(String), fc.integer({ min: 0, max: 13 }).map(pad(2)));
const day = fc.oneof(fc.integer({ min: 0, max: 32 }).map(String), fc.integer({ min: 0, max: 32 }).map(pad(2)));
const monthName = fc.constantFrom('January', 'Feb', 'march', 'APR', 'May', 'June', 'Jul', 'august', 'Sep', 'Sept', 'Oct', 'November', 'dec', 'Jnu');
const season = fc.constantFrom('spring', 'Summer', 'AUTUMN', 'winter', 'Spr', 'sum', 'Aut', 'Win', 'fall');
const weekday = fc.constantFrom('Monday', 'tue', 'Wednesday', 'Thu', 'friday', 'Sat', 'Sunday', 'Someday');
const separator = fc.constantFrom('/', '.', '-');
const single = fc.oneof(
  fc.tuple(year4, month, day).map(([y, m, d]) => `${y}-${m}-${d}`),
  fc.tuple(day, separator, month, year).map(([d, s, m, y]) => `${d}${s}${m}${s}${y}`),
  fc.tuple(fc.option(weekday), day, monthName, year).map(([w, d, m, y]) => `${w ? `${w} ` : ''}${d} ${m} ${y}`),
  fc.tuple(year4, month).map(([y, m]) => `${y}-${m}`),
  fc.tuple(month, separator, year).map(([m, s, y]) => `${m}${s}${y}`),
  fc.tuple(fc.oneof(monthName, season), year).map(([word, y]) => `${word} ${y}`),
  monthName,
  season,
  fc.integer({ min: 0, max: 100 }).map((c) => `${c}${c % 2 ? 'c' : 'C'}`),
  year,
);
const grammatical = fc.oneof(
  single,
  fc.tuple(single, fc.constantFrom(' to ', ' - ', '-', ' TO '), single).map(([a, s, b]) => a + s + b),
  fc.tuple(fc.constantFrom('from ', 'after ', 'to ', 'pre ', 'before ', 'Before. ', 'from', '-'), single).map(([p, s]) => p + s),
  single.map((s) => `${s}-`),
  fc.constantFrom('u', 'U', 'unknown', 'Unknown', '', ' ', 'to', 'from', '-', ' to '),
);
const spaced = fc.tuple(grammatical, fc.constantFrom('', ' ', '  ', '\t')).map(([text, space]) => text.replace(/ /g, ` ${space}`));
const anyText = fc.oneof(spaced, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 120 }));
const today = fc.date({ min: new Date(1900, 0, 1), max: new Date(2199, 11, 31), noInvalidDate: true });

const lastDayOfMonth = (iso: string) => new Date(Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), 0)).getUTCDate();

/** What every parsed vague date promises the code that stores it. */
function checkShape(date: VagueDate): void {
  expect(TYPES).toContain(date.type);
  for (const bound of [date.start, date.end]) if (bound !== null) expect(isRealDate(bound), bound).toBe(true);
  if (date.start !== null && date.end !== null) expect(date.start <= date.end).toBe(true);
  const open = { U: [true, true], 'Y-': [false, true], 'C-': [false, true], '-Y': [true, false], '-C': [true, false] }[date.type] ?? [false, false];
  expect([date.start === null, date.end === null]).toEqual(open);
  if (date.type === 'D') expect(date.end).toBe(date.start);
  if (date.type === 'O') {
    expect(date.start!.slice(0, 7)).toBe(date.end!.slice(0, 7));
    expect([date.start!.slice(8), Number(date.end!.slice(8))]).toEqual(['01', lastDayOfMonth(date.end!)]);
  }
  if (date.type === 'Y') expect([date.start!.slice(4), date.end!.slice(4), date.start!.slice(0, 4)]).toEqual(['-01-01', '-12-31', date.end!.slice(0, 4)]);
}

describe('vague dates, property-based', () => {
  it('when any text is parsed, then the answer is null or a vague date of a known type with real dates in order', () => {
    fc.assert(
      fc.property(anyText, today, (text, now) => {
        const date = parseVagueDate(text, now);
        if (date !== null) checkShape(date);
      }),
      runs(3_000),
    );
  });

  it('when a parsed vague date is formatted, then the text parses back to the same vague date', () => {
    fc.assert(
      fc.property(spaced, today, (text, now) => {
        const date = parseVagueDate(text, now);
        if (date === null) return;
        const formatted = formatVagueDate(date);
        expect(parseVagueDate(formatted, now), `${JSON.stringify(text)} → ${JSON.stringify(formatted)}`).toEqual(date);
      }),
      runs(3_000),
    );
  });

  it('when a text is longer than the longest vague date, then it is refused whatever it holds', () => {
    fc.assert(
      fc.property(spaced, fc.integer({ min: MAX_VAGUE_DATE_LENGTH + 1, max: 100_000 }), (text, length) => {
        expect(parseVagueDate(text.padStart(length, ' '))).toBeNull();
      }),
      runs(200),
    );
  });

  it.each([
    // Found by the properties above: year 0 (and the winter of year 1, which starts in year 0) named no
    // real day, and the winter of year 0 gave the start "00-1-12-01".
    ['0000'],
    ['01/01/0000'],
    ['0000-06'],
    ['Winter 0000'],
    ['Winter 0001'],
    ['0000 to 2000'],
    ['from 0000'],
  ])('when the date %j lies before year 1, then it is refused', (text) => {
    expect(parseVagueDate(text, new Date(2026, 0, 15))).toBeNull();
  });

  it('when the date is in year 1, then it is still read', () => {
    expect(parseVagueDate('0001', new Date(2026, 0, 15))).toEqual({ start: '0001-01-01', end: '0001-12-31', type: 'Y' });
    expect(parseVagueDate('Winter 0002', new Date(2026, 0, 15))).toEqual({ start: '0001-12-01', end: '0002-02-28', type: 'P' });
  });
});

describe('sample dates given as date_start, date_end and date_type, property-based', () => {
  const surveys = new Map([['3', { id: '3', websiteId: '1', attributes: { sample: new Map(), occurrence: new Map() } }]]);
  const dayText = fc.oneof(
    fc.tuple(year4, month, day).map(([y, m, d]) => `${y}-${m}-${d}`),
    fc.tuple(day, separator, month, year).map(([d, s, m, y]) => `${d}${s}${m}${s}${y}`),
    single,
    fc.string({ maxLength: 12 }),
  );
  const type = fc.oneof(fc.constantFrom(...TYPES), fc.string({ maxLength: 3 }));

  it('when a sample gives its date as three fields, then it is refused or stored as real ISO days in order', () => {
    fc.assert(
      fc.property(fc.option(dayText), fc.option(dayText), type, (start, end, dateType) => {
        const values = { survey_id: '3', date_type: dateType, entered_sref: 'SU1234', entered_sref_system: 'OSGB', ...(start === null ? {} : { date_start: start }), ...(end === null ? {} : { date_end: end }) };
        const errors: Record<string, string> = {};
        const { columns } = planNewSample(values, surveys, errors);
        if (Object.keys(errors).some((key) => key.startsWith('sample:date'))) return;
        const bounds = [columns.date_start, columns.date_end] as (string | null)[];
        for (const bound of bounds) if (bound !== null) expect(isRealDate(bound), bound).toBe(true);
        if (bounds[0] !== null && bounds[1] !== null) expect(bounds[0] <= bounds[1]).toBe(true);
      }),
      runs(3_000),
    );
  });
});

describe('sample dates given as date_start, date_end and date_type, regressions', () => {
  const surveys = new Map([['3', { id: '3', websiteId: '1', attributes: { sample: new Map(), occurrence: new Map() } }]]);
  const columnsOf = (fields: Record<string, string>) => {
    const errors: Record<string, string> = {};
    const { columns } = planNewSample({ survey_id: '3', entered_sref: 'SU1234', entered_sref_system: 'OSGB', ...fields }, surveys, errors);
    return { dates: [columns.date_start, columns.date_end, columns.date_type], errors: Object.keys(errors) };
  };

  // Found by the property above: days written as d/m/y were stored as given, for the database to read in its own order.
  it('when a day is written d/m/y, then it is stored as its ISO date', () => {
    expect(columnsOf({ date_type: 'D', date_end: '01/1/0001' }).dates).toEqual([null, '0001-01-01', 'D']);
    expect(columnsOf({ date_type: 'DD', date_start: '1/2/2020', date_end: '03.02.2020' }).dates).toEqual(['2020-02-01', '2020-02-03', 'DD']);
    expect(columnsOf({ date_type: 'D', date_start: '1/2/2020' }).dates).toEqual(['2020-02-01', '2020-02-01', 'D']);
  });

  it('when the end is before the start, then the date is refused', () => {
    expect(columnsOf({ date_type: 'DD', date_start: '2020-02-03', date_end: '2020-02-01' }).errors).toEqual(['sample:date_type']);
  });
});
