// `npm run bench`: the suite on a real PostgreSQL under load, against three floors.
//   (a) GET  /samples/<id> through the gateway with jwtUser, a thousand samples read in turn (so do (d) and (h))
//   (b) POST /samples with 2 occurrences through the gateway with jwtUser
//   (c) floor: bare Express → one grpc-js unary call to an echo server in another process
//   (d) floor: bare Express → the same SELECT by id straight on pg
//   (h) floor of the read path: bare Express → one grpc-js unary call → that SELECT on a pg pool
//       in the backend's process (three processes, as the suite's GET); with (a), the two run in turn,
//       three times each, and each stands by its median, then again with 8 connections; so do (b) and
//       (h), each (b) followed by the projector applying its writes, and (b) and (e) are compared with that floor;
//       for each of these runs, the CPU per request of every process (rex services, floors, PostgreSQL) from /proc
//   (e) POST /samples with 10 occurrences, each with 2 custom attribute values
//   (f) GET /occurrences?limit=100: a page of the caller's own occurrences
//   (r) a typical filtered report page over BENCH_REPORT_ROWS occurrences (default 100 000), in turn with its floor
//   (p) bare Express → one grpc-js unary call → the page's statement, compiled as reports compiles it, on a pool
//       with reports' reading settings (three processes; checked to answer the page's rows), three times each; and the same page
//       while samples are written (BENCH_WRITES_PER_SECOND, default 20), so that the projector changes the read
//       model, and forgets the counts kept, all along
//   (o) the same page as (r) through a new gateway whose REPORTS_ADDR lists two reports replicas
//       (round robin, as a headless Service gives them), against a gateway started alike in front of
//       one, in turn, three times each: the ratio of the medians, and each replica's share
//   (s) a report of BENCH_STREAM_ROWS occurrences (default 1 000 000) streamed as CSV: rows/s and
//       the peak resident memory of gateway and reports
//   and the projector's p99 lag (outbox event written → applied) while (b) writes at full speed
//   (t) (a) through a gateway and records that trace with the production sampler (parentbased_traceidratio
//       0.1, spans exported to an OTLP receiver in this process) against a gateway and records started alike
//       without tracing, in turn, five times each (each first in a round in turn): the ratio of the medians,
//       the CPU a request of every process, and the share of requests traced
//   (u) POST /media-queue: a 2 MB JPEG per request, with the gateway's resident memory before and at peak
//       (its V8 heap and buffers at most); then the same from 32 clients sending 1 MiB a second each,
//       against the uploads a second their rate allows
//   (m) each authentication method on the same request, GET /samples/<id of no sample>: the
//       method's own cost on top of an identical hop and lookup (answered 404 for every method); the
//       methods in turn, six rounds, each starting one method later (a third of BENCH_DURATION a
//       run), each method by its median, with that run's CPU a request of every process
//   (w) the change feed read through GET /changes (BENCH_FEED_CHANGES entries, default 20 000, pages
//       of 1000) against a floor reading the same read-model rows straight from pg; and webhook
//       delivery of BENCH_DELIVERIES changes (default 3 000) to a receiver on loopback against a
//       floor POSTing the same signed messages one after another from this process
// BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS (default 32) and BENCH_ONLY (e.g. `a,c`) tune the run;
// REX_CPU_PROFILE_DIR=<dir> writes a V8 CPU profile of every service and floor process to <dir> as each stops.
// Each service runs with the NODE_OPTIONS its chart sets (scripts/chart-node-options.ts) and the allocator its image
// preloads (jemalloc, scripts/image-allocator.ts); BENCH_SUITE_ENV (a JSON object of variables for every service)
// overrides them when it sets NODE_OPTIONS, LD_PRELOAD ("" for glibc's malloc) or MALLOC_CONF.
import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createDatabase, createPool, dropDatabase, freePort, removeDataDirectory, startEmbeddedPostgres, type EmbeddedDatabase } from '@rex/db';
import { DEMO, importFixtures, parseFixtures } from '@rex/admin';
import { SignJWT, importPKCS8 } from 'jose';
import { chartNodeOptions, chartServiceEnv } from '../scripts/chart-node-options.ts';
import { imageAllocator } from '../scripts/image-allocator.ts';
import { demoToken } from '../scripts/demo-token.ts';
import { cleanUpOnInterrupt } from '../scripts/interrupt.ts';
import { NODE_FLAGS, grpcServing, startSuite, type ServiceName } from '../scripts/suite.ts';
import { cpuPerRequest, describeCpu, readCpu } from './process-cpu.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** Slow clients uploading at once in the second part of (u). */
const UPLOAD_SLOW_CLIENTS = 32;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'a,b,c,d,h,e,f,t,u,m,r,o,s,w').split(','));
const REPORT_ROWS = Number(process.env.BENCH_REPORT_ROWS ?? 100_000);
const STREAM_ROWS = Number(process.env.BENCH_STREAM_ROWS ?? 1_000_000);
const FEED_CHANGES = Number(process.env.BENCH_FEED_CHANGES ?? 20_000);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 3_000);
const WEBSITE_PASSWORD = 'demo-website-password';
const HERE = fileURLToPath(new URL('.', import.meta.url));
const say = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** A load's figures; `warmUp` tells of errors in its warm-up, which its figures leave out. */
type Result = {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  statuses: string;
  warmUp?: { errors: number; statuses: string };
  /** Milliseconds of CPU per request by process (service, floor, postgres) over the measured run. */
  cpu?: Record<string, number>;
};

/** The errors of an autocannon run (failed requests, and answers other than `expected`) and its answers by status. */
function errorsOf(result: autocannon.Result, expected: number): { errors: number; statuses: string } {
  const counts = (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
  const unexpected = Object.entries(counts).reduce((sum, [status, { count }]) => sum + (Number(status) === expected ? 0 : count), 0);
  const statuses = Object.entries(counts).map(([status, { count }]) => `${status}×${count}`).join(', ');
  return { errors: result.errors + unexpected, statuses };
}

/** Runs one load (after a warm-up unless told not to), with BENCH_CONNECTIONS unless its options say how many; answers other than `expected` count as errors, the warm-up's apart. */
async function load(name: string, options: autocannon.Options, expected = 200, run: { seconds?: number; warmUp?: boolean } = {}): Promise<Result> {
  const seconds = run.seconds ?? DURATION;
  const connections = options.connections ?? CONNECTIONS;
  say(`${name}: ${connections} connections for ${seconds} s`);
  const warmUp = (run.warmUp ?? true) ? errorsOf(await autocannon({ ...options, connections, duration: Math.min(2, seconds) }), expected) : undefined;
  const before = readCpu();
  const result = await autocannon({ ...options, connections, duration: seconds });
  const cpu = cpuPerRequest(before, readCpu(), result.requests.total);
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, ...errorsOf(result, expected), ...(warmUp?.errors ? { warmUp } : {}), cpu };
}

/** Samples written a second during the second run of (r). */
const WRITES_PER_SECOND = Number(process.env.BENCH_WRITES_PER_SECOND ?? 20);

/** POSTs `body` to `url` at a steady rate until stopped; stopping waits for those in flight and says how many were created. */
function writeSteadily(url: string, headers: Record<string, string>, body: string, perSecond: number): { stop: () => Promise<number> } {
  let created = 0;
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const write = fetch(url, { method: 'POST', headers, body })
      .then(async (response) => {
        await response.arrayBuffer();
        if (response.status === 201) created += 1;
      })
      .catch(() => undefined)
      .finally(() => inFlight.delete(write));
    inFlight.add(write);
  }, 1000 / perSecond);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(inFlight);
      return created;
    },
  };
}

