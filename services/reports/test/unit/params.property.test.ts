import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRealDate } from '@rex/dates';
import { loadCatalogue } from '../../src/library/catalogue.ts';
import { ParamError, compileReport, type RunOptions } from '../../src/library/compile.ts';
import type { ParamType, ReportDefinition, ReportParam } from '../../src/library/types.ts';
import { PARAM_CASTS, toBindValue } from '../../src/library/param-values.ts';
import { decodeCursor, encodeCursor } from '../../src/domain/change-cursor.ts';

// A fixed seed so CI runs the same cases; FUZZ_RUNS raises the runs and FUZZ_SEED picks other cases.
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const runs = (ci: number) => ({ seed: SEED, numRuns: Number(process.env.FUZZ_RUNS ?? ci) });

const shipped = [...loadCatalogue([join(dirname(fileURLToPath(import.meta.url)), '../../definitions')]).reports.values()];
const TYPES = Object.keys(PARAM_CASTS) as ParamType[];
const param = (datatype: ParamType, lookupValues?: Record<string, string>): ReportParam => ({ name: 'p', display: 'p', description: '', datatype, lookupValues });

// Values as clients write them: each type's grammar, with signs, exponents, spaces, odd case and list separators.
const digitString = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 25 });
const rawValue = fc.oneof(
  fc.tuple(fc.constantFrom('', '-', '+', ' '), digitString, fc.constantFrom('', '.', '.5', 'e-400', 'E+400', 'e5', 'e-5', ' ')).map((parts) => parts.join('')),
  fc.double({ noNaN: false }).map(String),
  fc.date({ min: new Date(-62_200_000_000_000), max: new Date(253_402_300_799_000) }).map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toISOString())),
  fc.tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 })).map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
  fc.constantFrom('true', 'FALSE', 't', 'F', '1', '0', 'yes', '', ' ', ',', '1,,2', ' 1 , 2 ', 'V,C', 'V,X', '\u0000', 'NaN', 'Infinity', '-0', '0e0', '1e-400'),
  fc.array(fc.oneof(digitString, fc.constantFrom('C', 'V', 'x', '')), { maxLength: 4 }).map((items) => items.join(',')),
  fc.string({ maxLength: 20 }),
);

/** What PostgreSQL would make of a bound scalar, in JavaScript: the check each type's value must pass there. */
function databaseReads(datatype: ParamType, value: string): boolean {
  switch (datatype) {
    case 'integer':
      return BigInt(value) >= -(2n ** 63n) && BigInt(value) < 2n ** 63n;
    case 'float': {
      // PostgreSQL refuses a number that overflows or underflows to zero ("1e-400" is out of range).
      const number = Number(value);
      return Number.isFinite(number) && (number !== 0 || !/[1-9]/.test(value.split(/e/i)[0]));
    }
    case 'date':
      return isRealDate(value);
    case 'boolean':
      return value === 'true' || value === 'false';
    default:
      return !value.includes('\0');
  }
}

describe('report parameter values, property-based', () => {
  it('when any text is given for a parameter of any type, then it is refused or bound as a value the database reads as that type', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TYPES), rawValue, (datatype, raw) => {
        const bound = toBindValue(param(datatype), raw);
        if (bound === undefined) return;
        const scalar = datatype === 'integer[]' ? 'integer' : datatype === 'text[]' ? 'text' : datatype;
        for (const value of [bound].flat()) expect(databaseReads(scalar, value), `${datatype} ${JSON.stringify(raw)} → ${JSON.stringify(value)}`).toBe(true);
      }),
      runs(5_000),
    );
  });

  it('when a number, day, moment or list is written as clients write it, then it is bound as that same value', () => {
    const day = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.double({ noNaN: true, noDefaultInfinity: true }), day, fc.array(fc.bigInt({ min: 0n, max: 10n ** 12n }), { minLength: 1, maxLength: 5 }), (integer, float, moment, list) => {
        expect(toBindValue(param('integer'), ` ${integer} `)).toBe(String(integer));
        expect(Number(toBindValue(param('float'), String(float))) === float, String(float)).toBe(true);
        expect(toBindValue(param('date'), moment.toISOString().slice(0, 10))).toBe(moment.toISOString().slice(0, 10));
        expect(toBindValue(param('moment'), moment.toISOString())).toBe(moment.toISOString());
        expect(toBindValue(param('integer[]'), list.join(' , '))).toEqual(list.map(String));
      }),
      runs(1_000),
    );
  });

  it('when a boolean is written in any case, then true or false is bound', () => {
    fc.assert(
      fc.property(fc.constantFrom('true', 't', '1', 'false', 'f', '0'), fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }), (word, upper) => {
        const written = [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
        expect(toBindValue(param('boolean'), ` ${written} `)).toBe(String(['true', 't', '1'].includes(word)));
      }),
      runs(200),
    );
  });

  it('when a float underflows to zero, then it is refused as PostgreSQL would refuse it, and zero itself is still taken', () => {
    // Found by the property above: "1e-400" was bound, and the database answered "out of range".
    for (const raw of ['1e-400', '-1e-400', '0.1e-330', '1e-324']) expect(toBindValue(param('float'), raw), raw).toBeUndefined();
    for (const raw of ['0', '-0', '0.0e-400', '0e0', '5e-324', '2.2250738585072014e-308']) expect(toBindValue(param('float'), raw), raw).toBe(raw);
  });
});

