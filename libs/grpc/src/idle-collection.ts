import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { prom, use } from '@rex/telemetry';

/** A process whose event loop was busy for less than this share of a check is quiet. */
const QUIET_UTILISATION = 0.02;

/**
 * How much more resident memory than after the last idle collection makes another worth it. Below
 * it there is little to give back: the young generation alone is up to three times its semi-space.
 */
export const IDLE_COLLECTION_GROWTH_BYTES = 32 * 2 ** 20;

const idleCollections = new prom.Counter({
  name: 'rex_idle_collections_total',
  help: 'Full garbage collections run because the process was idle after holding more memory',
  registers: [],
});

const givenBack = new prom.Counter({
  name: 'rex_idle_collection_released_bytes_total',
  help: 'Resident memory the idle collections gave back',
  registers: [],
});

/** The process's resident memory. */
const residentBytes = (): number => process.memoryUsage.rss();

/**
 * A full collection that also shrinks the heap's spaces and returns their pages, as V8 does when
 * told memory is short (`--expose-gc`'s `gc()` does not shrink them; the inspector's does, in
 * process, without a port or a flag).
 */
export async function collectFully(): Promise<void> {
  // Loaded when first needed: a Node.js built without the inspector fails the collection, not the process.
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.collectGarbage');
  } finally {
    session.disconnect();
  }
}

export type IdleCollection = { stop: () => void };

/**
 * Gives memory back once a burst of work is over. Under load V8 lets the heap grow between
 * collections (decision 0032) and the young generation widen, and once the load stops nothing
 * collects: a pod would stay at the resident size of its busiest moment. When the event loop has
 * been quiet for `idleMs` and the process holds `growthBytes` more than the least it has held
 * since its last idle collection, it runs one full collection (decision 0037).
 */
export function collectWhenIdle(options: {
  idleMs: number;
  growthBytes?: number;
  /** How often the event loop is looked at (a quarter of idleMs, 50 ms to 1 s, unless given). */
  checkMs?: number;
  held?: () => number;
  collect?: () => Promise<void>;
  onCollected?: (before: number, after: number, ms: number) => void;
}): IdleCollection {
  const { idleMs, growthBytes = IDLE_COLLECTION_GROWTH_BYTES, held = residentBytes, collect = collectFully } = options;
  const checkMs = options.checkMs ?? Math.max(50, Math.min(1_000, Math.floor(idleMs / 4)));
  use(idleCollections);
  use(givenBack);
  let baseline = held();
  let quietMs = 0;
  let collecting = false;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const since = performance.eventLoopUtilization(now, last);
    last = now;
    // The time that passed (idle and busy), not the check's interval: on a busy machine a timer fires late.
    quietMs = since.utilization < QUIET_UTILISATION ? quietMs + since.idle + since.active : 0;
    if (collecting || quietMs === 0) return;
    const before = held();
    // The allocator returns what a collection freed over the seconds after it (jemalloc's decay),
    // so the mark the next collection is measured from is the least held since, not what was held
    // as it ended: else a process that gave back 100 MB later could grow by as much without one.
    baseline = Math.min(baseline, before);
    if (quietMs < idleMs || before < baseline + growthBytes) return;
    collecting = true;
    const started = performance.now();
    collect()
      .then(() => {
        baseline = held();
        idleCollections.inc();
        givenBack.inc(Math.max(0, before - baseline));
        options.onCollected?.(before, baseline, performance.now() - started);
      })
      // A collection that could not run leaves the baseline: the next quiet spell tries again.
      .catch(() => undefined)
      .finally(() => {
        collecting = false;
        quietMs = 0;
        last = performance.eventLoopUtilization();
      });
  }, checkMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
