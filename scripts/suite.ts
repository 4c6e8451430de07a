// Starts the whole suite as separate processes: the database (embedded unless
// DATABASE_URL is given), then records, search, reports, media and the
// gateway at once. Used by `npm start`, the e2e tests and the benchmark.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase, createPool, freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '@rex/db';
import { DEFAULT_DATA_DIR, EMBEDDED_DATABASE, SUITE_FILE, migrateAll, seedDemo } from '@rex/admin';
import { stripAhead } from '@rex/typescript-cache';
import { refuseBusyPorts, refuseSecondSuite } from './preflight.ts';
import { grpcProbe, httpProbe, type Probe } from './readiness.ts';
import { decideRestart, RESTART_POLICY, type RestartPolicy } from './restart-policy.ts';

export { grpcServing } from './readiness.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export type SuiteOptions = {
  dataDir?: string;
  databaseUrl?: string;
  gatewayPort?: number;
  recordsPort?: number;
  searchPort?: number;
  reportsPort?: number;
  mediaPort?: number;
  env?: Record<string, string>;
  /** Variables of one service only, over `env`. */
  serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
  /** Fixed /metrics ports; free ones are picked otherwise. */
  metricsPorts?: { gateway?: number; records?: number; search?: number; reports?: number; media?: number };
  /** Where the services' logs go; 'inherit' shows them on this terminal. */
  logs?: 'inherit' | 'ignore' | string;
  onProgress?: (message: string) => void;
  /**
   * Start a service again when it exits on its own once the suite is ready (with a growing delay,
   * each time told to `onProgress`); `onGiveUp` hears of one that keeps exiting. Off: a service that
   * exits stays down, for the caller to notice (`processes`).
   */
  supervise?: { onGiveUp: (message: string) => void; policy?: RestartPolicy };
};

export type Suite = {
  gatewayUrl: string;
  databaseUrl: string;
  recordsAddress: string;
  reportsAddress: string;
  mediaAddress: string;
  demoPrivateKey: string;
  /** The secret the services sign their calls to each other with. */
  internalSecret: string;
  /** Each service's current process (a restarted service has a new one). */
  processes: { records: ChildProcess; reports: ChildProcess; search: ChildProcess; media: ChildProcess; gateway: ChildProcess };
  stop: () => Promise<void>;
};

/**
 * V8 options every service runs with, here and in its image's ENTRYPOINT (Node.js refuses them in
 * NODE_OPTIONS). V8's memory reducer is off: after some 8 s of quiet it ran full collections that
 * shrink the heap and throw away compiled code, so every burst after a short pause began cold; a
 * quiet process gives memory back through its own idle collection instead (decision 0047).
 */
export const SERVICE_V8_FLAGS = ['--no-memory-reducer'];

