import { describe, expect, it } from 'vitest';
import { parseVagueDate } from '../../src/domain/vague-date.ts';

const K = 100_000;

describe('vague dates under adversarial input', () => {
  it('when a date is huge (repeated separators, ranges, digits, words), then it is refused', () => {
    for (const input of ['1/'.repeat(K / 2), ' to '.repeat(K / 4), '-'.repeat(K), '1'.repeat(K), `from ${'a'.repeat(K)}`, `${'12 '.repeat(K / 3)}2020`, `${'1'.repeat(K)}-`]) {
      expect(parseVagueDate(input), input.slice(0, 10)).toBeNull();
    }
  });

  it('when a date is within the length limit, then it is still parsed', () => {
    expect(parseVagueDate(`${' '.repeat(90)}2020`)).toMatchObject({ type: 'Y' });
  });
});
