import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RowTextWriter, RowWriter, csvCell, csvLine } from '../../src/row-forms.ts';

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

/** A CSV cell as defined: a formula's start (= + - @, tab, CR) gets an apostrophe unless the value is a plain number; then quoted if needed. */
function cellAsDefined(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) && !/^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const cellValue = fc.oneof(
  value,
  fc.tuple(fc.constantFrom('=', '+', '-', '@', '\t', '\r', ''), fc.oneof(fc.string(), fc.double({ noNaN: true }).map(String), fc.integer().map(String))).map(([start, rest]) => `${start}${rest}`),
);

describe('report rows as CSV', () => {
  it('when a cell holds any text, then it is written as defined: formulas neutralised, plain numbers kept, quoted where needed', () => {
    fc.assert(
      fc.property(cellValue, (text) => {
        expect(csvCell(text)).toBe(cellAsDefined(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it('when a line is written, then it is its cells joined by commas and ended CRLF', () => {
    expect(csvLine(['1', null, 'a,b', '=1+1', '-3'])).toBe(`1,,"a,b",'=1+1,-3\r\n`);
    expect(csvLine([])).toBe('\r\n');
  });
});

describe('report rows written as the text of an answer', () => {
  const rows = fc.array(fc.array(value, { minLength: 3, maxLength: 3 }), { maxLength: 12 });
  const names = ['occurrence_id', 'taxon', 'date'];
  const batches = (all: (string | null)[][], cuts: number[]) => {
    const points = [...new Set(cuts.map((cut) => cut % (all.length + 1)))].sort((a, b) => a - b);
    return [0, ...points, all.length].slice(1).map((end, i, ends) => all.slice(i === 0 ? 0 : ends[i - 1], end));
  };

  it('when rows come in batches cut anywhere, then the text is the same as in one batch, and reads as each form defines', () => {
    fc.assert(
      fc.property(rows, fc.array(fc.nat(), { maxLength: 4 }), (all, cuts) => {
        const written = (form: 'ROW_FORM_CSV' | 'ROW_FORM_NDJSON' | 'ROW_FORM_JSON_OBJECTS') => {
          const writer = new RowTextWriter(form, names);
          return batches(all, cuts).map((batch) => writer.write(batch)).join('');
        };
        expect(written('ROW_FORM_CSV')).toBe(all.map(csvLine).join(''));
        expect(written('ROW_FORM_NDJSON')).toBe(all.map((row) => `${viaObject(names, row, false)}\n`).join(''));
        // The items of a page's data array: separated by commas across batches, empty values left out.
        expect(JSON.parse(`[${written('ROW_FORM_JSON_OBJECTS')}]`)).toEqual(all.map((row) => JSON.parse(viaObject(names, row, true))));
      }),
      { numRuns: 1_000 },
    );
  });
});
