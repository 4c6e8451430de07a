import { describe, expect, it } from 'vitest';
import { Invalidation, TtlCache } from '../../src/index.ts';

describe('invalidation', () => {
  it('when an invalidation runs, then every cache registered with it is emptied', async () => {
    const changes = new Invalidation();
    const [a, b] = [new TtlCache<string>(60_000, 10, changes), new TtlCache<string>(60_000, 10, changes)];
    a.set('k', 'old');
    b.set('k', 'old');
    changes.invalidate();
    expect(a.get('k')).toBeUndefined();
    expect(b.get('k')).toBeUndefined();
  });

  it('when the cache is cleared while a load is running, then what that load read is answered but not kept', async () => {
    const cache = new TtlCache<string>(60_000);
    let finish: (value: string) => void = () => undefined;
    const loading = cache.getOrLoad('k', () => new Promise<string>((resolve) => (finish = resolve)));
    cache.clear();
    finish('read before the change');
    expect(await loading).toBe('read before the change');
    expect(await cache.getOrLoad('k', async () => 'read after the change')).toBe('read after the change');
  });
});
