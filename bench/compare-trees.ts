// Compares two checkouts of rex on the same load in one sitting: each runs its own suite (its
// `npm start`, on a database of its own on DATABASE_URL's server), and the same GET and POST loads
// are sent to one and then the other, pair after pair, so that drift on a shared machine falls on
// both alike. Prints, per pair and as medians, requests per second, p99 and the CPU time of each
// suite's processes per request (from /proc), and the ratios of the second tree to the first.
//
//   node bench/compare-trees.ts <tree A> <tree B> [pairs (6)]
//   (each tree with its packages installed; DATABASE_URL's server on this machine, whose backends' CPU is counted as "postgres"; BENCH_CONNECTIONS, default 32; COMPARE_SECONDS, default 5, per run; COMPARE_KINDS, default "get,post" ("missing": GETs of a sample that does not exist, answered 404);
//   COMPARE_CPU_PROFILE_DIR=<dir> writes a V8 CPU profile of every process of tree A to <dir>/a and of B to <dir>/b;
//   COMPARE_NODE_OPTIONS_A and _B give each suite's processes NODE_OPTIONS of their own, and COMPARE_ENV_A and _B (JSON
//   objects) variables of their own, to compare settings on one tree — e.g. tracing on against off)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase, dropDatabase, freePort } from '@rex/db';
import { processCpu } from './process-cpu.ts';

const [treeA, treeB, pairsArg] = process.argv.slice(2);
const server = process.env.DATABASE_URL;
if (!treeA || !treeB || !server) {
  process.stderr.write('usage: DATABASE_URL=<server> node bench/compare-trees.ts <tree A> <tree B> [pairs]\n');
  process.exit(2);
}
const PAIRS = Number(pairsArg ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.COMPARE_SECONDS ?? 5);
type Kind = 'get' | 'post' | 'missing';
const KINDS = (process.env.COMPARE_KINDS ?? 'get,post').split(',') as Kind[];
const PROFILE_DIR = process.env.COMPARE_CPU_PROFILE_DIR;
const say = (message: string) => process.stderr.write(`[compare] ${message}\n`);

type Suite = { tree: string; child: ChildProcess; url: string; token: string; sampleIds: string[]; database: string; dataDir: string };

/** Every process below `pid` (the suite's launcher, its services). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(/\) \S+ (\d+)/.exec(readFileSync(`/proc/${entry}/stat`, 'utf8'))?.[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const all: number[] = [];
  const walk = (id: number) => {
    for (const child of children.get(id) ?? []) {
      all.push(child);
      walk(child);
    }
  };
  walk(pid);
  return all;
}

const monitor = new pg.Pool({ connectionString: server, max: 1 });
const BACKEND = 'postgres:';

/**
 * CPU seconds each of the suite's processes has used so far, by service (the launchers as
 * "launcher"), and its database's backends (on this machine) as "postgres".
 */
async function cpuSeconds(suite: Suite): Promise<Map<string, number>> {
  const used = new Map<string, number>();
  const { rows } = await monitor.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [suite.database]);
  // Each backend apart: one that ends between two readings must not count its whole life as negative.
  for (const { pid } of rows) {
    const seconds = processCpu(pid);
    if (seconds !== undefined) used.set(`${BACKEND}${pid}`, seconds);
  }
  for (const pid of descendants(suite.child.pid!)) {
    try {
      const service = /\/services\/([^/]+)$/.exec(readlinkSync(`/proc/${pid}/cwd`))?.[1] ?? 'launcher';
      used.set(service, (used.get(service) ?? 0) + (processCpu(pid) ?? 0));
    } catch {
      // gone meanwhile
    }
  }
  return used;
}

