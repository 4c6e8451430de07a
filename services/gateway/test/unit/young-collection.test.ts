import { PerformanceObserver, constants } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { registry } from '@rex/telemetry';
import { youngCollector } from '../../src/young-collection.ts';

const MiB = 2 ** 20;

/** Collections that empty the young generation: a young one, or a full one, which V8 runs instead of a young one asked for while it is marking the old generation. */
const EMPTYING_YOUNG = new Set([constants.NODE_PERFORMANCE_GC_MINOR, constants.NODE_PERFORMANCE_GC_MAJOR]);

/** Collections emptying the young generation that V8 reports for `work`: once `expected` are seen, or after a second (it reports them a turn or two later). */
async function scavengesDuring(work: () => void | Promise<void>, expected: number): Promise<number> {
  let seen = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (EMPTYING_YOUNG.has((entry as unknown as { detail: { kind: number } }).detail.kind)) seen += 1;
  });
  observer.observe({ entryTypes: ['gc'] });
  await work();
  for (const until = Date.now() + 1_000; seen < expected && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 10));
  observer.disconnect();
  return seen;
}

/** The young collections so far, as the metrics count them. */
const collectionsCounted = async () => (await registry.getSingleMetric('rex_young_collections_total')!.get()).values[0]?.value ?? 0;

describe('young collections of answers passed on', () => {
  it('when answers pass, then the young generation is collected once for every so many bytes, whatever the pieces', () => {
    let collections = 0;
    const passed = youngCollector(2 * MiB, () => (collections += 1));
    for (let i = 0; i < 10; i++) passed(MiB);
    expect(collections).toBe(5);
    for (let i = 0; i < 3 * 1024; i++) passed(1024);
    expect(collections).toBe(6);
    passed(MiB);
    expect(collections).toBe(7);
  });

  it('runs V8 young-generation collections in this process, and counts them for the metrics', async () => {
    const before = await collectionsCounted();
    const passed = youngCollector(MiB);
    const scavenges = await scavengesDuring(() => {
      for (let i = 0; i < 4; i++) passed(MiB);
    }, 4);
    expect(scavenges).toBeGreaterThanOrEqual(4);
    expect((await collectionsCounted()) - before).toBe(4);
  });
});
