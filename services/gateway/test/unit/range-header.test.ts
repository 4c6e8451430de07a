import { describe, expect, it } from 'vitest';
import { noneMatch, parseRange } from '../../src/routes/range-header.ts';

describe('Range and If-None-Match headers', () => {
  it('when a Range header asks for one range of bytes, then it is read; anything else asks for the whole file', () => {
    expect(parseRange('bytes=0-99')).toEqual({ first: 0, last: 99, suffix: 0 });
    expect(parseRange('bytes=100-')).toEqual({ first: 100, last: -1, suffix: 0 });
    expect(parseRange('bytes=-500')).toEqual({ first: 0, last: -1, suffix: 500 });
    for (const header of [undefined, '', 'bytes=', 'bytes=-', 'bytes=-0', 'bytes=5-1', 'bytes=0-1,4-5', 'items=0-1', 'bytes=a-b', 'bytes= 0-1', `bytes=0-${'9'.repeat(20)}`]) {
      expect(parseRange(header), String(header)).toBeUndefined();
    }
  });

  it('when If-None-Match lists an entity tag, weak or strong, or is *, then it matches', () => {
    expect(noneMatch('"abc"', '"abc"')).toBe(true);
    expect(noneMatch('"x", W/"abc"', '"abc"')).toBe(true);
    expect(noneMatch('*', '"abc"')).toBe(true);
    expect(noneMatch('"abcd"', '"abc"')).toBe(false);
    expect(noneMatch('abc', '"abc"')).toBe(false);
  });
});