async function startTree(tree: string, label: string): Promise<Suite> {
  const database = `rex_compare_${label}_${Date.now()}`;
  const databaseUrl = await createDatabase(server!, database);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `rex-compare-${label}-`));
  say(`${label}: starting ${tree}`);
  const child = spawn(process.execPath, [join(tree, 'scripts', 'bootstrap.mjs'), 'start'], {
    cwd: tree,
    env: {
      ...process.env,
      ...(JSON.parse(process.env[`COMPARE_ENV_${label.toUpperCase()}`] ?? '{}') as Record<string, string>),
      DATABASE_URL: databaseUrl,
      GATEWAY_PORT: String(port),
      REX_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: process.env[`COMPARE_NODE_OPTIONS_${label.toUpperCase()}`] ?? '',
      // Node refuses --cpu-prof in NODE_OPTIONS: the suite passes it to each service itself.
      ...(PROFILE_DIR ? { REX_CPU_PROFILE_DIR: join(resolve(PROFILE_DIR), label) } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.resume();
  const deadline = Date.now() + 120_000;
  while (!/Press Ctrl\+C/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      // Nothing of a suite that did not start is left behind: its services, then its launcher, database and data.
      for (const pid of [...descendants(child.pid!).reverse(), child.pid!]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      await new Promise((done) => setTimeout(done, 500));
      await dropDatabase(server!, database).catch((error: unknown) => say(`could not drop ${database}: ${String(error)}`));
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`${tree} did not start:\n${out}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  const token = /export TOKEN=(\S+)/.exec(out)![1];
  const url = `http://127.0.0.1:${port}/index.php/services/rest`;
  // The GETs read these in turn: no two reads running at once ask for the same record.
  const created = await fetch(`${url}/samples/list`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(Array.from({ length: 100 }, () => ({ values: { survey_id: 1, date: '2026-05-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB' } }))),
  });
  const sampleIds = ((await created.json()) as { values: { id: string } }[]).map((saved) => saved.values.id);
  say(`${label}: ${tree} on port ${port}, samples ${sampleIds[0]}–${sampleIds.at(-1)}`);
  return { tree, child, url, token, sampleIds, database, dataDir };
}

type Run = { rps: number; p99: number; cpuPerRequestMs: number; byService: Map<string, number> };

let next = 0;

async function run(suite: Suite, kind: Kind): Promise<Run> {
  const headers = { Authorization: `Bearer ${suite.token}`, 'Content-Type': 'application/json' };
  const options: autocannon.Options =
    kind === 'missing'
      ? { url: `${suite.url}/samples/999999999`, headers }
      : kind === 'get'
      ? { url: suite.url, headers, requests: [{ setupRequest: (request) => ({ ...request, path: `${new URL(suite.url).pathname}/samples/${suite.sampleIds[next++ % suite.sampleIds.length]}` }) }] }
      : {
          url: `${suite.url}/samples`,
          method: 'POST',
          headers,
          body: JSON.stringify({
            values: { survey_id: 1, date: '2026-05-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB' },
            occurrences: [{ values: { taxa_taxon_list_id: 1 } }, { values: { taxa_taxon_list_id: 2 } }],
          }),
        };
  const before = await cpuSeconds(suite);
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: SECONDS });
  const after = await cpuSeconds(suite);
  const expected = { get: '200', post: '201', missing: '404' }[kind];
  const stats = (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
  const answered = stats[expected]?.count ?? 0;
  if (answered < result.requests.total * 0.99) throw new Error(`${suite.tree} ${kind}: ${JSON.stringify(stats)}`);
  const byService = new Map<string, number>();
  for (const [key, seconds] of after) {
    const service = key.startsWith(BACKEND) ? 'postgres' : key;
    const ms = ((seconds - (before.get(key) ?? 0)) * 1000) / answered;
    byService.set(service, (byService.get(service) ?? 0) + ms);
  }
  const cpuPerRequestMs = [...byService.values()].reduce((sum, ms) => sum + ms, 0);
  return { rps: answered / SECONDS, p99: result.latency.p99, cpuPerRequestMs, byService };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const suites: Suite[] = [];
try {
  suites.push(await startTree(resolve(treeA), 'a'));
  suites.push(await startTree(resolve(treeB), 'b'));
  say('warming up');
  for (const suite of suites) for (const kind of KINDS) await run(suite, kind); // warm-up
  const results: Record<Kind, Run[][]> = { get: [[], []], post: [[], []], missing: [[], []] };
  for (let pair = 0; pair < PAIRS; pair++) {
    const order = pair % 2 === 0 ? [0, 1] : [1, 0];
    for (const kind of KINDS) {
      for (const i of order) results[kind][i].push(await run(suites[i], kind));
      const [a, b] = [results[kind][0].at(-1)!, results[kind][1].at(-1)!];
      say(`pair ${pair + 1} ${kind}: A ${a.rps.toFixed(0)}/s ${a.cpuPerRequestMs.toFixed(3)} ms CPU, B ${b.rps.toFixed(0)}/s ${b.cpuPerRequestMs.toFixed(3)} ms CPU`);
    }
  }
  process.stdout.write(`\nA = ${suites[0].tree}\nB = ${suites[1].tree}\n${PAIRS} pairs, ${CONNECTIONS} connections, ${SECONDS} s of each load (${KINDS.join(', ')}) per run\n\n`);
  process.stdout.write('| load | A req/s | B req/s | B/A req/s | A p99 ms | B p99 ms | A CPU ms/req | B CPU ms/req | B/A CPU per request (median of pairs) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n');
  for (const kind of KINDS) {
    const [a, b] = results[kind];
    const pick = (runs: Run[], key: 'rps' | 'p99' | 'cpuPerRequestMs') => median(runs.map((r) => r[key]));
    const cpuRatio = median(a.map((r, i) => b[i].cpuPerRequestMs / r.cpuPerRequestMs));
    process.stdout.write(
      `| ${kind.toUpperCase()} | ${pick(a, 'rps').toFixed(0)} | ${pick(b, 'rps').toFixed(0)} | ${(pick(b, 'rps') / pick(a, 'rps')).toFixed(3)} | ${pick(a, 'p99')} | ${pick(b, 'p99')} | ${pick(a, 'cpuPerRequestMs').toFixed(3)} | ${pick(b, 'cpuPerRequestMs').toFixed(3)} | ${cpuRatio.toFixed(3)} |\n`,
    );
  }
  process.stdout.write('\nCPU ms per request by process (median of runs)\n\n| load | process | A | B | B/A |\n|---|---|---:|---:|---:|\n');
  for (const kind of KINDS) {
    const [a, b] = results[kind];
    const services = [...new Set([...a, ...b].flatMap((r) => [...r.byService.keys()]))].sort();
    for (const service of services) {
      const [msA, msB] = [a, b].map((runs) => median(runs.map((r) => r.byService.get(service) ?? 0)));
      process.stdout.write(`| ${kind.toUpperCase()} | ${service} | ${msA.toFixed(3)} | ${msB.toFixed(3)} | ${msA ? (msB / msA).toFixed(2) : '-'} |\n`);
    }
  }
} finally {
  // A launcher may run its command under a wrapper that passes no signal on: each process is told,
  // the services first (they write their profiles on a clean exit), then the launchers.
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const stop = async (pids: number[]) => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone already
      }
    }
    for (const deadline = Date.now() + 30_000; pids.some(alive) && Date.now() < deadline; ) await new Promise((done) => setTimeout(done, 200));
  };
  const processes = suites.flatMap((suite) => [suite.child.pid!, ...descendants(suite.child.pid!)]);
  const leaves = processes.filter((pid) => descendants(pid).length === 0);
  await stop(leaves);
  await stop(processes.filter((pid) => !leaves.includes(pid)));
  for (const pid of processes) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // stopped
    }
  }
  await monitor.end();
  for (const suite of suites) {
    await dropDatabase(server, suite.database).catch(() => undefined);
    // The suites' data directories (their logs) go too: a comparison leaves nothing behind.
    rmSync(suite.dataDir, { recursive: true, force: true });
  }
}
