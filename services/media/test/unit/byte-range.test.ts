import { describe, expect, it } from 'vitest';
import { etagOf, resolveRange } from '../../src/domain/byte-range.ts';

describe('byte ranges', () => {
  it('when a range is asked of a file, then it stands for the bytes inside the file, or is unsatisfiable beyond it', () => {
    expect(resolveRange({ first: 0, last: 99, suffix: 0 }, 1000)).toEqual({ start: 0, end: 99 });
    expect(resolveRange({ first: 900, last: -1, suffix: 0 }, 1000)).toEqual({ start: 900, end: 999 });
    expect(resolveRange({ first: 900, last: 5000, suffix: 0 }, 1000)).toEqual({ start: 900, end: 999 });
    expect(resolveRange({ first: 0, last: -1, suffix: 10 }, 1000)).toEqual({ start: 990, end: 999 });
    expect(resolveRange({ first: 0, last: -1, suffix: 5000 }, 1000)).toEqual({ start: 0, end: 999 });
    expect(resolveRange({ first: 1000, last: -1, suffix: 0 }, 1000)).toBe('unsatisfiable');
    expect(resolveRange({ first: 0, last: -1, suffix: 1 }, 0)).toBe('unsatisfiable');
    // The last byte before the first makes no range: the whole file.
    expect(resolveRange({ first: 10, last: 5, suffix: 0 }, 1000)).toBeUndefined();
  });

  it('when a file is written again, then its ETag changes', () => {
    const written = new Date('2026-11-22T10:00:00Z');
    expect(etagOf('files/26/11/22/a.jpg', 10, written)).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(etagOf('files/26/11/22/a.jpg', 10, written)).toBe(etagOf('files/26/11/22/a.jpg', 10, new Date(written)));
    expect(etagOf('files/26/11/22/a.jpg', 10, new Date('2026-11-22T10:00:01Z'))).not.toBe(etagOf('files/26/11/22/a.jpg', 10, written));
    expect(etagOf('files/26/11/22/a.jpg', 11, written)).not.toBe(etagOf('files/26/11/22/a.jpg', 10, written));
    expect(etagOf('files/thumb-26/11/22/a.jpg', 10, written)).not.toBe(etagOf('files/26/11/22/a.jpg', 10, written));
  });
});