describe('report runs with any parameters, property-based', () => {
  const MARK = '☃'; // in no report's SQL: a value carrying it must never reach the SQL text
  const report = fc.constantFrom(...shipped);
  const given = (definition: ReportDefinition) =>
    fc.dictionary(
      fc.oneof(fc.constantFrom(...definition.params.flatMap((p) => [p.name, ...(p.aliases ?? [])])), fc.constantFrom('limit', 'columns', 'x', '__proto__', 'constructor')),
      fc.oneof(rawValue, rawValue.map((value) => `${value}${MARK}'); --`)),
      { maxKeys: 6 },
    );
  const options = (definition: ReportDefinition): fc.Arbitrary<RunOptions> =>
    fc.record({
      limit: fc.oneof(fc.nat(1_000), fc.constantFrom(-1, 2 ** 53, 0.5)),
      offset: fc.oneof(fc.nat(1_000), fc.constantFrom(-1, Number.NaN)),
      orderBy: fc.option(fc.oneof(fc.constantFrom(...definition.columns.map((c) => c.name)), fc.constantFrom('attr_sample_1', 'x"; --')), { nil: undefined }),
      sortDir: fc.option(fc.constantFrom('ASC', 'DESC', 'asc', 'sideways') as fc.Arbitrary<'ASC'>, { nil: undefined }),
      columns: fc.option(fc.array(fc.oneof(fc.constantFrom(...definition.columns.map((c) => c.name)), fc.string({ maxLength: 5 })), { maxLength: 3 }), { nil: undefined }),
    });

  it('when any report is run with any parameters and paging, then it is refused with a ParamError or compiled with every value bound and none in the SQL', () => {
    fc.assert(
      fc.property(report.chain((definition) => fc.tuple(fc.constant(definition), given(definition), options(definition))), ([definition, values, run]) => {
        let compiled;
        try {
          compiled = compileReport(definition, values, { sql: 'o.website_id = $1', values: ['1'] }, run);
        } catch (error) {
          expect(error).toBeInstanceOf(ParamError);
          return;
        }
        for (const [sql, bound] of [[compiled.sql, compiled.values], [compiled.countSql, compiled.countValues]] as const) {
          expect(sql).not.toContain(MARK);
          expect(sql).not.toMatch(/#\w+#/);
          const numbers = new Set([...sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
          expect([...numbers].sort((a, b) => a - b)).toEqual(bound.map((_, index) => index + 1));
        }
        expect(compiled.values.slice(-2)).toEqual([run.limit, run.offset]);
        const names = compiled.columns.map((column) => column.name);
        expect(new Set(names).size).toBe(names.length);
      }),
      runs(2_000),
    );
  });

  it('when attribute columns are asked for that the report already has, or twice, then each column still comes once', () => {
    const definition = shipped.find((report) => report.params.some((p) => p.attributeColumns === 'sample'))!;
    const smpattrs = definition.params.find((p) => p.attributeColumns === 'sample')!.name;
    const own = { name: 'attr_sample_5', display: 'Its own', sql: "'own'", datatype: 'text', visible: true };
    const compiled = compileReport({ ...definition, columns: [...definition.columns, own] }, { [smpattrs]: '5,6,6' }, { sql: 'o.website_id = $1', values: ['1'] }, { limit: 10, offset: 0 });
    const names = compiled.columns.map((column) => column.name);
    expect(names.filter((name) => name.startsWith('attr_sample_'))).toEqual(['attr_sample_5', 'attr_sample_6']);
    expect(compiled.columns.find((column) => column.name === 'attr_sample_5')).toBe(own);
  });
});

describe('change feed cursors, property-based', () => {
  it('when a cursor the feed handed out comes back, then it names the same position; any other text names none or a position', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }), fc.oneof(fc.string({ maxLength: 70 }), fc.base64String({ maxLength: 40 })), (position, other) => {
        expect(decodeCursor(encodeCursor(String(position)))).toBe(String(position));
        const decoded = decodeCursor(other);
        if (decoded !== undefined) expect(decoded).toMatch(/^(0|[1-9]\d{0,17})$/);
      }),
      runs(1_000),
    );
  });
});
