import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NODE_FLAGS, SERVICE_V8_FLAGS } from '../suite.ts';

const DOCKERFILE = fileURLToPath(new URL('../../Dockerfile', import.meta.url));

/** Each ENTRYPOINT of the Dockerfile (one per service image), as its argument list. */
function entrypoints(): string[][] {
  return [...readFileSync(DOCKERFILE, 'utf8').matchAll(/^ENTRYPOINT (\[.*\])$/gm)].map((match) => JSON.parse(match[1]) as string[]);
}

/**
 * Runs a process that makes V8 run full collections while its heap grows, then stays up for a
 * second, with V8's memory reducer (if on) set to look at it 100 ms after its last collection
 * instead of 8 s, and to say what it decides. Returns what the process printed.
 */
function memoryReducerTrace(flags: string[]): string {
  const script = `
    let kept = [];
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 50_000; i++) kept.push({ i, text: 'x' + i });
      if (kept.length > 400_000) kept = [];
    }
    kept = [];
    setTimeout(() => {}, 1_000);
  `;
  const run = spawnSync(process.execPath, [...flags, '--trace-memory-reducer', '--gc-memory-reducer-start-delay-ms=100', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  expect(run.status).toBe(0);
  return run.stdout + run.stderr;
}

describe('the V8 options every service runs with', () => {
  it('when the images and the suite start a service, then both turn V8\'s memory reducer off', () => {
    expect(SERVICE_V8_FLAGS).toContain('--no-memory-reducer');
    const images = entrypoints();
    expect(images).toHaveLength(5);
    for (const entrypoint of images) {
      expect(entrypoint[0]).toBe('node');
      expect(entrypoint.slice(0, entrypoint.indexOf('--import'))).toEqual(expect.arrayContaining(SERVICE_V8_FLAGS));
    }
    expect(NODE_FLAGS).toEqual(expect.arrayContaining(SERVICE_V8_FLAGS));
  });

  it("when a process with these options has grown its heap and goes quiet, then V8's memory reducer does not look at it, where without them it does (and would shrink the heap once the process allocates little)", () => {
    expect(memoryReducerTrace([])).toMatch(/Memory reducer: /);
    expect(memoryReducerTrace(SERVICE_V8_FLAGS)).not.toMatch(/Memory reducer/);
    // Two processes of a few seconds each, longer on a machine the whole suite keeps busy.
  }, 60_000);
});
