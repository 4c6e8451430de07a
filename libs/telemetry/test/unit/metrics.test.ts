// What the runtime metrics cost a process that has nothing to do: the event loop's delay is still
// measured and exported, without waking the process a hundred times a second.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const METRICS = fileURLToPath(new URL('../../src/metrics.ts', import.meta.url));

/** A process that loads the metrics, settles, then counts its main thread's wake-ups over `ms` and prints them with the exported lag. */
const IDLE = `
  const { readFileSync } = await import('node:fs');
  const { registry } = await import(${JSON.stringify(METRICS)});
  const wakeUps = () => Number(/voluntary_ctxt_switches:\\s+(\\d+)/.exec(readFileSync('/proc/' + process.pid + '/task/' + process.pid + '/status', 'utf8'))[1]);
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  await sleep(300);
  const before = wakeUps();
  await sleep(Number(process.argv[1]));
  const after = wakeUps();
  const lag = (await registry.getSingleMetric('nodejs_eventloop_lag_p99_seconds').get()).values.length;
  process.stdout.write(JSON.stringify({ wakeUps: after - before, lag }));
`;

describe('runtime metrics of an idle process', () => {
  // Wake-ups are read from /proc, as on every node the charts run on.
  it.skipIf(!existsSync('/proc/self/status'))('when a process with the metrics loaded has nothing to do for 2 s, then it wakes at most 25 times a second and still exports its event loop delay', async () => {
    const ms = 2_000;
    const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=development', '--disable-warning=ExperimentalWarning', '--input-type=module', '--eval', IDLE, String(ms)]);
    const { wakeUps, lag } = JSON.parse(stdout) as { wakeUps: number; lag: number };
    // Sampling the delay every 10 ms (prom-client's default) woke it about 100 times a second.
    expect(wakeUps).toBeLessThan((25 * ms) / 1_000);
    expect(lag).toBe(1);
  });
});
