import { describe, expect, it } from 'vitest';
import { StatementNames } from '../../src/db/statement-names.ts';

describe('statement names', () => {
  it('when a text runs for the first time, then it runs unnamed; from its second run on, always by the same name', () => {
    const names = new StatementNames('tree', 10);
    expect(names.nameOf('SELECT 1')).toBeUndefined();
    const name = names.nameOf('SELECT 1');
    expect(name).toMatch(/^tree_[\w-]{27}$/);
    expect(names.nameOf('SELECT 1')).toBe(name);
    expect(names.nameOf('SELECT 2')).toBeUndefined();
    expect(names.nameOf('SELECT 2')).not.toBe(name);
  });

  it('when as many texts as the limit have names, then other texts run unnamed however often, and the named ones keep their names', () => {
    const names = new StatementNames('report', 2);
    for (const text of ['a', 'b', 'a', 'b']) names.nameOf(text);
    const kept = [names.nameOf('a'), names.nameOf('b')];
    expect(kept.every(Boolean)).toBe(true);
    for (let i = 0; i < 5; i += 1) expect(names.nameOf('c')).toBeUndefined();
    expect([names.nameOf('a'), names.nameOf('b')]).toEqual(kept);
  });

  it('when thousands of texts run once each, then a text run again soon after is still named', () => {
    const names = new StatementNames('tree', 10);
    for (let i = 0; i < 5_000; i += 1) expect(names.nameOf(`SELECT ${i}`)).toBeUndefined();
    expect(names.nameOf('SELECT 4999')).toMatch(/^tree_/);
  });
});