/** The fewer clients at once that (a) and (h) are also measured with, in turn. */
const FEW_CONNECTIONS = 8;

/** How many samples (a) and its floors read in turn. */
const READ_SAMPLES = 1_000;

/** Creates `count` samples like `body` through the API, a hundred a request; their ids. */
async function createSamples(services: string, headers: Record<string, string>, body: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < count) {
    const batch = Array.from({ length: Math.min(100, count - ids.length) }, () => JSON.parse(body) as unknown);
    const response = await fetch(`${services}/samples/list`, { method: 'POST', headers, body: JSON.stringify(batch) });
    if (response.status !== 201) throw new Error(`creating samples: ${response.status} ${await response.text()}`);
    ids.push(...((await response.json()) as { values: { id: string } }[]).map((saved) => saved.values.id));
  }
  return ids;
}

/** Requests to `origin` whose paths go through `ids` in turn, one id after another. */
function throughIds(origin: string, ids: string[], path: (id: string) => string): Pick<autocannon.Options, 'url' | 'requests'> {
  let next = 0;
  return { url: origin, requests: [{ setupRequest: (request) => ({ ...request, path: path(ids[next++ % ids.length]) }) }] };
}

type Contender = { name: string; options: autocannon.Options; expected?: number; around?: (run: () => Promise<Result>) => Promise<Result> };

/** How many times each of the loads compared within a kind runs, in turn. */
const ROUNDS = 3;

/**
 * Loads compared with one another ((m), (o), (t)): each runs in turn, `rounds` times (warmed up
 * before its first run only), so that the machine's drift between runs falls on all of them alike.
 * With `rotate`, each round starts one contender later, so that none always runs in the same place
 * of a round: six runs of one method in turn read 0.82 and 0.90 of one another, once rising with
 * their place in the round. Each one's runs, and its run of median req/s, whose figures stand for it.
 */
async function inTurn(contenders: Contender[], seconds: number, { rounds = ROUNDS, rotate = false } = {}): Promise<{ median: Result; runs: Result[] }[]> {
  const runs: Result[][] = contenders.map(() => []);
  for (let round = 1; round <= rounds; round++) {
    for (let place = 0; place < contenders.length; place++) {
      const i = rotate ? (place + round - 1) % contenders.length : place;
      const contender = contenders[i];
      const run = () => load(`${contender.name} (${round} of ${rounds})`, contender.options, contender.expected ?? 200, { seconds, warmUp: runs[i].length === 0 });
      runs[i].push(await (contender.around ? contender.around(run) : run()));
    }
  }
  return runs.map((own, i) => {
    const median = [...own].sort((x, y) => x.rps - y.rps)[Math.floor(own.length / 2)];
    const errors = own.reduce((sum, r) => sum + r.errors, 0);
    const warmUp = own.find((r) => r.warmUp)?.warmUp;
    return { median: { ...median, name: contenders[i].name, errors, statuses: own.map((r) => r.statuses).join('; '), warmUp }, runs: own };
  });
}

/** Stops a process started here and waits until it has exited. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A service process of this checkout, as a cluster runs one more replica of it; it logs beside the suite's services. */
function startService(name: ServiceName, env: Record<string, string>): ChildProcess {
  const log = openSync(join(dataDir, 'logs', `${name}-${children.length + 1}.log`), 'a');
  try {
    // Started as the suite starts its services: tracing begins where the OTEL_* variables give it an exporter.
    return spawn(process.execPath, [...NODE_FLAGS, 'src/main.ts'], {
      cwd: join(HERE, '..', 'services', name),
      env: {
        ...process.env,
        ...ALLOCATOR.env,
        LOG_LEVEL: 'warn',
        REX_CONFIG: join(HERE, 'rest.yaml'),
        NODE_OPTIONS: 'NODE_OPTIONS' in SUITE_ENV ? SUITE_ENV.NODE_OPTIONS : chartNodeOptions(name),
        ...env,
      },
      stdio: ['ignore', log, log],
    });
  } finally {
    closeSync(log);
  }
}

