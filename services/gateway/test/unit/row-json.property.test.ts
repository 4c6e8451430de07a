import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RowWriter } from '../../src/routes/row-json.ts';

/** A row as an object assigned in column order, then stringified: what the rows must read as. */
function viaObject(columns: string[], values: (string | null)[], dropEmpty: boolean): string {
  const row: Record<string, string | null> = {};
  columns.forEach((column, i) => {
    const value = values[i] ?? null;
    if (!dropEmpty || (value !== null && value !== '')) row[column] = value;
  });
  return JSON.stringify(row);
}

// Names an object would treat apart are left out: integer-like keys (an object lists them first)
// and __proto__ (assigning a text to it is ignored).
const columnName = fc.oneof(fc.constantFrom('taxon', 'date', 'a', 'b', 'occurrence_id'), fc.string({ unit: 'binary' })).filter((name) => !/^(0|[1-9]\d*)$/.test(name) && name !== '__proto__');
const columns = fc.uniqueArray(columnName, { maxLength: 8 });
const value = fc.oneof(fc.constant(null), fc.constant(''), fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0000', '\u2028', '\ud800', 'x', 'é') }));

describe('report rows as JSON objects', () => {
  it('when rows of any texts (quotes, control characters, lone surrogates) are written, then each reads as the row assigned to an object and stringified', () => {
    fc.assert(
      fc.property(columns, fc.array(value, { maxLength: 10 }), fc.boolean(), (names, values, dropEmpty) => {
        const written = new RowWriter(names).row(values, dropEmpty);
        expect(written).toBe(viaObject(names, values, dropEmpty));
        expect(() => JSON.parse(written)).not.toThrow();
      }),
      { numRuns: 2_000 },
    );
  });

  it('when a name comes twice (which reports does not send), then the row has it once, where it first comes, with the value of its last column', () => {
    const writer = new RowWriter(['taxon', 'date', 'taxon']);
    expect(writer.row(['Parus major', '2021-03-01', 'Turdus merula'], true)).toBe('{"taxon":"Turdus merula","date":"2021-03-01"}');
    expect(writer.row(['Parus major', '2021-03-01', null], true)).toBe('{"date":"2021-03-01"}');
  });

  it('when a column is named __proto__, then its value is written like any other', () => {
    const writer = new RowWriter(['__proto__', 'taxon']);
    expect(writer.row(['x', 'Parus major'], true)).toBe(JSON.stringify(JSON.parse('{"__proto__":"x","taxon":"Parus major"}')));
  });
});
