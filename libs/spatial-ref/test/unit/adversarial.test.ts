import { describe, expect, it } from 'vitest';
import { SrefError, boundaryFromWkt, srefToGeometry } from '../../src/index.ts';

// Each input is about 100 KB and built to make a backtracking parser take
// quadratic or exponential time; the answer must still come (a refusal).
const K = 100_000;

describe('spatial references under adversarial input', () => {
  it('when a reference is huge (spaces between numbers, long digit runs, repeated separators), then it is refused as an SrefError', () => {
    const inputs = ['1' + ' '.repeat(K) + 'x', '1'.repeat(K) + 'x', '1,'.repeat(K / 2) + 'x', 'SU' + '1'.repeat(K), `${'-'.repeat(K)}1 1`, `51.${'1'.repeat(K)}N 1W`];
    for (const system of ['27700', 'OSGB', '4326', '3857', 'utm30ed50']) {
      for (const input of inputs) expect(() => srefToGeometry(input, system), `${system} ${input.slice(0, 10)}`).toThrow(SrefError);
    }
    expect(() => srefToGeometry('1 1', '4'.repeat(K))).toThrow(SrefError);
  });

  it('when a reference is just within the length limit and adversarial, then it is refused too', () => {
    for (const input of ['1' + ' '.repeat(97) + 'x', '1'.repeat(99) + 'x', `${'1 '.repeat(49)}x`]) {
      expect(() => srefToGeometry(input, '27700')).toThrow(SrefError);
      expect(() => srefToGeometry(input, '4326')).toThrow(SrefError);
    }
  });

  it('when a boundary is huge or malformed, then it is parsed or refused, never overflowing the stack', () => {
    expect(() => boundaryFromWkt('POLYGON((' + '1 '.repeat(K / 2) + '))')).toThrow(SrefError);
    expect(() => boundaryFromWkt('POLYGON' + '('.repeat(K))).toThrow(SrefError);
    // About as many vertices as the largest JSON body the gateway accepts can hold.
    const ring = Array.from({ length: 40_000 }, (_, i) => `${Math.cos((i / 40_000) * 2 * Math.PI).toFixed(6)} ${Math.sin((i / 40_000) * 2 * Math.PI).toFixed(6)}`);
    ring.push(ring[0]);
    const boundary = boundaryFromWkt(`POLYGON((${ring.join(',')}))`);
    expect(boundary.bbox[2]).toBeCloseTo(1);
  });
});
