import { describe, expect, it } from 'vitest';
import { readAttributes, type AttributeDefinition } from '../../src/domain/attributes.ts';

const definition = (id: string, overrides: Partial<AttributeDefinition> = {}): AttributeDefinition => ({
  id,
  entity: 'sample',
  caption: `Attribute ${id}`,
  dataType: 'T',
  multiValue: false,
  required: false,
  terms: new Map(),
  ...overrides,
});

const definitions = new Map([
  ['2', definition('2')],
  ['6', definition('6', { multiValue: true })],
  ['7', definition('7', { dataType: 'I', required: true })],
]);

describe('readAttributes with smpAttr:<id>:<valueId>', () => {
  it('when a stored value is given a new value, then it is an update of that value only, replacing nothing', () => {
    const read = readAttributes('sample', { 'smpAttr:6:41': ' Bea ' }, definitions, false);
    expect(read.errors).toEqual({});
    expect(read.replaces.size).toBe(0);
    expect(read.values).toEqual([]);
    expect(read.updates).toEqual([{ key: 'smpAttr:6:41', attributeId: '6', valueId: '41', value: expect.objectContaining({ attributeId: '6', textValue: 'Bea' }) }]);
  });

  it('when a stored value is sent empty, then it is removed, unless the attribute is required', () => {
    expect(readAttributes('sample', { 'smpAttr:6:41': '' }, definitions, false).updates).toEqual([
      { key: 'smpAttr:6:41', attributeId: '6', valueId: '41', value: null },
    ]);
    expect(readAttributes('sample', { 'smpAttr:7:42': null }, definitions, false).errors).toEqual({
      'sample:smpAttr:7:42': 'A value is required for this attribute.',
    });
  });

  it('when the new value is of the wrong type or a list, then the key is refused', () => {
    const read = readAttributes('sample', { 'smpAttr:7:42': 'many', 'smpAttr:6:41': ['a', 'b'] }, definitions, false);
    expect(read.errors).toEqual({
      'sample:smpAttr:7:42': 'Must be a whole number.',
      'sample:smpAttr:6:41': 'This key names one stored value; send a single value.',
    });
    expect(read.updates).toEqual([]);
  });

  it('when the same attribute is also sent whole, then the value key is refused', () => {
    const read = readAttributes('sample', { 'smpAttr:6': ['Ann'], 'smpAttr:6:41': 'Bea' }, definitions, false);
    expect(read.errors).toEqual({ 'sample:smpAttr:6:41': 'smpAttr:6 replaces all its values; send one key or the other.' });
  });

  it('when the record is new, then a value key is refused', () => {
    const read = readAttributes('sample', { 'smpAttr:2:5': 'Rain', 'smpAttr:7': '1' }, definitions, true);
    expect(read.errors).toEqual({ 'sample:smpAttr:2:5': 'A new sample has no stored values; send smpAttr:2 instead.' });
  });
});