/** Waits until `probe` holds (a started process answers), for at most a minute. */
async function until(probe: () => Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await probe().catch(() => false)); waited += 100) {
    if (waited > 60_000) throw new Error(`${what} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** An OTLP/HTTP (JSON) trace receiver on loopback that answers every export at once and counts the traces it was sent. */
async function startOtlpSink(): Promise<{ url: string; traces: () => number; close: () => void }> {
  const traces = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      for (const match of Buffer.concat(chunks).toString('utf8').matchAll(/"traceId":"([0-9a-f]{32})"/g)) traces.add(match[1]);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, traces: () => traces.size, close: () => server.close() };
}

/**
 * (t): GET `path` through a gateway and records that trace as production does, against a pair
 * started alike without tracing, in turn (off, on, off, on); the line to print.
 */
async function tracingCost(internalSecret: string, databaseUrl: string, path: string, headers: Record<string, string>): Promise<string> {
  const sink = await startOtlpSink();
  const started: ChildProcess[] = [];
  const pair = async (env: Record<string, string>, what: string) => {
    const [grpcPort, port] = [await freePort(), await freePort()];
    const common = { INTERNAL_AUTH_SECRET: internalSecret, DATABASE_URL: databaseUrl, METRICS_PORT: '0', ...env };
    for (const child of [
      startService('records', { ...common, GRPC_PORT: String(grpcPort), OTEL_SERVICE_NAME: 'records' }),
      startService('gateway', { ...common, GATEWAY_PORT: String(port), RECORDS_ADDR: `127.0.0.1:${grpcPort}`, OTEL_SERVICE_NAME: 'gateway' }),
    ]) {
      children.push(child);
      started.push(child);
    }
    const url = `http://127.0.0.1:${port}/index.php/services/rest${path}`;
    await until(async () => (await fetch(url, { headers })).ok, what);
    return url;
  };
  try {
    const off = await pair({}, 'the gateway and records without tracing');
    const on = await pair(
      { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1', OTEL_BSP_SCHEDULE_DELAY: '500' },
      'the gateway and records with tracing',
    );
    const [without, withTracing] = await inTurn(
      [
        { name: '(t) GET /samples/<id>, tracing off', options: { url: off, headers } },
        { name: '(t) GET /samples/<id>, tracing a tenth', options: { url: on, headers } },
      ],
      DURATION,
      // Each first in a round in turn, so that a machine slowing along a round weighs on both alike; five rounds,
      // as a run's rate on this path moves by a tenth from one run to the next.
      { rounds: 5, rotate: true },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the last batch of spans
    const measured = withTracing.runs.reduce((sum, r) => sum + r.rps * DURATION, 0);
    const [offRun, onRun] = [without.median, withTracing.median];
    return (
      `(t) GET /samples/<id> with tracing (parentbased_traceidratio 0.1) against without, medians of ${withTracing.runs.length} runs each in turn: ${onRun.rps.toFixed(0)} against ${offRun.rps.toFixed(0)} req/s, ` +
      `on/off = ${(onRun.rps / offRun.rps).toFixed(2)} (target ≥ 0.9; runs: ${withTracing.runs.map((r) => r.rps.toFixed(0)).join(', ')} against ${without.runs.map((r) => r.rps.toFixed(0)).join(', ')}); ` +
      `p99 ${onRun.p99} against ${offRun.p99} ms; ` +
      `CPU a request with tracing ${onRun.cpu ? describeCpu(onRun.cpu) : 'not read'}, without ${offRun.cpu ? describeCpu(offRun.cpu) : 'not read'}; ` +
      `${sink.traces()} traces exported, ${((100 * sink.traces()) / measured).toFixed(1)} % of the measured requests with tracing (warm-ups included in the count); errors ${offRun.errors + onRun.errors}`
    );
  } finally {
    await Promise.all(started.map(stopChild));
    sink.close();
  }
}

/** RunReport calls a reports replica has answered OK, from its metrics. */
async function reportsServed(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith('grpc_server_handled_total{') && l.includes('grpc_method="RunReport"') && l.includes('grpc_code="OK"'));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** Report pages' counts a reports replica has made in the database, answered from those it keeps, and shared with a page counting, from its metrics. */
async function reportCounts(metricsUrl: string): Promise<{ database: number; cache: number; shared: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const of = (source: string) => Number(text.split('\n').find((l) => l.startsWith(`reports_page_counts_total{source="${source}"}`))?.split(' ').pop() ?? 0);
  return { database: of('database'), cache: of('cache'), shared: of('shared') };
}

/**
 * Waits until the projector has applied every outbox event: the writes of (b) and (e) leave a
 * backlog that it applies for a while after, and what runs meanwhile (the floors) would share the
 * machine with it. The seconds waited.
 */
async function projectorCaughtUp(databaseUrl: string, limitMs = 300_000): Promise<number> {
  const pool = createPool(databaseUrl, { max: 1 });
  const started = Date.now();
  try {
    for (;;) {
      const { rows } = await pool.query<{ behind: string }>(
        `SELECT count(*) AS behind FROM records.outbox o, reports.projector_cursor c
          WHERE c.name = 'outbox' AND (o.txid, o.id) > (c.txid, c.event_id)`,
      );
      if (Number(rows[0].behind) === 0 || Date.now() - started > limitMs) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await pool.end();
  }
  return (Date.now() - started) / 1000;
}

/** p99 of the projector's event delay histogram (upper bound of the bucket holding the 99th percentile). */
async function projectorLag(metricsUrl: string): Promise<{ p99: string; events: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const buckets = [...text.matchAll(/^reports_projector_event_delay_seconds_bucket\{le="([^"]+)"\} (\d+)/gm)].map((m) => ({ le: m[1], count: Number(m[2]) }));
  const total = buckets.at(-1)?.count ?? 0;
  const p99 = buckets.find((b) => b.count >= total * 0.99);
  return { p99: total ? `≤ ${p99?.le}` : 'n/a', events: total };
}

/**
 * Rows straight into the read model (ids far above real ones), for the reporting benchmarks; complete,
 * as the projector writes them (rows without attribute values would keep it busy filling them in).
 */
async function seedReadModel(databaseUrl: string, rows: number): Promise<void> {
  // A million rows and their indexes take longer than the pool's default statement timeout.
  const pool = createPool(databaseUrl, { max: 1, statementTimeoutMs: 0 });
  try {
    await pool.query(
      `INSERT INTO reports.occurrences (id, sample_id, website_id, survey_id, survey_title, taxa_taxon_list_id, taxon, preferred_taxon,
         default_common_name, taxon_group, taxon_external_key, date_start, date_end, date_type, entered_sref, entered_sref_system,
         location_name, lat, lon, record_status, confidential, release_status, zero_abundance, training, created_by_id, created_on, updated_on,
         attrs, sample_attrs)
       SELECT 100000000 + n, 100000000 + n / 3, $1, $2, 'Garden birds', 1 + n % 4, (ARRAY['Erithacus rubecula','Turdus merula','Parus major','Cyanistes caeruleus'])[1 + n % 4],
              NULL, NULL, 'birds', 'NHMSYS0000530420', DATE '2020-01-01' + (n % 2000), DATE '2020-01-01' + (n % 2000), 'D', 'SU1234', 'OSGB',
              'Bench site ' || (n % 100), 51.1, -1.8, 'C', false, 'R', false, false, $3, now(), now(),
              '{}', '{}'
         FROM generate_series(1, $4::int) AS n
       ON CONFLICT (id) DO NOTHING`,
      [DEMO.websiteId, DEMO.surveyId, DEMO.userId, rows],
    );
    // As autovacuum leaves a table a while after its rows came: pages known to be visible to all, for index-only scans.
    await pool.query('VACUUM ANALYZE reports.occurrences');
  } finally {
    await pool.end();
  }
}

/** Resident memory (VmRSS) of a process, in MB. */
function rssMb(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return NaN;
  }
}

/** Each service's log lines (warnings and errors, at LOG_LEVEL warn), the first few of each, for the end of the report. */
function serviceWarnings(logs: string): string {
  const said: string[] = [];
  for (const file of existsSync(logs) ? readdirSync(logs).filter((name) => name.endsWith('.log')).sort() : []) {
    const lines = readFileSync(join(logs, file), 'utf8').split('\n').filter(Boolean);
    if (lines.length) said.push(`${file}: ${lines.length} lines`, ...lines.slice(0, 5).map((line) => `  ${line.slice(0, 400)}`));
  }
  return said.length ? `\nWhat the services logged:\n${said.join('\n')}\n` : '';
}

/** Streams a CSV report to the end, counting rows, with the gateway's and reports' memory meanwhile. */
async function streamCsv(url: string, headers: Record<string, string>, suite: { processes: Record<string, ChildProcess> }, metricsUrls: { gateway: string; reports: string }) {
  say(`(s) streaming ${url.split('?')[0].split('/').pop()} as CSV`);
  const read = async () => {
    const started = performance.now();
    const response = await fetch(url, { headers });
    if (!response.ok || !response.body) throw new Error(`CSV report failed: ${response.status} ${await response.text()}`);
    let rows = -1;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      for (const byte of chunk) if (byte === 10) rows += 1;
    }
    return { rows, seconds: (performance.now() - started) / 1000 };
  };
  const gateway = await withPeakRss(suite.processes.gateway.pid, () => withPeakRss(suite.processes.reports.pid, read, metricsUrls.reports), metricsUrls.gateway);
  const reports = gateway.result;
  const { rows, seconds } = reports.result;
  const described = (m: Awaited<ReturnType<typeof withPeakRss>>) =>
    `${m.peakMb} (${m.beforeMb} before, +${m.peakMb - m.beforeMb}; V8 heap ≤ ${m.heapMb}, buffers ≤ ${m.externalMb})`;
  return { rows, rowsPerSecond: rows / seconds, gatewayMb: described(gateway), reportsMb: described(reports) };
}

/** A multipart body holding one JPEG of `size` bytes, as a phone app sends a photo. */
function photoUpload(size: number): { body: Buffer; contentType: string } {
  const boundary = 'rexbench7f3a';
  const photo = Buffer.alloc(size, 0x20);
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]).copy(photo);
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  return { body: Buffer.concat([Buffer.from(head), photo, Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Uploads from `clients` slow clients at once, each sending bodies one after another at
 * `bytesPerSecond` (a phone's upload) for about `seconds`: the uploads completed a second, and how
 * many the clients' rate allows. A gateway that made slow clients wait for one another reads far
 * fewer than they allow.
 */
async function slowUploads(
  url: string,
  authorization: string,
  upload: { body: Buffer; contentType: string },
  clients: number,
  bytesPerSecond: number,
  seconds: number,
): Promise<{ perSecond: number; allowed: number; errors: number }> {
  const PIECE = 16 * 1024;
  const started = Date.now();
  let completed = 0;
  let errors = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const req = request(url, { method: 'POST', headers: { authorization, 'content-type': upload.contentType, 'content-length': String(upload.body.length) } }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) completed++;
          else errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      let at = 0;
      const next = () => {
        if (at >= upload.body.length) return void req.end();
        req.write(upload.body.subarray(at, at + PIECE));
        at += PIECE;
        setTimeout(next, (PIECE / bytesPerSecond) * 1000);
      };
      next();
    });
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() - started < seconds * 1000) await one();
    }),
  );
  return { perSecond: completed / ((Date.now() - started) / 1000), allowed: (clients * bytesPerSecond) / upload.body.length, errors };
}

