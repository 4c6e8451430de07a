// `pnpm bench`: the suite on a real PostgreSQL under load, against two floors.
//   (a) GET  /samples/<id> through the gateway with jwtUser
//   (b) POST /samples with 2 occurrences through the gateway with jwtUser
//   (c) floor: bare Express → one grpc-js unary call to an echo server in another process
//   (d) floor: bare Express → the same SELECT by id straight on pg
// BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS (default 32) and BENCH_ONLY (e.g. `a,c`) tune the run.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createDatabase, dropDatabase, freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '@rex/db';
import { DEMO } from '@rex/admin';
import { demoToken } from '../scripts/demo-token.ts';
import { startSuite } from '../scripts/suite.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'a,b,c,d').split(','));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const say = (message: string) => process.stderr.write(`[bench] ${message}\n`);

type Result = { name: string; rps: number; p50: number; p99: number; errors: number };

async function load(name: string, options: autocannon.Options): Promise<Result> {
  say(`${name}: ${CONNECTIONS} connections for ${DURATION} s`);
  await autocannon({ ...options, connections: CONNECTIONS, duration: Math.min(2, DURATION) }); // warm-up
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

function startProcess(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=development', '--disable-warning=ExperimentalWarning', join(HERE, 'floors', script)], {
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
const databaseUrl = await createDatabase(serverUrl, databaseName);
const children: ChildProcess[] = [];
const suite = await startSuite({ dataDir, databaseUrl, logs: join(dataDir, 'logs'), env: { LOG_LEVEL: 'warn', DB_POOL_MAX: '10', ...(process.env.BENCH_SUITE_ENV ? JSON.parse(process.env.BENCH_SUITE_ENV) : {}) } });

try {
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

  const results: Result[] = [];
  const skipped = (key: string): Result => ({ name: `(${key}) skipped`, rps: NaN, p50: NaN, p99: NaN, errors: 0 });
  const run = async (key: string, name: string, options: () => Promise<autocannon.Options> | autocannon.Options) =>
    results.push(ONLY.has(key) ? await load(`(${key}) ${name}`, await options()) : skipped(key));
  await run('a', 'GET /samples/<id> via gateway', () => ({ url: `${services}/samples/${id}`, headers }));
  await run('b', 'POST /samples, 2 occurrences', () => ({ url: `${services}/samples`, method: 'POST', headers, body: sample(2) }));

  await run('c', 'floor: Express → grpc-js echo', async () => {
    const echoPort = await freePort();
    children.push(await startProcess('echo-server.ts', { PORT: String(echoPort) }));
    const port = await freePort();
    children.push(await startProcess('express-grpc.ts', { PORT: String(port), ECHO_PORT: String(echoPort) }));
    return { url: `http://127.0.0.1:${port}/echo/${id}` };
  });
  await run('d', 'floor: Express → pg SELECT', async () => {
    const port = await freePort();
    children.push(await startProcess('express-pg.ts', { PORT: String(port), DATABASE_URL: databaseUrl }));
    return { url: `http://127.0.0.1:${port}/samples/${id}` };
  });

  const [a, b, c, d] = results;
  const lines = [
    '',
    `rex benchmark — Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${CONNECTIONS} connections, ${DURATION} s each, ${embedded ? 'embedded' : 'external'} PostgreSQL`,
    '',
    '| path | req/s | p50 ms | p99 ms | errors |',
    '|---|---:|---:|---:|---:|',
    ...results.map((r) => `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} |`),
    '',
    `a/c = ${(a.rps / c.rps).toFixed(2)}   a/d = ${(a.rps / d.rps).toFixed(2)}   (targets: GET ≥ 2000 req/s, p99 ≤ 50 ms; POST ≥ 600 req/s, p99 ≤ 120 ms; a/c ≥ 0.7)`,
    `GET ${a.rps >= 2000 && a.p99 <= 50 ? 'meets' : 'misses'} its target; POST ${b.rps >= 600 && b.p99 <= 120 ? 'meets' : 'misses'} its target; a/c ${a.rps / c.rps >= 0.7 ? 'meets' : 'misses'} its target.`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
} finally {
  for (const child of children) child.kill('SIGTERM');
  await suite.stop();
  await dropDatabase(serverUrl, databaseName).catch(() => undefined);
  await embedded?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
