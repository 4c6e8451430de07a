import { describe, expect, it } from 'vitest';
import { recordsV1, reportsV1 } from '../../src/index.ts';
import { fromJsonRows, fromJsonValues, toJsonRows, toJsonValues } from '../../src/json-values.ts';

describe('JsonValues', () => {
  it('when values hold texts, nulls and lists, then they come back as they went, through the wire', () => {
    const values = { id: '7', comment: 'say "hi" \u00e9\u{1f426}', deleted: null, 'smpAttr:3': ['a', 'b'], empty: '' };
    const method = recordsV1.RecordsService.service.GetSample;
    const bytes = method.responseSerialize({ values: toJsonValues(values), version: '1', attributes: {} });
    expect(fromJsonValues((method.responseDeserialize(bytes) as { values: { json: string } }).values)).toEqual(values);
  });

  it('when a value is undefined, then it is left out', () => {
    expect(fromJsonValues(toJsonValues({ a: '1', b: undefined }))).toEqual({ a: '1' });
  });

  it('when the message is absent or empty, then there are no values', () => {
    expect(fromJsonValues(null)).toEqual({});
    expect(fromJsonValues({ json: '' })).toEqual({});
  });

  it('when a field is named __proto__, then it is an own value and no prototype changes', () => {
    const values = fromJsonValues({ json: '{"__proto__":"x","a":"1"}' });
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
    expect(Object.hasOwn(values, '__proto__')).toBe(true);
    expect(values.a).toBe('1');
  });

  it.each([
    ['an array', '["a"]'],
    ['a text', '"a"'],
    ['null', 'null'],
    ['a number value', '{"a":1}'],
    ['a boolean value', '{"a":true}'],
    ['an object value', '{"a":{}}'],
    ['a list holding a number', '{"a":["1",2]}'],
    ['a list holding null', '{"a":[null]}'],
  ])('when the JSON is %s, then it is refused', (_name, json) => {
    expect(() => fromJsonValues({ json })).toThrow(TypeError);
  });

  it('when the JSON is broken, then it is refused', () => {
    expect(() => fromJsonValues({ json: '{"a":' })).toThrow(SyntaxError);
  });
});

describe('report rows as JSON', () => {
  it('when rows hold texts and nulls, then they come back in order, through the wire', () => {
    const rows = [['1', null, ''], ['2', 'x,"y"', null]];
    const method = reportsV1.ReportsService.service.RunReport;
    const bytes = method.responseSerialize({ rows: { json: toJsonRows(rows) } });
    expect(fromJsonRows((method.responseDeserialize(bytes) as { rows: { json: string } }).rows.json)).toEqual(rows);
  });

  it('when the batch is empty, then there are no rows', () => {
    expect(fromJsonRows('')).toEqual([]);
  });

  it.each([
    ['an object', '{}'],
    ['rows that are not arrays', '["a"]'],
    ['a number cell', '[["1",2]]'],
    ['a list cell', '[[["a"]]]'],
  ])('when the JSON is %s, then it is refused', (_name, json) => {
    expect(() => fromJsonRows(json)).toThrow(TypeError);
  });
});