/** A process's V8 heap in use and its memory outside the heap (buffers), in MB, from its metrics. */
async function heapAndExternalMb(metricsUrl: string): Promise<{ heapMb: number; externalMb: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const mb = (name: string) => Math.round(Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? 0) / 1024 / 1024);
  return { heapMb: mb('nodejs_heap_size_used_bytes'), externalMb: mb('nodejs_external_memory_bytes') };
}

/**
 * Runs `work` while sampling a process's resident memory; answers the peak and the value before,
 * and with `metricsUrl` the most the process's V8 heap and its buffers held meanwhile.
 */
async function withPeakRss<T>(
  pid: number | undefined,
  work: () => Promise<T>,
  metricsUrl?: string,
): Promise<{ result: T; beforeMb: number; peakMb: number; heapMb?: number; externalMb?: number }> {
  const beforeMb = rssMb(pid);
  let peakMb = beforeMb;
  const inside = { heapMb: 0, externalMb: 0 };
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 50);
  const metricsSampler = metricsUrl
    ? setInterval(() => {
        heapAndExternalMb(metricsUrl).then(({ heapMb, externalMb }) => {
          inside.heapMb = Math.max(inside.heapMb, heapMb);
          inside.externalMb = Math.max(inside.externalMb, externalMb);
        }, () => undefined);
      }, 250)
    : undefined;
  try {
    return { result: await work(), beforeMb, peakMb, ...(metricsUrl ? inside : {}) };
  } finally {
    clearInterval(sampler);
    clearInterval(metricsSampler);
  }
}

const STAGE_ATTRIBUTE = 90;

/** A second occurrence attribute on the demo survey, for the 10-occurrence submission. */
async function seedAttribute(databaseUrl: string): Promise<void> {
  const pool = createPool(databaseUrl, { max: 1 });
  try {
    await importFixtures(pool, parseFixtures({ attributes: [{ id: STAGE_ATTRIBUTE, entity: 'occurrence', caption: 'Stage', data_type: 'T', survey_ids: [DEMO.surveyId] }] }));
  } finally {
    await pool.end();
  }
}

/** A database client with a key and a connection, for jwtClient and directClient. */
async function seedClient(databaseUrl: string): Promise<{ privateKey: string }> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const pool = createPool(databaseUrl, { max: 1 });
  try {
    await importFixtures(
      pool,
      parseFixtures({
        clients: [{ id: 1, username: 'bench', secret: 'bench-secret', public_key: publicKey, connections: [{ proj_id: 'B', website_id: DEMO.websiteId, title: 'Bench' }] }],
      }),
    );
  } finally {
    await pool.end();
  }
  return { privateKey };
}

/** One feed entry per seeded read-model occurrence from `first` on (ids as seedReadModel gives them), then the projector's notification. */
async function seedFeed(databaseUrl: string, first: number, count: number): Promise<void> {
  const pool = createPool(databaseUrl, { max: 1 });
  try {
    await pool.query(
      `INSERT INTO reports.changes (entity, entity_id, operation, website_id, created_by_id, occurred_on)
       SELECT 'occurrence', 100000000 + n, 'created', $1, $2, now() FROM generate_series($3::int, $3::int + $4::int - 1) AS n ORDER BY n`,
      [DEMO.websiteId, DEMO.userId, first, count],
    );
    await pool.query("SELECT pg_notify('rex_changes', NULL)");
  } finally {
    await pool.end();
  }
}

/** Reads the feed from `cursor` until `count` changes came (or it ends); changes per second. */
async function readFeed(services: string, headers: Record<string, string>, cursor: string, count: number): Promise<{ changes: number; perSecond: number }> {
  const started = performance.now();
  let changes = 0;
  for (;;) {
    const page = (await (await fetch(`${services}/changes?cursor=${cursor}&limit=1000`, { headers })).json()) as { changes: unknown[]; next_cursor: string; has_more: boolean };
    changes += page.changes.length;
    cursor = page.next_cursor;
    if (!page.has_more || changes >= count) break;
  }
  return { changes, perSecond: changes / ((performance.now() - started) / 1000) };
}

/** The same read-model rows in pages of 1000 straight from pg: the floor of the feed. */
async function readRowsFloor(databaseUrl: string, count: number): Promise<number> {
  const pool = createPool(databaseUrl, { max: 1 });
  try {
    const started = performance.now();
    let after = 100_000_000;
    for (let read = 0; read < count; read += 1000) {
      const { rows } = await pool.query<{ id: string }>('SELECT o.id, to_jsonb(o) AS record FROM reports.occurrences o WHERE o.id > $1 ORDER BY o.id LIMIT 1000', [after]);
      if (!rows.length) break;
      after = Number(rows[rows.length - 1].id);
    }
    return count / ((performance.now() - started) / 1000);
  } finally {
    await pool.end();
  }
}

/** A webhook receiver on loopback answering 204, counting the messages it got. */
async function startReceiver(): Promise<{ url: string; received: () => number; close: () => void }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received: () => received, close: () => server.close() };
}

/** The floor of delivery: the same signed messages POSTed one after another from this process. */
async function postFloor(url: string, count: number): Promise<number> {
  const key = randomBytes(32);
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({ type: 'occurrence.created', timestamp: new Date().toISOString(), data: { entity: 'occurrence', id: String(i), operation: 'created', values: { id: String(i) } } });
    const id = `msg_${i}`;
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature }, body });
    await response.body?.cancel();
  }
  return count / ((performance.now() - started) / 1000);
}

