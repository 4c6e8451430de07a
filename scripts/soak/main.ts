// `npm run soak`: the suite under a steady mix of requests at half its measured
// capacity for a long time (30 minutes unless --minutes), watching every
// process each 10 s: resident memory, heap, event-loop delay, open files and
// handles, pool waits, projector lag, and the answers' p99 latency. Prints
// start/end/max and the slope after warm-up, and exits 1 when memory grows
// faster than --rss-slope MB/min or the p99 at the end exceeds the start's by
// more than --p99-growth. Each process has the NODE_OPTIONS its chart sets.
//   --minutes M (30)  --rate R (requests/s; default half the measured capacity)
//   --rss-slope MB/min (1)  --p99-growth fraction (0.2)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, dropDatabase, freePort, removeDataDirectory, startEmbeddedPostgres, type EmbeddedDatabase } from '@rex/db';
import { chartServiceEnv } from '../chart-node-options.ts';
import { demoToken } from '../demo-token.ts';
import { cleanUpOnInterrupt } from '../interrupt.ts';
import { startSuite } from '../suite.ts';
import { createTraffic, newWindow, percentile, type Window } from './load.ts';
import { projectorSecondsBehind, sampleProcess, slopePerMinute, type ProcessSample } from './samples.ts';

const say = (message: string) => process.stderr.write(`[soak] ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SAMPLE_S = 10;

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    rate: { type: 'string' },
    'rss-slope': { type: 'string', default: '1' },
    'p99-growth': { type: 'string', default: '0.2' },
  },
});
const minutes = Number(args.minutes);
const rssBound = Number(args['rss-slope']);
const p99Bound = Number(args['p99-growth']);
if (!(minutes > 0) || !(rssBound > 0) || !(p99Bound > 0)) {
  say('usage: npm run soak -- [--minutes M] [--rate R] [--rss-slope MB/min] [--p99-growth fraction]');
  process.exit(2);
}

const dataDir = mkdtempSync(join(tmpdir(), 'rex-soak-'));
let embedded: EmbeddedDatabase | undefined;
let serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  embedded = await startEmbeddedPostgres({ dataDir });
  serverUrl = embedded.url;
}
const databaseName = `rex_soak_${Date.now()}`;
const databaseUrl = await createDatabase(serverUrl, databaseName);
let stopServices = async (): Promise<void> => undefined;
async function cleanUp(): Promise<void> {
  await stopServices();
  await dropDatabase(serverUrl!, databaseName).catch(() => undefined);
  await embedded?.stop();
  removeDataDirectory(dataDir);
}
cleanUpOnInterrupt(cleanUp);
const names = ['gateway', 'records', 'reports', 'media', 'search'] as const;
const metricsPorts = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await freePort()]))) as Record<(typeof names)[number], number>;
say('starting the suite');
// Each process runs with the NODE_OPTIONS its chart gives it by default (heap limit and young
// generation), so the garbage collector works as it does in a cluster instead of growing into this machine.
const suite = await startSuite({
  dataDir,
  databaseUrl,
  metricsPorts,
  logs: join(dataDir, 'logs'),
  env: { LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true' },
  serviceEnv: chartServiceEnv(),
});
stopServices = () => suite.stop();
const bearer = await demoToken(suite.demoPrivateKey);

const sampleIds: string[] = [];
for (let i = 0; i < 200; i++) {
  const answer = await fetch(`${suite.gatewayUrl}/index.php/services/rest/samples`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ values: { survey_id: 1, date: '2026-05-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB' }, occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }),
  });
  sampleIds.push(((await answer.json()) as { values: { id: string } }).values.id);
}
const send = createTraffic(suite.gatewayUrl, bearer, sampleIds);

// Capacity: as many requests of the mix as 16 clients get answered back to back in 10 s.
say('measuring capacity (10 s)');
const probe = newWindow();
const probeUntil = Date.now() + 10_000;
await Promise.all(Array.from({ length: 16 }, async () => {
  while (Date.now() < probeUntil) await send(probe);
}));
const capacity = probe.latencies.length / 10;
const rate = args.rate ? Number(args.rate) : Math.max(1, Math.round(capacity / 2));
say(`capacity ${capacity.toFixed(0)} requests/s; soaking at ${rate}/s for ${minutes} min`);

const windows: Window[] = [];
const processes: Record<string, (ProcessSample | undefined)[]> = Object.fromEntries(names.map((name) => [name, []]));
const lag: number[] = [];
let current = newWindow();
let owed = 0;
const inFlight = new Set<Promise<void>>();
const sender = setInterval(() => {
  owed += rate / 100;
  for (; owed >= 1; owed -= 1) {
    const sent = send(current);
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  }
}, 10);
const ends = Date.now() + minutes * 60_000;
while (Date.now() < ends) {
  await sleep(SAMPLE_S * 1000);
  windows.push(current);
  current = newWindow();
  for (const name of names) processes[name].push(await sampleProcess(`http://127.0.0.1:${metricsPorts[name]}/metrics`));
  lag.push(await projectorSecondsBehind(`http://127.0.0.1:${metricsPorts.reports}/metrics`));
  const last = windows.at(-1)!;
  say(`${(windows.length * SAMPLE_S / 60).toFixed(1)} min: ${last.latencies.length} answers, p99 ${percentile(last.latencies, 99).toFixed(0)} ms, ${last.errors} errors, gateway RSS ${processes.gateway.at(-1)?.rssMb.toFixed(0)} MB, in flight ${inFlight.size}`);
}
clearInterval(sender);
await Promise.all(inFlight);

