// Starts the whole suite as separate processes: the database (embedded unless
// DATABASE_URL is given), records, search, reports, media, then the gateway. Used by `pnpm start`,
// the e2e tests and the benchmark.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { createDatabase, createPool, freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '@rex/db';
import { DEFAULT_DATA_DIR, EMBEDDED_DATABASE, SUITE_FILE, migrateAll, seedDemo } from '@rex/admin';

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
  /** Fixed /metrics ports; free ones are picked otherwise. */
  metricsPorts?: { gateway?: number; records?: number; search?: number; reports?: number; media?: number };
  /** Where the services' logs go; 'inherit' shows them on this terminal. */
  logs?: 'inherit' | 'ignore' | string;
  onProgress?: (message: string) => void;
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
  processes: { records: ChildProcess; reports: ChildProcess; search: ChildProcess; media: ChildProcess; gateway: ChildProcess };
  stop: () => Promise<void>;
};

const NODE_FLAGS = ['--conditions=development', '--disable-warning=ExperimentalWarning', '--import', '@rex/telemetry/register'];

function spawnService(name: string, env: Record<string, string>, logs: SuiteOptions['logs']): ChildProcess {
  const stdio = logs === 'inherit' || logs === 'ignore' || logs === undefined ? (logs ?? 'ignore') : 'pipe';
  const child = spawn(process.execPath, [...NODE_FLAGS, 'src/main.ts'], {
    cwd: join(ROOT, 'services', name),
    env: { ...process.env, OTEL_SERVICE_NAME: name, ...env },
    stdio: ['ignore', stdio, stdio],
  });
  if (stdio === 'pipe' && typeof logs === 'string') {
    mkdirSync(logs, { recursive: true });
    const file = join(logs, `${name}.log`);
    writeFileSync(file, '');
    const append = (chunk: Buffer) => writeFileSync(file, chunk, { flag: 'a' });
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
  }
  return child;
}

async function waitFor(what: string, check: () => Promise<boolean>, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode} while starting`);
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs / 1000} s`);
}

/** grpc.health.v1 check of one service, by raw call (no generated client needed). */
export function grpcServing(address: string, service: string): Promise<boolean> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const request = Buffer.concat([Buffer.from([0x0a, Buffer.byteLength(service)]), Buffer.from(service)]);
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      (value: Buffer) => value,
      (value: Buffer) => value,
      request,
      { deadline: Date.now() + 1_000 },
      (error, response) => {
        client.close();
        // HealthCheckResponse { status = 1 (SERVING) } encodes as 08 01.
        resolve(!error && !!response && response.length >= 2 && response[0] === 0x08 && response[1] === 0x01);
      },
    );
  });
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

export async function startSuite(options: SuiteOptions = {}): Promise<Suite> {
  const progress = options.onProgress ?? (() => undefined);
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = options.databaseUrl;
  if (!databaseUrl) {
    progress('starting embedded PostgreSQL');
    embedded = await startEmbeddedPostgres({ dataDir, onProgress: progress });
    databaseUrl = await createDatabase(embedded.url, EMBEDDED_DATABASE);
  }
  const started: ChildProcess[] = [];
  try {
    progress('migrating and seeding the demo data');
    const pool = createPool(databaseUrl, { max: 2, applicationName: 'rex-launcher' });
    let demoPrivateKey: string;
    try {
      await migrateAll(pool);
      ({ privateKey: demoPrivateKey } = await seedDemo(pool, dataDir));
    } finally {
      await pool.end();
    }

    const recordsPort = options.recordsPort ?? (await freePort());
    const gatewayPort = options.gatewayPort ?? (await freePort());
    const recordsAddress = `127.0.0.1:${recordsPort}`;
    const mediaPort = options.mediaPort ?? (await freePort());
    const mediaAddress = `127.0.0.1:${mediaPort}`;
    // One secret per run unless one is configured: every service of the run shares it.
    const internalSecret = options.env?.INTERNAL_AUTH_SECRET ?? process.env.INTERNAL_AUTH_SECRET ?? randomBytes(32).toString('hex');
    const common = { DATABASE_URL: databaseUrl, INTERNAL_AUTH_SECRET: internalSecret, ...options.env };

    progress('starting records');
    const metricsPort = (name: 'gateway' | 'records' | 'search' | 'reports' | 'media') => String(options.metricsPorts?.[name] ?? 0);
    const records = spawnService(
      'records',
      { ...common, GRPC_HOST: '127.0.0.1', GRPC_PORT: String(recordsPort), METRICS_PORT: metricsPort('records'), MEDIA_ADDR: mediaAddress },
      options.logs,
    );
    started.push(records);
    const searchPort = options.searchPort ?? (await freePort());
    const searchAddress = `127.0.0.1:${searchPort}`;
    progress('starting search');
    const search = spawnService(
      'search',
      { ...common, GRPC_HOST: '127.0.0.1', GRPC_PORT: String(searchPort), METRICS_PORT: metricsPort('search') },
      options.logs,
    );
    started.push(search);
    const reportsPort = options.reportsPort ?? (await freePort());
    const reportsAddress = `127.0.0.1:${reportsPort}`;
    progress('starting reports');
    const reports = spawnService(
      'reports',
      { ...common, GRPC_HOST: '127.0.0.1', GRPC_PORT: String(reportsPort), METRICS_PORT: metricsPort('reports') },
      options.logs,
    );
    started.push(reports);
    progress('starting media');
    const media = spawnService(
      'media',
      { REX_DATA_DIR: dataDir, ...common, GRPC_HOST: '127.0.0.1', GRPC_PORT: String(mediaPort), METRICS_PORT: metricsPort('media') },
      options.logs,
    );
    started.push(media);
    progress('starting gateway');
    const gateway = spawnService(
      'gateway',
      { ...common, GATEWAY_PORT: String(gatewayPort), RECORDS_ADDR: recordsAddress, SEARCH_ADDR: searchAddress, REPORTS_ADDR: reportsAddress, MEDIA_ADDR: mediaAddress, METRICS_PORT: metricsPort('gateway') },
      options.logs,
    );
    started.push(gateway);
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    await Promise.all([
      waitFor('records', () => grpcServing(recordsAddress, 'records.v1.RecordsService'), records),
      waitFor('search', () => grpcServing(searchAddress, 'search.v1.SearchService'), search),
      waitFor('reports', () => grpcServing(reportsAddress, 'reports.v1.ReportsService'), reports),
      waitFor('media', () => grpcServing(mediaAddress, 'media.v1.MediaService'), media),
      waitFor('gateway', async () => (await fetch(`${gatewayUrl}/readyz`)).ok, gateway),
    ]);

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
      processes: { records, reports, search, media, gateway },
      async stop() {
        rmSync(suiteFile, { force: true });
        await stopChild(gateway);
        await Promise.all([stopChild(records), stopChild(search), stopChild(reports), stopChild(media)]);
        await embedded?.stop();
      },
    };
  } catch (error) {
    await Promise.all(started.map((child) => stopChild(child, 2_000)));
    await embedded?.stop();
    throw error;
  }
}