function startProcess(script: string, env: Record<string, string>): Promise<ChildProcess> {
  // REX_CPU_PROFILE_DIR profiles the floors' processes as it does the services (written when they stop).
  const profile = process.env.REX_CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.REX_CPU_PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, ['--conditions=development', '--disable-warning=ExperimentalWarning', ...profile, join(HERE, 'floors', script)], {
    cwd: HERE,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    child.stdout!.once('data', () => resolve(child));
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'rex-bench-'));
let embedded: EmbeddedDatabase | undefined;
let serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  say('no DATABASE_URL: using the embedded PostgreSQL');
  embedded = await startEmbeddedPostgres({ dataDir });
  serverUrl = embedded.url;
}
const databaseName = `rex_bench_${Date.now()}`;
const SUITE_ENV: Record<string, string> = process.env.BENCH_SUITE_ENV ? JSON.parse(process.env.BENCH_SUITE_ENV) : {};
/** The allocator of every service process, replicas too: the images', unless BENCH_SUITE_ENV sets it. */
const ALLOCATOR = (() => {
  if (!('LD_PRELOAD' in SUITE_ENV || 'MALLOC_CONF' in SUITE_ENV)) return imageAllocator(say);
  const env: Record<string, string> = { LD_PRELOAD: SUITE_ENV.LD_PRELOAD ?? '', ...(SUITE_ENV.MALLOC_CONF ? { MALLOC_CONF: SUITE_ENV.MALLOC_CONF } : {}) };
  return { env, described: `as BENCH_SUITE_ENV sets it (LD_PRELOAD=${env.LD_PRELOAD || "'': glibc's malloc"}${env.MALLOC_CONF ? `, MALLOC_CONF=${env.MALLOC_CONF}` : ''})` };
})();
const databaseUrl = await createDatabase(serverUrl, databaseName);
const children: ChildProcess[] = [];
const reportsMetricsPort = await freePort();
const gatewayMetricsPort = await freePort();
/** What the run leaves nothing of: its database, the embedded server and the data directory. */
async function cleanUp(): Promise<void> {
  await dropDatabase(serverUrl!, databaseName).catch(() => undefined);
  await embedded?.stop();
  removeDataDirectory(dataDir);
}
let stopServices = async (): Promise<void> => undefined;
cleanUpOnInterrupt(async () => {
  await stopServices();
  await cleanUp();
});
const suite = await startSuite({
  dataDir,
  databaseUrl,
  metricsPorts: { reports: reportsMetricsPort, gateway: gatewayMetricsPort },
  logs: join(dataDir, 'logs'),
  env: {
    LOG_LEVEL: 'warn',
    DB_POOL_MAX: '10',
    REX_CONFIG: join(HERE, 'rest.yaml'),
    // The webhook receiver of (w) listens on loopback.
    WEBHOOKS_ALLOW_HTTP: 'true',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    // (u) uploads far more than an uploader's hourly quota allows: measured are uploads, not refusals.
    MEDIA_UPLOAD_QUOTA_BYTES_PER_HOUR: String(1024 ** 4),
    ...ALLOCATOR.env,
    ...SUITE_ENV,
  },
  // Each process with the NODE_OPTIONS its chart gives it (heap limit, young generation), unless BENCH_SUITE_ENV sets them ("": V8's defaults).
  serviceEnv: 'NODE_OPTIONS' in SUITE_ENV ? {} : chartServiceEnv(),
}).catch(async (error: unknown) => {
  await cleanUp();
  throw error;
});
stopServices = async () => {
  for (const child of children) child.kill('SIGTERM');
  await suite.stop();
};

