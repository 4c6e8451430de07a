import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../src/index.ts';

/** A loader that counts its calls and answers when told. */
function slowSource<V>() {
  const pending: { resolve: (value: V) => void; reject: (error: Error) => void }[] = [];
  const load = () => new Promise<V>((resolve, reject) => pending.push({ resolve, reject }));
  return { load, pending };
}

describe('loads shared by callers who miss together', () => {
  it('when many callers miss one key at once, then the source is asked once and every caller gets its answer', async () => {
    const cache = new TtlCache<string>(60_000);
    const source = slowSource<string>();
    const answers = Promise.all(Array.from({ length: 32 }, () => cache.getOrLoad('k', source.load)));
    await Promise.resolve();
    expect(source.pending).toHaveLength(1);
    source.pending[0].resolve('v');
    expect(await answers).toEqual(Array(32).fill('v'));
    expect(cache.get('k')).toBe('v');
  });

  it('when a shared load fails, then every caller waiting on it gets the error and the next miss asks again', async () => {
    const cache = new TtlCache<string>(60_000);
    const source = slowSource<string>();
    const [first, second] = [cache.getOrLoad('k', source.load), cache.getOrLoad('k', source.load)];
    await Promise.resolve();
    source.pending[0].reject(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await expect(second).rejects.toThrow('connection lost');
    const third = cache.getOrLoad('k', source.load);
    await Promise.resolve();
    expect(source.pending).toHaveLength(2);
    source.pending[1].resolve('v');
    expect(await third).toBe('v');
  });

  it('when a loader throws before it returns a promise, then the caller gets the error and the key is not left loading', async () => {
    const cache = new TtlCache<string>(60_000);
    await expect(cache.getOrLoad('k', () => { throw new Error('bad key'); })).rejects.toThrow('bad key');
    expect(await cache.getOrLoad('k', async () => 'v')).toBe('v');
  });

  it('when what a load gives is not to be kept, then the callers waiting on it share it and the next miss asks again', async () => {
    const cache = new TtlCache<string>(60_000);
    const source = slowSource<string>();
    const keep = (value: string) => value !== 'timed out';
    const both = Promise.all([cache.getOrLoad('k', source.load, keep), cache.getOrLoad('k', source.load, keep)]);
    await Promise.resolve();
    source.pending[0].resolve('timed out');
    expect(await both).toEqual(['timed out', 'timed out']);
    expect(source.pending).toHaveLength(1);
    const again = cache.getOrLoad('k', source.load, keep);
    await Promise.resolve();
    expect(source.pending).toHaveLength(2);
    source.pending[1].resolve('v');
    expect(await again).toBe('v');
  });

  it('when the cache is cleared while a load runs, then a caller who comes after does not get what that load read', async () => {
    const cache = new TtlCache<string>(60_000);
    const source = slowSource<string>();
    const before = cache.getOrLoad('k', source.load);
    await Promise.resolve();
    cache.clear();
    const after = cache.getOrLoad('k', source.load);
    await Promise.resolve();
    expect(source.pending).toHaveLength(2);
    source.pending[1].resolve('read after the change');
    source.pending[0].resolve('read before the change');
    expect(await before).toBe('read before the change');
    expect(await after).toBe('read after the change');
    expect(cache.get('k')).toBe('read after the change');
  });

  it('when different keys miss at once, then each is loaded on its own', async () => {
    const cache = new TtlCache<string>(60_000);
    const source = slowSource<string>();
    const both = Promise.all([cache.getOrLoad('a', source.load), cache.getOrLoad('b', source.load)]);
    await Promise.resolve();
    expect(source.pending).toHaveLength(2);
    source.pending[0].resolve('A');
    source.pending[1].resolve('B');
    expect(await both).toEqual(['A', 'B']);
  });
});
