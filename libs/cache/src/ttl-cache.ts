/**
 * A small map whose entries expire and whose size is bounded (oldest entries go
 * first). Callers that miss the same key while it is being loaded share that
 * load, so a burst of misses asks the source once.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private readonly loading = new Map<string, Promise<V>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  // Bumped by clear(): a load that began before it must not store what it read.
  private generation = 0;

  constructor(ttlMs: number, maxEntries = 10_000, invalidation?: Invalidation) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    invalidation?.register(this);
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, ttlMs: number = this.ttlMs): void {
    if (ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expires: Date.now() + ttlMs });
  }

  /**
   * Cached value, or the loader's on a miss (cached too, unless `keep` says
   * otherwise). A miss while the key is already being loaded answers that load,
   * whatever it gives (kept or not, or its error), unless the cache was cleared
   * since it began: a caller that comes after a change never gets what was read
   * before it.
   */
  getOrLoad(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    const shared = this.loading.get(key);
    if (shared) return shared;
    const generation = this.generation;
    let started: Promise<V>;
    try {
      started = load();
    } catch (error) {
      return Promise.reject(error);
    }
    const loaded: Promise<V> = started
      .then((value) => {
        if (keep(value) && generation === this.generation) this.set(key, value);
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
      });
    this.loading.set(key, loaded);
    return loaded;
  }

  /** What is left of an entry's lifetime (0 when absent). */
  ttlOf(key: string): number {
    const entry = this.entries.get(key);
    return entry ? Math.max(0, entry.expires - Date.now()) : 0;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.loading.clear();
    this.generation += 1;
  }
}

/** Caches emptied together when what they hold changes elsewhere (another process, the database). */
export class Invalidation {
  private readonly caches = new Set<{ clear(): void }>();

  register(cache: { clear(): void }): void {
    this.caches.add(cache);
  }

  invalidate(): void {
    for (const cache of this.caches) cache.clear();
  }
}