/** How each service's process starts, as its image starts it: modules stripped ahead of time (see startSuite), then tracing. */
export const NODE_FLAGS = [
  '--conditions=development',
  '--disable-warning=ExperimentalWarning',
  ...SERVICE_V8_FLAGS,
  '--import',
  join(ROOT, 'libs', 'typescript-cache', 'src', 'register.mjs'),
  '--import',
  '@rex/telemetry/register',
  // A CPU profile of every service, written when it stops (for `npm run bench` and the like).
  ...(process.env.REX_CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.REX_CPU_PROFILE_DIR}`] : []),
];

export type ServiceName = 'records' | 'search' | 'reports' | 'media' | 'gateway';

/** The variable of `npm start` that sets each service's port. */
const PORT_VARIABLES: Record<ServiceName, string> = {
  gateway: 'GATEWAY_PORT',
  records: 'RECORDS_PORT',
  search: 'SEARCH_PORT',
  reports: 'REPORTS_PORT',
  media: 'MEDIA_PORT',
};

type Started = {
  name: ServiceName;
  port: number;
  env: Record<string, string>;
  child: ChildProcess;
  /** Settles once the process has ended and all it wrote has been read. */
  closed: Promise<unknown>;
  logFile?: string;
  lastLines: string[];
};

/** Runs one service; its output goes to `logs` and its last lines are kept to tell why it stopped. */
function spawnService(name: ServiceName, port: number, env: Record<string, string>, logs: SuiteOptions['logs']): Started {
  const started = { name, port, env, lastLines: [] } as unknown as Started;
  runProcess(started, logs, 'w');
  return started;
}

/** Starts (or starts again) the process of `started`; a restart's output is added to its log. */
function runProcess(started: Started, logs: SuiteOptions['logs'], logFlags: 'w' | 'a'): void {
  const { name, env } = started;
  const child = spawn(process.execPath, [...NODE_FLAGS, 'src/main.ts'], {
    cwd: join(ROOT, 'services', name),
    env: { ...process.env, OTEL_SERVICE_NAME: name, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.child = child;
  started.closed = once(child, 'close').catch(() => undefined);
  started.lastLines = [];
  let file: WriteStream | undefined;
  if (typeof logs === 'string' && logs !== 'inherit' && logs !== 'ignore') {
    mkdirSync(logs, { recursive: true });
    started.logFile = join(logs, `${name}.log`);
    file = createWriteStream(started.logFile, { flags: logFlags });
  }
  for (const [stream, terminal] of [
    [child.stdout!, process.stdout],
    [child.stderr!, process.stderr],
  ] as const) {
    let partial = '';
    const keep = (lines: string[]) => {
      started.lastLines.push(...lines.filter((line) => line.trim()));
      started.lastLines.splice(0, started.lastLines.length - 20);
    };
    stream.on('data', (chunk: Buffer) => {
      if (file) file.write(chunk);
      else if (logs === 'inherit') terminal.write(chunk);
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      keep(lines);
    });
    stream.once('end', () => keep([partial]));
  }
  child.once('exit', () => file?.end());
}

const SAID_NOTHING = 'it said nothing';

/** Why a service stopped, from its last lines: its last error or fatal log entry, else what it wrote as plain text. */
function causeOfExit(service: Started): string {
  for (const line of service.lastLines.toReversed()) {
    let entry: { level?: string | number; msg?: string; err?: { message?: string; code?: string } };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!['fatal', 'error', 50, 60].includes(entry.level ?? '')) continue;
    if (entry.err?.code === 'EADDRINUSE' && entry.err.message?.endsWith(`:${service.port}`)) {
      return `port ${service.port} is in use by another program; stop it, or set ${PORT_VARIABLES[service.name]} to a free port`;
    }
    return [entry.msg, entry.err?.message].filter(Boolean).join(': ');
  }
  // Plain text: a message of its own (a configuration it cannot read), or an uncaught error's.
  const text = service.lastLines.map((line) => line.trim()).filter((line) => !line.startsWith('{') && !line.startsWith('Node.js v') && !line.startsWith('at '));
  return text.findLast((line) => /^\w*Error\b/.test(line)) ?? (text.join(' | ').slice(0, 400) || SAID_NOTHING);
}

async function waitFor(service: Started, probe: Probe, timeoutMs = 60_000): Promise<void> {
  const { name, child } = service;
  const log = service.logFile ? ` (its log: ${service.logFile})` : '';
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        await service.closed;
        throw new Error(`${name} exited with ${child.signalCode ?? `code ${child.exitCode}`} while starting: ${causeOfExit(service)}${log}`);
      }
      if (await probe.check()) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    probe.close();
  }
  throw new Error(`${name} did not become ready within ${timeoutMs / 1000} s${log}`);
}

function stopChild(child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** How a process ended, in words. */
const howItEnded = (child: ChildProcess) => (child.signalCode ? `signal ${child.signalCode}` : `exit code ${child.exitCode}`);

type Supervisor = { stop: () => void };

/**
 * Starts a service again each time it exits on its own, after the delay the restart policy gives,
 * until the policy gives up on it. `progress` tells each step; `onGiveUp` the end.
 */
function superviseService(
  service: Started,
  probe: () => Probe,
  logs: SuiteOptions['logs'],
  progress: (message: string) => void,
  { onGiveUp, policy = RESTART_POLICY }: NonNullable<SuiteOptions['supervise']>,
): Supervisor {
  const restarts: number[] = [];
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const log = service.logFile ? `; see ${service.logFile}` : '';

  const watch = () => {
    const child = service.child;
    const exited = async () => {
      if (stopped) return;
      await service.closed;
      const said = causeOfExit(service);
      const cause = said === SAID_NOTHING ? howItEnded(child) : `${howItEnded(child)}: ${said}`;
      const decision = decideRestart(restarts, Date.now(), policy);
      if (!decision.restart) {
        stopped = true;
        onGiveUp(`${service.name} keeps stopping (${decision.recent + 1} times within ${policy.windowMs / 1000} s, last with ${cause})${log}`);
        return;
      }
      progress(`${service.name} stopped (${cause}); starting it again in ${(decision.delayMs / 1000).toFixed(1)} s`);
      timer = setTimeout(() => void restart(), decision.delayMs);
    };
    if (child.exitCode !== null || child.signalCode !== null) void exited();
    else child.once('exit', () => void exited());
  };

  const restart = async () => {
    if (stopped) return;
    restarts.push(Date.now());
    runProcess(service, logs, 'a');
    watch();
    try {
      await waitFor(service, probe());
      if (!stopped) progress(`${service.name} ready again`);
    } catch {
      // It exited while starting, or hangs: its exit watcher decides what comes next.
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
    }
  };

  watch();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

export async function startSuite(options: SuiteOptions = {}): Promise<Suite> {
  const progress = options.onProgress ?? (() => undefined);
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  const gatewayHost = options.env?.GATEWAY_HOST ?? process.env.GATEWAY_HOST ?? '127.0.0.1';
  await refuseSecondSuite(dataDir);
  await refuseBusyPorts([
    { port: options.gatewayPort, host: gatewayHost, variable: PORT_VARIABLES.gateway },
    { port: options.recordsPort, host: '127.0.0.1', variable: PORT_VARIABLES.records },
    { port: options.searchPort, host: '127.0.0.1', variable: PORT_VARIABLES.search },
    { port: options.reportsPort, host: '127.0.0.1', variable: PORT_VARIABLES.reports },
    { port: options.mediaPort, host: '127.0.0.1', variable: PORT_VARIABLES.media },
  ]);

  // As the images do when they are built, so that no service keeps Node.js's type stripper in memory.
  stripAhead(['libs', 'services', 'tools'].map((folder) => join(ROOT, folder)));

  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = options.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dataDir, onProgress: progress });
    databaseUrl = await createDatabase(embedded.url, EMBEDDED_DATABASE);
    progress(`database ready: embedded PostgreSQL on port ${embedded.port}`);
  }
  const started: Started[] = [];
  try {
    const [recordsPort, searchPort, reportsPort, mediaPort, gatewayPort] = [
      options.recordsPort ?? (await freePort()),
      options.searchPort ?? (await freePort()),
      options.reportsPort ?? (await freePort()),
      options.mediaPort ?? (await freePort()),
      options.gatewayPort ?? (await freePort()),
    ];
    const recordsAddress = `127.0.0.1:${recordsPort}`;
    const searchAddress = `127.0.0.1:${searchPort}`;
    const reportsAddress = `127.0.0.1:${reportsPort}`;
    const mediaAddress = `127.0.0.1:${mediaPort}`;
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    // One secret per run unless one is configured: every service of the run shares it.
    const internalSecret = options.env?.INTERNAL_AUTH_SECRET ?? process.env.INTERNAL_AUTH_SECRET ?? randomBytes(32).toString('hex');
    const common = { DATABASE_URL: databaseUrl, INTERNAL_AUTH_SECRET: internalSecret, ...options.env };
    const metricsPort = (name: ServiceName) => String(options.metricsPorts?.[name] ?? 0);
    const grpcService = (name: ServiceName, port: number, env: Record<string, string> = {}) =>
      spawnService(name, port, { ...common, GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port), METRICS_PORT: metricsPort(name), ...env, ...options.serviceEnv?.[name] }, options.logs);

    // Every service migrates its own schema (under an advisory lock), so all of them start at once.
    progress('starting records, search, reports, media and gateway');
    const records = grpcService('records', recordsPort, { MEDIA_ADDR: mediaAddress });
    const search = grpcService('search', searchPort);
    const reports = grpcService('reports', reportsPort);
    const media = grpcService('media', mediaPort, { REX_DATA_DIR: options.env?.REX_DATA_DIR ?? dataDir });
    const gateway = spawnService(
      'gateway',
      gatewayPort,
      {
        ...common,
        GATEWAY_PORT: String(gatewayPort),
        RECORDS_ADDR: recordsAddress,
        SEARCH_ADDR: searchAddress,
        REPORTS_ADDR: reportsAddress,
        MEDIA_ADDR: mediaAddress,
        METRICS_PORT: metricsPort('gateway'),
        ...options.serviceEnv?.gateway,
      },
      options.logs,
    );
    started.push(records, search, reports, media, gateway);

    const probes: Record<ServiceName, () => Probe> = {
      records: () => grpcProbe(recordsAddress, 'records.v1.RecordsService'),
      search: () => grpcProbe(searchAddress, 'search.v1.SearchService'),
      reports: () => grpcProbe(reportsAddress, 'reports.v1.ReportsService'),
      media: () => grpcProbe(mediaAddress, 'media.v1.MediaService'),
      gateway: () => httpProbe(`${gatewayUrl}/readyz`),
    };
    const ready = async (service: Started) => {
      await waitFor(service, probes[service.name]());
      progress(`${service.name} ready`);
    };
    const [demoPrivateKey] = await Promise.all([seed(databaseUrl, dataDir, progress), ...started.map(ready)]);
    const supervisors = options.supervise
      ? started.map((service) => superviseService(service, probes[service.name], options.logs, progress, options.supervise!))
      : [];

    const suiteFile = join(dataDir, SUITE_FILE);
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(suiteFile, JSON.stringify({ pid: process.pid, databaseUrl, gatewayUrl }));
    return {
      gatewayUrl,
      databaseUrl,
      recordsAddress,
      reportsAddress,
      mediaAddress,
      demoPrivateKey,
      internalSecret,
      processes: {
        get records() {
          return records.child;
        },
        get reports() {
          return reports.child;
        },
        get search() {
          return search.child;
        },
        get media() {
          return media.child;
        },
        get gateway() {
          return gateway.child;
        },
      },
      async stop() {
        for (const supervisor of supervisors) supervisor.stop();
        rmSync(suiteFile, { force: true });
        await stopChild(gateway.child);
        await Promise.all([stopChild(records.child), stopChild(search.child), stopChild(reports.child), stopChild(media.child)]);
        await embedded?.stop();
      },
    };
  } catch (error) {
    await Promise.all(started.map(({ child }) => stopChild(child, 2_000)));
    await embedded?.stop();
    throw error;
  }
}

/** The auth and records schemas up to date and the demo data in place (only into a database that holds no website); the demo's private key. */
async function seed(databaseUrl: string, dataDir: string, progress: (message: string) => void): Promise<string> {
  const pool = createPool(databaseUrl, { max: 2, applicationName: 'rex-launcher' });
  try {
    await migrateAll(pool);
    const { privateKey, seeded } = await seedDemo(pool, dataDir);
    progress(seeded ? 'demo data seeded' : 'demo data in place');
    return privateKey;
  } finally {
    await pool.end();
  }
}
