import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalMoment, isRealDate } from '../../src/index.ts';

// A fixed seed so CI runs the same cases; FUZZ_RUNS raises the runs and FUZZ_SEED picks other cases.
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const runs = (ci: number) => ({ seed: SEED, numRuns: Number(process.env.FUZZ_RUNS ?? ci) });

const pad = (width: number) => (n: number) => String(n).padStart(width, '0');
const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// Dates and date-times as clients write them, with impossible fields, offsets, fractions and spaces.
const dateText = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
  .map(([y, m, d]) => `${pad(4)(y)}-${pad(2)(m)}-${pad(2)(d)}`);
const timeText = fc
  .tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 61 }), fc.constantFrom('', '.1', '.123456', '.1234567'))
  .map(([h, m, s, fraction]) => `${pad(2)(h)}:${pad(2)(m)}:${pad(2)(s)}${fraction}`);
const offset = fc.oneof(
  fc.constantFrom('', 'Z', 'z'),
  fc.tuple(fc.constantFrom('+', '-', ' '), fc.integer({ min: 0, max: 16 }), fc.constantFrom(':', ''), fc.integer({ min: 0, max: 61 })).map(([sign, h, colon, m]) => `${sign}${pad(2)(h)}${colon}${pad(2)(m)}`),
);
const moment = fc.oneof(
  dateText,
  fc.tuple(dateText, fc.constantFrom('T', ' ', 't'), timeText, offset).map((parts) => parts.join('')),
  fc.string({ maxLength: 40 }),
);

describe('dates and moments, property-based', () => {
  it('when any year, month and day are written as YYYY-MM-DD, then the date is real exactly when the calendar has that day (from year 1)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (year, month, day) => {
        const exists = year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeap(year) ? 29 : DAYS[month - 1]);
        expect(isRealDate(`${pad(4)(year)}-${pad(2)(month)}-${pad(2)(day)}`)).toBe(exists);
      }),
      runs(5_000),
    );
  });

  it('when any text is read as a moment, then it is refused or becomes a moment that reads back as itself, on a real day', () => {
    fc.assert(
      fc.property(moment, (text) => {
        const canonical = canonicalMoment(text);
        if (canonical === undefined) return;
        expect(canonicalMoment(canonical)).toBe(canonical);
        expect(isRealDate(canonical.slice(0, 10))).toBe(true);
        expect(canonical).not.toContain(' ');
      }),
      runs(5_000),
    );
  });

  it('when a moment is written as JavaScript writes it, or with its offset\'s + turned into a space by a query string, then it is read as that moment', () => {
    const instant = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });
    fc.assert(
      fc.property(instant, fc.integer({ min: 0, max: 14 }), fc.constantFrom(':', ''), (date, hours, colon) => {
        const iso = date.toISOString();
        expect(canonicalMoment(iso)).toBe(iso);
        const withOffset = `${iso.slice(0, 19)}+${pad(2)(hours)}${colon}00`;
        expect(canonicalMoment(withOffset)).toBe(withOffset);
        expect(canonicalMoment(withOffset.replace('+', ' '))).toBe(withOffset);
      }),
      runs(1_000),
    );
  });
});
