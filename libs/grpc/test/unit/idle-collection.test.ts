// The collection once a burst of work is over (IDLE_COLLECTION_MS): when it runs, with the
// memory and the collection stood in for, and what it gives back in a process of its own.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { collectWhenIdle } from '../../src/idle-collection.ts';

const MiB = 2 ** 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds, for at most `ms` (timers fire late on a loaded machine); what it held at the end. */
async function until(done: () => boolean, ms = 3_000): Promise<boolean> {
  for (const end = Date.now() + ms; !done() && Date.now() < end; ) await sleep(100);
  return done();
}

/** Memory the test sets, and a collection that brings it to `after` and counts itself. */
function standIns(start: number) {
  const state = { held: start, collections: 0, after: start, fail: false };
  return {
    state,
    held: () => state.held,
    collect: async () => {
      state.collections += 1;
      if (state.fail) throw new Error('no inspector');
      state.held = state.after;
    },
  };
}

/** Keeps the event loop busy: `ms` of work every 10 ms, for `forMs`. */
async function busyFor(forMs: number, ms = 8): Promise<void> {
  const end = Date.now() + forMs;
  while (Date.now() < end) {
    const until = Date.now() + ms;
    while (Date.now() < until);
    await sleep(2);
  }
}

describe('collecting once a burst of work is over', () => {
  it('when the loop is quiet and the process holds 32 MiB more than after its last collection, then it collects once, and again only once it has grown as much again', async () => {
    const { state, held, collect } = standIns(100 * MiB);
    const idle = collectWhenIdle({ idleMs: 100, checkMs: 20, held, collect });
    try {
      await sleep(250);
      expect(state.collections).toBe(0); // no more than at the start
      state.held = 150 * MiB;
      state.after = 110 * MiB;
      expect(await until(() => state.collections === 1)).toBe(true);
      state.held = 140 * MiB; // 30 MiB above what the collection left
      await sleep(250);
      expect(state.collections).toBe(1);
      state.held = 143 * MiB;
      expect(await until(() => state.collections === 2)).toBe(true);
    } finally {
      idle.stop();
    }
  });

  it('when what a collection freed is given back only after it, then growth is measured from the least held since, and the next burst is collected too', async () => {
    const { state, held, collect } = standIns(100 * MiB);
    const idle = collectWhenIdle({ idleMs: 100, checkMs: 20, held, collect });
    try {
      state.held = 300 * MiB;
      state.after = 250 * MiB; // the collection's pages not yet given back
      expect(await until(() => state.collections === 1)).toBe(true);
      state.held = 110 * MiB; // the allocator returns them while the process is idle
      await sleep(150);
      expect(state.collections).toBe(1);
      await busyFor(200);
      state.held = 180 * MiB; // a burst: 70 MiB above the least held since, 70 below what the collection left
      expect(await until(() => state.collections === 2)).toBe(true);
    } finally {
      idle.stop();
    }
  });

  it('when the loop stays busy, then it does not collect however much is held, and collects once it has been quiet', async () => {
    const { state, held, collect } = standIns(100 * MiB);
    const idle = collectWhenIdle({ idleMs: 100, checkMs: 20, held, collect });
    try {
      state.held = 300 * MiB;
      await busyFor(400);
      expect(state.collections).toBe(0);
      expect(await until(() => state.collections === 1)).toBe(true);
    } finally {
      idle.stop();
    }
  });

  it('when a collection fails, then a later quiet spell tries again', async () => {
    const { state, held, collect } = standIns(100 * MiB);
    state.fail = true;
    const idle = collectWhenIdle({ idleMs: 60, checkMs: 20, held, collect });
    state.held = 200 * MiB;
    try {
      expect(await until(() => state.collections >= 2)).toBe(true);
    } finally {
      idle.stop();
    }
  });

  const MODULE = fileURLToPath(new URL('../../src/idle-collection.ts', import.meta.url));
  const PROCESS = fileURLToPath(new URL('../../src/process.ts', import.meta.url));
  // A burst of objects that live long enough to reach the old generation, then none; the resident
  // memory at the end of the burst and once the process has been idle a while.
  const BURST = `
import { applyHeapGrowing } from ${JSON.stringify(PROCESS)};
import { collectWhenIdle } from ${JSON.stringify(MODULE)};
import { registry } from '@rex/telemetry';
applyHeapGrowing(100);
const idleMs = Number(process.argv[1]);
if (idleMs) collectWhenIdle({ idleMs });
let live = [];
for (let round = 0; round < 40; round++) {
  live.push(Array.from({ length: 50_000 }, (_, i) => ({ i, text: 'record '.repeat(4) + i })));
  if (live.length > 8) live.shift();
}
live = null;
const peak = process.memoryUsage.rss();
setTimeout(async () => {
  const metrics = await registry.metrics();
  console.log(JSON.stringify({ peak, idle: process.memoryUsage.rss(), collections: Number(/^rex_idle_collections_total (\\d+)/m.exec(metrics)?.[1] ?? 0) }));
}, 1_500);
`;

  async function burst(idleMs: number): Promise<{ peak: number; idle: number; collections: number }> {
    const env = { ...process.env };
    delete env.NODE_V8_COVERAGE;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      // The gateway's chart options: its heap limit and young generation.
      ['--conditions=development', '--disable-warning=ExperimentalWarning', '--max-old-space-size=384', '--max-semi-space-size=16', '--input-type=module', '--eval', BURST, String(idleMs)],
      { timeout: 30_000, env, cwd: fileURLToPath(new URL('../..', import.meta.url)) },
    );
    return JSON.parse(stdout) as { peak: number; idle: number; collections: number };
  }

  it('when a process under a chart-sized heap limit goes idle after a burst, then it gives back what the burst took, which it keeps without the collection', async () => {
    const kept = await burst(0);
    const given = await burst(200);
    expect(given.collections).toBe(1);
    expect(kept.collections).toBe(0);
    const released = given.peak - given.idle;
    // 329 MB at the burst's end and 91 MB once idle where it was measured; without the collection, 340 and 340.
    expect(released).toBeGreaterThan(kept.peak - kept.idle + 24 * MiB);
  }, 60_000);
});