try {
  // Before the first request, so that records' reference cache already knows the attribute.
  await seedAttribute(databaseUrl);
  const token = await demoToken(suite.demoPrivateKey);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const services = `${suite.gatewayUrl}/index.php/services/rest`;
  const sample = (occurrences: number) =>
    JSON.stringify({
      values: { survey_id: DEMO.surveyId, date: '2026-05-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB', 'smpAttr:2': 'Sunny' },
      occurrences: Array.from({ length: occurrences }, (_, i) => ({ values: { taxa_taxon_list_id: i + 1, 'occAttr:1': String(i + 1) } })),
    });
  const created = await fetch(`${services}/samples`, { method: 'POST', headers, body: sample(2) });
  const id = ((await created.json()) as { values: { id: string } }).values.id;
  // (a) and its floors read these in turn: no two reads running at once ask for the same record.
  const ids = await createSamples(services, headers, sample(2), READ_SAMPLES);

  const results: Result[] = [];
  const skipped = (key: string): Result => ({ name: `(${key}) skipped`, rps: NaN, p50: NaN, p99: NaN, errors: 0, statuses: '' });
  const run = async (key: string, name: string, options: () => Promise<autocannon.Options> | autocannon.Options, expected = 200) =>
    results.push(ONLY.has(key) ? await load(`(${key}) ${name}`, await options(), expected) : skipped(key));
  const getOptions = () => ({ ...throughIds(suite.gatewayUrl, ids, (one) => `/index.php/services/rest/samples/${one}`), headers });
  // The read floor's processes start once, for whichever of (a), (b) and (h) runs it first.
  let readFloorUrl: Promise<string> | undefined;
  const readFloor = async () => {
    readFloorUrl ??= (async () => {
      const backendPort = await freePort();
      children.push(await startProcess('pg-server.ts', { PORT: String(backendPort), DATABASE_URL: databaseUrl }));
      const port = await freePort();
      children.push(await startProcess('express-grpc.ts', { PORT: String(port), BACKEND_PORT: String(backendPort), METHOD: '/bench.Samples/Get' }));
      return `http://127.0.0.1:${port}`;
    })();
    return throughIds(await readFloorUrl, ids, (one) => `/samples/${one}`);
  };
  /** A path and the read floor (h) in turn (inTurn): the path's median, the floor's, and the path's ratio to the floor by round. */
  const withReadFloor = async (key: string, path: Contender) => {
    const floorOptions = { ...(await readFloor()), ...(path.options.connections && { connections: path.options.connections }) };
    const measured = await inTurn([path, { name: '(h) floor: Express → grpc-js → pg SELECT', options: floorOptions }], DURATION);
    const [own, floor] = measured.map((one) => one.median);
    return {
      own: { ...own, name: `${own.name} (median of ${ROUNDS} runs in turn with (h))` },
      floor: { ...floor, name: `${floor.name} (median of ${ROUNDS} runs in turn with (${key}))` },
      rounds: measured[0].runs.map((run, i) => (run.rps / measured[1].runs[i].rps).toFixed(2)).join(', '),
    };
  };
  // (a) and its floor (h) run in turn, so that a/h holds while the machine's speed drifts; (h) keeps its place among the floors.
  let readFloorResult: Result | undefined;
  let readRounds = '';
  let fewReadRatio = '';
  /** (a) and (h) with FEW_CONNECTIONS, printed after the others (results are read by place below). */
  const fewResults: Result[] = [];
  if (ONLY.has('a') && ONLY.has('h')) {
    const measured = await withReadFloor('a', { name: '(a) GET /samples/<id> via gateway', options: getOptions() });
    results.push(measured.own);
    readFloorResult = measured.floor;
    readRounds = measured.rounds;
    // The same pair with fewer clients at once, where each request waits on the whole chain of processes.
    const few = await withReadFloor('a', { name: `(a) GET /samples/<id> via gateway, ${FEW_CONNECTIONS} connections`, options: { ...getOptions(), connections: FEW_CONNECTIONS } });
    fewResults.push(few.own, { ...few.floor, name: few.floor.name.replace('(h) floor', `(h) floor, ${FEW_CONNECTIONS} connections`) });
    fewReadRatio = `a/h at ${FEW_CONNECTIONS} connections = ${(few.own.rps / few.floor.rps).toFixed(2)} (by round: ${few.rounds}; target ≥ 0.9), p99 a/h = ${(few.own.p99 / few.floor.p99).toFixed(2)}`;
  } else {
    await run('a', 'GET /samples/<id> via gateway', getOptions);
  }
  // (b) and (h) run in turn too, each (b) followed by the projector applying its writes, so that (h) runs on a quiet machine.
  const postOptions = () => ({ url: `${services}/samples`, method: 'POST' as const, headers, body: sample(2) });
  let writeFloorResult: Result | undefined;
  let writeRounds = '';
  if (ONLY.has('b') && ONLY.has('h')) {
    const measured = await withReadFloor('b', {
      name: '(b) POST /samples, 2 occurrences',
      options: postOptions(),
      expected: 201,
      around: async (measure) => {
        const result = await measure();
        await projectorCaughtUp(databaseUrl);
        return result;
      },
    });
    results.push(measured.own);
    writeFloorResult = measured.floor;
    writeRounds = measured.rounds;
  } else {
    await run('b', 'POST /samples, 2 occurrences', postOptions, 201);
  }

  await run('e', 'POST /samples, 10 occurrences × 2 attributes', async () => {
    const body = JSON.stringify({
      values: { survey_id: DEMO.surveyId, date: '2026-05-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB' },
      occurrences: Array.from({ length: 10 }, (_, i) => ({ values: { taxa_taxon_list_id: (i % 4) + 1, 'occAttr:1': String(i), [`occAttr:${STAGE_ATTRIBUTE}`]: 'adult' } })),
    });
    return { url: `${services}/samples`, method: 'POST', headers, body };
  }, 201);
  await run('f', 'GET /occurrences?limit=100', () => ({ url: `${services}/occurrences?limit=100`, headers }));
  // The floors, like (a), run on a machine where nothing else is at work.
  const catchUp = ONLY.has('b') || ONLY.has('e') ? await projectorCaughtUp(databaseUrl) : 0;
  if (catchUp) say(`the projector applied the writes' backlog ${catchUp.toFixed(1)} s after (f)`);
  await run('c', 'floor: Express → grpc-js echo', async () => {
    const echoPort = await freePort();
    children.push(await startProcess('echo-server.ts', { PORT: String(echoPort) }));
    const port = await freePort();
    children.push(await startProcess('express-grpc.ts', { PORT: String(port), BACKEND_PORT: String(echoPort) }));
    return { url: `http://127.0.0.1:${port}/echo/${id}` };
  });
  await run('d', 'floor: Express → pg SELECT', async () => {
    const port = await freePort();
    children.push(await startProcess('express-pg.ts', { PORT: String(port), DATABASE_URL: databaseUrl }));
    return throughIds(`http://127.0.0.1:${port}`, ids, (one) => `/samples/${one}`);
  });
  if (readFloorResult) results.push(readFloorResult);
  else await run('h', 'floor: Express → grpc-js → pg SELECT', readFloor);
  if (writeFloorResult) results.push(writeFloorResult);

  const tracing = ONLY.has('t') ? await tracingCost(suite.internalSecret, databaseUrl, `/samples/${id}`, headers) : '';

  let uploadMemory = '';
  if (ONLY.has('u')) {
    const upload = photoUpload(2 * 1024 * 1024);
    const measured = await withPeakRss(suite.processes.gateway.pid, () =>
      load('(u) POST /media-queue, one 2 MB JPEG', {
        url: `${services}/media-queue`,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': upload.contentType },
        body: upload.body,
      }),
      `http://127.0.0.1:${gatewayMetricsPort}/metrics`,
    );
    results.push(measured.result);
    uploadMemory =
      `Gateway resident memory during (u): ${measured.beforeMb} MB before, ${measured.peakMb} MB at peak, growth ${measured.peakMb - measured.beforeMb} MB ` +
      `(target ≥ 60 uploads/s, growth ≤ 50 MB); its V8 heap held up to ${measured.heapMb} MB and its buffers up to ${measured.externalMb} MB`;
    // The same uploads from slow clients (1 MiB a second each, as phones send): once judged slow, each is read as it comes.
    say(`(u) the same from ${UPLOAD_SLOW_CLIENTS} clients sending 1 MiB a second each, for ${DURATION} s`);
    const slow = await withPeakRss(
      suite.processes.gateway.pid,
      () => slowUploads(`${services}/media-queue`, `Bearer ${token}`, upload, UPLOAD_SLOW_CLIENTS, 1024 * 1024, DURATION),
      `http://127.0.0.1:${gatewayMetricsPort}/metrics`,
    );
    uploadMemory +=
      `\n(u) from ${UPLOAD_SLOW_CLIENTS} slow clients (1 MiB a second each): ${slow.result.perSecond.toFixed(1)} uploads a second of the ${slow.result.allowed.toFixed(1)} their rate allows ` +
      `(${(slow.result.perSecond / slow.result.allowed).toFixed(2)}), errors ${slow.result.errors}; gateway ${slow.beforeMb} → ${slow.peakMb} MB`;
  }

  const lag = await projectorLag(`http://127.0.0.1:${reportsMetricsPort}/metrics`);

  const reportResults: string[] = [];
  /** The report page's floor (p): its processes (stopped once measured), and its address. */
  const pageFloorProcesses: ChildProcess[] = [];
  const reportPageFloor = async (parameters: Record<string, string>, limit: number): Promise<autocannon.Options> => {
    const start = async (script: string, env: Record<string, string>) => {
      const child = await startProcess(script, env);
      children.push(child);
      pageFloorProcesses.push(child);
    };
    const backendPort = await freePort();
    await start('report-server.ts', {
      PORT: String(backendPort),
      DATABASE_URL: databaseUrl,
      INTERNAL_AUTH_SECRET: suite.internalSecret,
      REPORT: 'library/occurrences/filterable_explore_list',
      PARAMETERS: JSON.stringify(parameters),
      LIMIT: String(limit),
      WEBSITE_ID: String(DEMO.websiteId),
      USER_ID: String(DEMO.userId),
    });
    const port = await freePort();
    await start('express-grpc.ts', { PORT: String(port), BACKEND_PORT: String(backendPort), METHOD: '/bench.Reports/Page' });
    return { url: `http://127.0.0.1:${port}/report/page` };
  };
  /** Throws unless the floor answers the rows the suite's page does: it would not be the page's floor. */
  const samePageRows = async (page: autocannon.Options, floor: autocannon.Options) => {
    const ids = async (options: autocannon.Options) => {
      const response = await fetch(options.url, { headers: options.headers as Record<string, string> });
      if (!response.ok) throw new Error(`${options.url}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { data: { occurrence_id: unknown }[] }).data.map((row) => String(row.occurrence_id)).join(',');
    };
    const [own, floors] = [await ids(page), await ids(floor)];
    if (!own || own !== floors) throw new Error(`the report page's floor answers other rows than the page: ${floors.slice(0, 80)} against ${own.slice(0, 80)}`);
  };
  if (ONLY.has('r') || ONLY.has('s')) {
    // (o) runs after (r), on its seeded read model.
    const explore = `${services}/reports/library/occurrences/filterable_explore_list.xml`;
    if (ONLY.has('r')) {
      say(`seeding ${REPORT_ROWS} occurrences into the read model`);
      await seedReadModel(databaseUrl, REPORT_ROWS);
      const countsBefore = await reportCounts(`http://127.0.0.1:${reportsMetricsPort}/metrics`);
      // One species in one month of one website's records: a page a recording website shows.
      const pageParameters = { taxa_taxon_list_id: '1', date_from: '2021-03-01', date_to: '2021-03-31' };
      const pageOptions = { url: `${explore}?${new URLSearchParams({ ...pageParameters, limit: '100' })}`, headers };
      // (r) and its floor (p) run in turn, as (a) and (h) do, once the floor is seen to answer the same rows.
      const pageFloor = await reportPageFloor(pageParameters, 100);
      await samePageRows(pageOptions, pageFloor);
      const [result, floor] = await inTurn(
        [
          { name: `(r) filtered report page over ${REPORT_ROWS} occurrences`, options: pageOptions },
          { name: '(p) floor: Express → grpc-js → pg, the page\'s statement', options: pageFloor },
        ],
        DURATION,
      );
      // The page's count is kept between pages (REPORT_COUNT_CACHE_MS; BENCH_SUITE_ENV='{"REPORT_COUNT_CACHE_MS":"0"}' counts every page).
      const countsNote = (before: Awaited<ReturnType<typeof reportCounts>>, after: Awaited<ReturnType<typeof reportCounts>>) =>
        `counts: ${after.database - before.database} made, ${after.shared - before.shared} shared with a page counting, ${after.cache - before.cache} kept from an earlier page`;
      const countsAfter = await reportCounts(`http://127.0.0.1:${reportsMetricsPort}/metrics`);
      const pageRounds = result.runs.map((run, i) => (run.rps / floor.runs[i].rps).toFixed(2)).join(', ');
      reportResults.push(
        `| ${result.median.name} (median of ${ROUNDS} runs in turn with (p); ${countsNote(countsBefore, countsAfter)}) | ${result.median.rps.toFixed(0)} | ${result.median.p50} | ${result.median.p99} | ${result.median.errors} |`,
        `| ${floor.median.name} (median of ${ROUNDS} runs in turn with (r); r/p = ${(result.median.rps / floor.median.rps).toFixed(2)}, by round ${pageRounds}) | ${floor.median.rps.toFixed(0)} | ${floor.median.p50} | ${floor.median.p99} | ${floor.median.errors} |`,
      );
      await Promise.all(pageFloorProcesses.splice(0).map(stopChild));
      // Every batch the projector applies forgets the counts kept: pages count again, and those that ask meanwhile share that count.
      const writing = writeSteadily(`${services}/samples`, headers, sample(2), WRITES_PER_SECOND);
      const underWrites = await load(`(r) the same page while ${WRITES_PER_SECOND} samples a second are written`, pageOptions);
      const written = await writing.stop();
      const countsUnderWrites = await reportCounts(`http://127.0.0.1:${reportsMetricsPort}/metrics`);
      reportResults.push(
        `| ${underWrites.name} (${countsNote(countsAfter, countsUnderWrites)}; ${written} samples written) | ${underWrites.rps.toFixed(0)} | ${underWrites.p50} | ${underWrites.p99} | ${underWrites.errors} |`,
      );
      const caughtUp = await projectorCaughtUp(databaseUrl);
      if (caughtUp) say(`the projector applied the report run's writes ${caughtUp.toFixed(1)} s after it`);
      if (ONLY.has('o')) {
        const [replicaPort, replicaMetricsPort] = [await freePort(), await freePort()];
        const secret = { INTERNAL_AUTH_SECRET: suite.internalSecret, DATABASE_URL: databaseUrl };
        // Stopped once (o) is measured: they would share the machine with what follows, and the extra
        // gateways' webhook deliveries (to https only) would compete for (w)'s subscription and fail it.
        const ofO: ChildProcess[] = [];
        const startForO = (child: ChildProcess) => {
          children.push(child);
          ofO.push(child);
        };
        startForO(startService('reports', { ...secret, GRPC_PORT: String(replicaPort), METRICS_PORT: String(replicaMetricsPort), PROJECTOR_ENABLED: 'false' }));
        // Two gateways started alike, one in front of the suite's replica and one in front of both, so that
        // their ratio is what balancing over two replicas changes (a fresh gateway and replica are not (r)'s).
        const gatewayOf = async (reportsAddr: string, what: string) => {
          const port = await freePort();
          startForO(startService('gateway', { ...secret, GATEWAY_PORT: String(port), METRICS_PORT: '0', RECORDS_ADDR: suite.recordsAddress, REPORTS_ADDR: reportsAddr }));
          await until(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok, what);
          return `http://127.0.0.1:${port}/index.php/services/rest`;
        };
        const viaOne = await gatewayOf(`ipv4:${suite.reportsAddress}`, 'the gateway of one reports replica');
        const viaTwo = await gatewayOf(`ipv4:${suite.reportsAddress},127.0.0.1:${replicaPort}`, 'the gateway of two reports replicas');
        const replicas = [`http://127.0.0.1:${reportsMetricsPort}/metrics`, `http://127.0.0.1:${replicaMetricsPort}/metrics`];
        await until(() => grpcServing(`127.0.0.1:${replicaPort}`, 'reports.v1.ReportsService'), 'the second reports replica');
        const page = `/reports/library/occurrences/filterable_explore_list.xml?taxa_taxon_list_id=1&date_from=2021-03-01&date_to=2021-03-31&limit=100`;
        // Calls each replica answered during the runs through the gateway of two (the other gateway uses the first replica only).
        const served = [0, 0];
        const countingServed = async (run: () => Promise<Result>) => {
          const before = await Promise.all(replicas.map(reportsServed));
          const result = await run();
          (await Promise.all(replicas.map(reportsServed))).forEach((count, i) => (served[i] += count - before[i]));
          return result;
        };
        const [one, two] = (
          await inTurn(
            [
              { name: '(o) the same page through a new gateway, one reports replica', options: { url: `${viaOne}${page}`, headers } },
              { name: '(o) the same page through a new gateway, two reports replicas', options: { url: `${viaTwo}${page}`, headers }, around: countingServed },
            ],
            DURATION,
          )
        ).map((measured) => measured.median);
        const cpuOf = (result: Result) => (result.cpu ? `; CPU a page: ${describeCpu(result.cpu)}` : '');
        reportResults.push(`| ${one.name} (median of ${ROUNDS} runs in turn with the next${cpuOf(one)}) | ${one.rps.toFixed(0)} | ${one.p50} | ${one.p99} | ${one.errors} |`);
        const total = served.reduce((sum, count) => sum + count, 0) || 1;
        const shares = served.map((count) => `${((100 * count) / total).toFixed(0)} %`).join(' / ');
        reportResults.push(
          `| ${two.name} (shares ${shares}; ${(two.rps / one.rps).toFixed(2)} × one replica, target ≥ 1${cpuOf(two)}) | ${two.rps.toFixed(0)} | ${two.p50} | ${two.p99} | ${two.errors} |`,
        );
        await Promise.all(ofO.map(stopChild));
      }
    }
    if (ONLY.has('s')) {
      say(`seeding up to ${STREAM_ROWS} occurrences into the read model`);
      await seedReadModel(databaseUrl, STREAM_ROWS);
      const stream = await streamCsv(`${services}/reports/library/occurrences/occurrence_list.xml?format=csv&wantCount=0&limit=${STREAM_ROWS}`, headers, suite, {
        gateway: `http://127.0.0.1:${gatewayMetricsPort}/metrics`,
        reports: `http://127.0.0.1:${reportsMetricsPort}/metrics`,
      });
      reportResults.push(`| (s) CSV of ${stream.rows} rows | ${stream.rowsPerSecond.toFixed(0)} rows/s | gateway RSS peak ${stream.gatewayMb} MB | reports RSS peak ${stream.reportsMb} MB | target ≥ 100 000 rows/s, each ≤ 150 MB and growth ≤ 30 MB |`);
    }
  }

  const methods: Result[] = [];
  if (ONLY.has('m')) {
    const { privateKey } = await seedClient(databaseUrl);
    const clientToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(`${DEMO.websiteUrl}:bench`)
      .setExpirationTime('1h')
      .sign(await importPKCS8(privateKey, 'RS256'));
    const read = `${services}/samples/999999999`;
    await load('(m) warm-up', { url: read, headers: { authorization: `Bearer ${token}` } }, 404);
    const cases: [string, string, Record<string, string>, number][] = [
      ['directUser', read, { authorization: `USER_ID:${DEMO.userId}:WEBSITE_ID:${DEMO.websiteId}:SECRET:${WEBSITE_PASSWORD}` }, 404],
      ['jwtUser', read, { authorization: `Bearer ${token}` }, 404],
      ['jwtClient', `${read}?proj_id=B`, { authorization: `Bearer ${clientToken}` }, 404],
      ['directClient', `${read}?proj_id=B`, { authorization: 'USER:bench:SECRET:bench-secret' }, 404],
      ['directWebsite', read, { authorization: `WEBSITE_ID:${DEMO.websiteId}:SECRET:${WEBSITE_PASSWORD}` }, 404],
      ['hmacWebsite', read, { authorization: `WEBSITE_ID:${DEMO.websiteId}:HMAC:${createHmac('sha1', WEBSITE_PASSWORD).update(read).digest('hex')}` }, 404],
    ];
    const measured = await inTurn(
      cases.map(([method, url, headers, expected]) => ({ name: `(m) ${method}`, options: { url, headers }, expected })),
      Math.max(3, Math.round(DURATION / 3)),
      // Every method in every place of a round once.
      { rounds: cases.length, rotate: true },
    );
    methods.push(...measured.map((m) => m.median));
  }

  const webhookResults: string[] = [];
  if (ONLY.has('w')) {
    const websiteHeaders = { authorization: `WEBSITE_ID:${DEMO.websiteId}:SECRET:${WEBSITE_PASSWORD}`, 'content-type': 'application/json' };
    say(`(w) seeding ${FEED_CHANGES + DELIVERIES} read-model occurrences`);
    await seedReadModel(databaseUrl, FEED_CHANGES + DELIVERIES);
    const start = ((await (await fetch(`${services}/changes`, { headers: websiteHeaders })).json()) as { next_cursor: string }).next_cursor;
    await seedFeed(databaseUrl, 1, FEED_CHANGES);
    say(`(w) reading ${FEED_CHANGES} changes through GET /changes`);
    const feed = await readFeed(services, websiteHeaders, start, FEED_CHANGES);
    const feedFloor = await readRowsFloor(databaseUrl, FEED_CHANGES);
    webhookResults.push(
      `| (w) GET /changes, pages of 1000 | ${feed.perSecond.toFixed(0)} changes/s (${feed.changes} read) | floor: the same rows from pg ${feedFloor.toFixed(0)} rows/s | ${(feed.perSecond / feedFloor).toFixed(2)} |`,
    );

    const receiver = await startReceiver();
    try {
      const subscribed = await fetch(`${services}/webhooks`, { method: 'POST', headers: websiteHeaders, body: JSON.stringify({ url: receiver.url, event_types: ['occurrence.created'] }) });
      if (subscribed.status !== 201) throw new Error(`cannot subscribe: ${subscribed.status} ${await subscribed.text()}`);
      say(`(w) delivering ${DELIVERIES} changes to a receiver on loopback`);
      const started = performance.now();
      await seedFeed(databaseUrl, FEED_CHANGES + 1, DELIVERIES);
      while (receiver.received() < DELIVERIES && performance.now() - started < 300_000) await new Promise((resolve) => setTimeout(resolve, 20));
      const delivered = receiver.received();
      const perSecond = delivered / ((performance.now() - started) / 1000);
      const floor = await postFloor(receiver.url, Math.min(DELIVERIES, 2_000));
      webhookResults.push(`| (w) webhook delivery, one replica | ${perSecond.toFixed(0)} messages/s (${delivered} of ${DELIVERIES}) | floor: signed POSTs in a row ${floor.toFixed(0)} /s | ${(perSecond / floor).toFixed(2)} |`);
    } finally {
      receiver.close();
    }
  }

  const [a, b, e, f, c, d, h, hWithB] = results;
  // The writes compare with the floor run in turn with (b) when there is one.
  const hw = hWithB ?? h;
  // A ratio of a path or a floor that BENCH_ONLY left out is not measured; its line goes when none of it is.
  const measured = (x: Result) => Number.isFinite(x.rps);
  const ratio = (x: Result, floor: Result) => (measured(x) && measured(floor) ? (x.rps / floor.rps).toFixed(2) : 'not measured');
  const lines = [
    '',
    `rex benchmark — Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${CONNECTIONS} connections, ${DURATION} s each, ${embedded ? 'embedded' : 'external'} PostgreSQL`,
    `Services' allocator: ${ALLOCATOR.described}; the floors' is glibc's malloc`,
    '',
    '| path | req/s | p50 ms | p99 ms | errors |',
    '|---|---:|---:|---:|---:|',
    ...[...results, ...fewResults].map(
      (r) =>
        `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors ? `${r.errors} (answers: ${r.statuses || 'none'})` : 0}${r.warmUp ? `; in the warm-up ${r.warmUp.errors} (answers: ${r.warmUp.statuses || 'none'})` : ''} |`,
    ),
    '',
    `Projector lag while (b) and (e) wrote: p99 ${lag.p99} s over ${lag.events} events (target < 1 s)${catchUp ? `; the last applied ${catchUp.toFixed(1)} s after (f), before the floors ran` : ''}`,
    '',
    ...(tracing ? [tracing, ''] : []),
    ...(uploadMemory ? [uploadMemory, ''] : []),
    ...(reportResults.length ? ['| report | req/s or rows/s | p50 ms / memory | p99 ms / memory | errors or target |', '|---|---:|---:|---:|---:|', ...reportResults, ''] : []),
    ...(webhookResults.length ? ['| change feed and webhooks | rate | floor | ratio |', '|---|---:|---:|---:|', ...webhookResults, ''] : []),
    ...(methods.length
      ? [
          'Authentication methods on the same request (GET /samples/<id of no sample>, 404 after the same hop and lookup):',
          '',
          '| method | req/s | p50 ms | p99 ms | CPU a request (the run of median req/s) | answers | unexpected |',
          '|---|---:|---:|---:|---|---|---:|',
          ...methods.map((r) => `| ${r.name.replace('(m) ', '')} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.cpu ? describeCpu(r.cpu) : 'not read'} | ${r.statuses} | ${r.errors} |`),
          '',
          `slowest/fastest method = ${(Math.min(...methods.map((r) => r.rps)) / Math.max(...methods.map((r) => r.rps))).toFixed(2)} (target ≥ 0.9)`,
          '',
        ]
      : []),
    ...(measured(a) && (measured(c) || measured(d)) ? [`a/c = ${ratio(a, c)}   a/d = ${ratio(a, d)}`] : []),
    ...([a, b, e].some(measured) && measured(h)
      ? [
          `against the read path's floor (h): a/h = ${ratio(a, h)}${readRounds ? ` (by round: ${readRounds})` : ''} (target ≥ 0.9), p99 a/h = ${measured(a) ? (a.p99 / h.p99).toFixed(2) : 'not measured'} (target ≤ 1.5); ` +
            `b/h = ${ratio(b, hw)}${writeRounds ? ` (by round: ${writeRounds})` : ''} (target ≥ 0.35, p99 ≤ 100 ms: ${measured(b) ? `${b.p99} ms` : 'not measured'}); e/h = ${ratio(e, hw)} (target ≥ 0.15)`,
          ...(fewReadRatio ? [fewReadRatio] : []),
          '',
          'CPU per request by process (the run of median req/s; postgres is every server process, the suite idles beside the floors):',
          ...[a, h, ...fewResults, b, ...(hWithB ? [hWithB] : []), e, f].filter((r) => measured(r) && r.cpu).map((r) => `- ${r.name}: ${describeCpu(r.cpu!)}`),
        ]
      : []),
    '',
  ];
  process.stdout.write(lines.join('\n'));
} finally {
  for (const child of children) child.kill('SIGTERM');
  await suite.stop();
  // The services log at warn: what they said is why a run counted errors (the logs go with the data directory).
  process.stdout.write(serviceWarnings(join(dataDir, 'logs')));
  await cleanUp();
}
