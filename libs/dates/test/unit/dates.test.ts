import { describe, expect, it } from 'vitest';
import { canonicalMoment, isRealDate, isRealDateOrDateTime } from '../../src/index.ts';

describe('real dates', () => {
  it('when a date names a day that exists, then it is real; impossible days, months and shapes are not', () => {
    for (const value of ['2024-02-29', '2023-12-31', '0001-01-01', '0099-06-15']) expect(isRealDate(value), value).toBe(true);
    for (const value of ['2023-02-29', '2024-99-99', '2024-02-30', '2024-00-10', '2024-01-00', '0000-01-01', '2024-1-1', '20240101', '', 'constructor', `${'1'.repeat(100_000)}-01-01`]) {
      expect(isRealDate(value), value).toBe(false);
    }
  });

  it('when a date-time is given, then its time must exist too', () => {
    expect(isRealDateOrDateTime('2024-02-29T23:59:59')).toBe(true);
    expect(isRealDateOrDateTime('2024-02-29')).toBe(true);
    for (const value of ['2024-02-30T00:00:00', '2024-02-28T24:00:00', '2024-02-28T12:60:00', '2024-02-28 12:00:00']) expect(isRealDateOrDateTime(value), value).toBe(false);
  });

  it('when a date-time carries a UTC offset or fractions of a second, as ISO 8601 allows, then it is read; an impossible offset is not', () => {
    for (const value of ['2026-11-22T06:10:58+00:00', '2026-11-22T06:10:58Z', '2026-11-22T06:10:58.123Z', '2026-11-22T06:10:58-05:30', '2026-11-22T06:10:58+0100']) {
      expect(canonicalMoment(value), value).toBe(value);
    }
    // An unencoded + in a query string arrives as a space.
    expect(canonicalMoment('2026-11-22T06:10:58 00:00')).toBe('2026-11-22T06:10:58+00:00');
    expect(canonicalMoment('2026-11-22T06:10:58 0100')).toBe('2026-11-22T06:10:58+0100');
    for (const value of ['2026-11-22T06:10:58+15:00', '2026-11-22T06:10:58+01:60', '2026-11-22T06:10:58+1', '2026-11-22T06:10:58 ', '2026-11-22T06:10:58Z+01:00', '2026-11-22T06:10:58.1234567Z', '2026-11-22 06:10:58+00:00']) {
      expect(canonicalMoment(value), value).toBeUndefined();
    }
  });
});
