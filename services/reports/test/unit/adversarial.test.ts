import { describe, expect, it } from 'vitest';
import type { ReportParam } from '../../src/library/types.ts';
import { toBindValue } from '../../src/library/param-values.ts';

const K = 100_000;
const param = (datatype: ReportParam['datatype']): ReportParam => ({ name: 'p', display: 'p', description: '', datatype });

describe('report parameters under adversarial input', () => {
  it('when a value is huge and almost valid, then it is refused (or taken whole) without stalling', () => {
    expect(toBindValue(param('integer'), '1'.repeat(K))).toBeUndefined();
    expect(toBindValue(param('float'), `${'1'.repeat(K)}.${'1'.repeat(K)}x`)).toBeUndefined();
    expect(toBindValue(param('date'), `2020-01-${'1'.repeat(K)}`)).toBeUndefined();
    expect(toBindValue(param('integer[]'), `${'1,'.repeat(K / 2)}x`)).toBeUndefined();
    expect(toBindValue(param('integer[]'), `${'1,'.repeat(K / 2)}1`)).toHaveLength(K / 2 + 1);
    expect(toBindValue(param('boolean'), 't'.repeat(K))).toBeUndefined();
    expect(toBindValue(param('text'), `${'a'.repeat(K)}\0`)).toBeUndefined();
  });
});
