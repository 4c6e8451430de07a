import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { REPORT_TYPES, reportTimestamp } from '../../src/db/report-types.ts';
import { cellText } from '../../src/domain/report-values.ts';

const usual = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);

/** A UTC instant written as PostgreSQL writes a timestamptz: trailing zeros of the fraction dropped, none when whole. */
function postgresText(microseconds: bigint): string {
  const remainder = ((microseconds % 1_000_000n) + 1_000_000n) % 1_000_000n;
  const date = new Date(Number((microseconds - remainder) / 1000n));
  const [day, time] = date.toISOString().slice(0, 19).split('T');
  const fraction = String(remainder).padStart(6, '0').replace(/0+$/, '');
  return `${day} ${time}${fraction ? `.${fraction}` : ''}+00`;
}

describe('report timestamps', () => {
  it('show every UTC timestamp as the usual parse and toISOString do, to the millisecond', () => {
    // Years 1000 to 9999, to the microsecond.
    const instants = fc.bigInt({ min: -30_610_224_000_000_000n, max: 253_402_300_799_999_999n });
    fc.assert(
      fc.property(instants, (microseconds) => {
        const text = postgresText(microseconds);
        expect(reportTimestamp(text)).toBe(cellText(usual(text)));
      }),
      { seed: 20261127, numRuns: 2000 },
    );
  });

  it('parse other forms as usual: another zone, a year beyond four digits, BC, infinity', () => {
    for (const text of ['2026-11-27 02:31:06.928256+01', '2026-11-27 02:31:06+05:30', '12026-01-01 00:00:00+00', '0044-03-15 12:00:00+00 BC', 'infinity', '-infinity']) {
      expect(cellText(reportTimestamp(text))).toBe(cellText(usual(text)));
    }
  });

  it('leave every other type to the usual parsers', () => {
    expect(REPORT_TYPES.getTypeParser(pg.types.builtins.TIMESTAMPTZ)).toBe(reportTimestamp);
    for (const oid of [pg.types.builtins.DATE, pg.types.builtins.INT8, pg.types.builtins.TIMESTAMP, pg.types.builtins.JSONB]) {
      expect(REPORT_TYPES.getTypeParser(oid)).toBe(pg.types.getTypeParser(oid));
    }
  });
});