// Warm-up (a fifth of the run, at most 5 minutes) is left out of slopes and comparisons.
const warm = Math.min(Math.ceil(windows.length / 5), Math.ceil(300 / SAMPLE_S));
const after = <T>(list: T[]) => list.slice(warm);
const third = Math.max(1, Math.floor(after(windows).length / 3));
const p99Of = (list: Window[]) => percentile(list.flatMap((window) => window.latencies), 99);
const p99Start = p99Of(after(windows).slice(0, third));
const p99End = p99Of(after(windows).slice(-third));
const errors = windows.reduce((total, window) => total + window.errors, 0);
const answered = windows.reduce((total, window) => total + window.latencies.length, 0);

const rows: string[][] = [['process', 'RSS start', 'RSS end', 'RSS max', 'RSS MB/min', 'heap MB/min', 'loop p99 max ms', 'fds start→end', 'handles start→end', 'pool waits max']];
let failed = false;
for (const name of names) {
  const samples = after(processes[name]).filter((sample): sample is ProcessSample => !!sample);
  if (samples.length < 2) {
    rows.push([name, 'no samples']);
    failed = true;
    continue;
  }
  const rss = samples.map((sample) => sample.rssMb);
  const slope = slopePerMinute(rss, SAMPLE_S);
  if (slope > rssBound) failed = true;
  rows.push([
    name,
    rss[0].toFixed(0),
    rss.at(-1)!.toFixed(0),
    Math.max(...rss).toFixed(0),
    slope.toFixed(2),
    slopePerMinute(samples.map((sample) => sample.heapMb), SAMPLE_S).toFixed(2),
    Math.max(...samples.map((sample) => sample.eventLoopP99Ms)).toFixed(1),
    `${samples[0].openFds}→${samples.at(-1)!.openFds}`,
    `${samples[0].handles}→${samples.at(-1)!.handles}`,
    String(Math.max(...samples.map((sample) => sample.poolWaiting))),
  ]);
}
const p99Growth = p99End / p99Start - 1;
if (p99Growth > p99Bound) failed = true;
const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
process.stdout.write(`\nsoak: ${minutes} min at ${rate} requests/s (capacity ${capacity.toFixed(0)}/s), ${answered} answers, ${errors} errors, warm-up ${(warm * SAMPLE_S / 60).toFixed(1)} min left out\n`);
for (const row of rows) process.stdout.write(`  ${row.map((cell, column) => (cell ?? '').padEnd(widths[column])).join('  ')}\n`);
process.stdout.write(`  p99 latency: ${p99Start.toFixed(0)} ms at the start, ${p99End.toFixed(0)} ms at the end (${(p99Growth * 100).toFixed(0)} %, bound ${(p99Bound * 100).toFixed(0)} %)\n`);
process.stdout.write(`  projector behind: max ${Math.max(...after(lag)).toFixed(1)} s, at the end ${lag.at(-1)?.toFixed(1)} s\n`);
process.stdout.write(`  bounds: RSS slope ≤ ${rssBound} MB/min per process → ${failed ? 'FAILED' : 'held'}\n`);

await cleanUp();
process.exit(failed ? 1 : 0);
