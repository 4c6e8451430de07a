// What a cluster does to a service: migrations as a step of their own before
// the rollout, a database that comes later than the pods, and SIGTERM at any
// moment, even while a service is still starting.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '@rex/db';
import { grpcServing } from '../scripts/suite.ts';
import { spawnService } from './support/gateway.ts';
import { freshDatabase } from './support/world.ts';

let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;
let databaseUrl: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  database = await freshDatabase('rex_lifecycle');
  databaseUrl = database.url;
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await database?.drop();
});

/** `node src/main.ts migrate` of a service: its exit code and what it said. */
async function migrateCommand(service: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--conditions=development', '--disable-warning=ExperimentalWarning', 'src/main.ts', 'migrate'], {
    cwd: fileURLToPath(new URL(`../services/${service}`, import.meta.url)),
    // Only the database: the command needs no other setting.
    env: { PATH: process.env.PATH, DATABASE_URL: env.DATABASE_URL ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('migrations as a step before the rollout', () => {
  it('when records starts with MIGRATE_ON_START=false on an empty database, then it is not ready until the migrate command has run, and then it is', async () => {
    const port = await freePort();
    const address = `127.0.0.1:${port}`;
    children.push(spawnService('records', { DATABASE_URL: databaseUrl, GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port), MIGRATE_ON_START: 'false' }));
    // Listening (overall health) but not serving records: its schema is missing.
    for (let i = 0; i < 200 && !(await grpcServing(address, '')); i++) await sleep(50);
    expect(await grpcServing(address, '')).toBe(true);
    await sleep(1_500);
    expect(await grpcServing(address, 'records.v1.RecordsService')).toBe(false);

    const first = await migrateCommand('records', { DATABASE_URL: databaseUrl });
    expect(first.code).toBe(0);
    expect(first.output).toMatch(/applied 0001_/);
    let serving = false;
    for (let i = 0; i < 100 && !(serving = await grpcServing(address, 'records.v1.RecordsService')); i++) await sleep(100);
    expect(serving).toBe(true);

    const again = await migrateCommand('records', { DATABASE_URL: databaseUrl });
    expect(again).toMatchObject({ code: 0, output: expect.stringMatching(/up to date/) });
  });

  it('when every service that owns a schema runs its migrate command, then each exits 0; without DATABASE_URL it exits 1 saying so', async () => {
    for (const service of ['gateway', 'reports', 'media']) {
      const { code, output } = await migrateCommand(service, { DATABASE_URL: databaseUrl });
      expect({ service, code }).toEqual({ service, code: 0 });
      expect(output).toMatch(/applied|up to date/);
    }
    const missing = await migrateCommand('records', {});
    expect(missing.code).toBe(1);
    expect(missing.output).toMatch(/DATABASE_URL is required/);
  });
});

describe('a database that is not there yet', () => {
  it('when the gateway starts before its database, then it listens, is alive but not ready, and becomes ready when the database comes', async () => {
    // A port nothing listens on yet; the database "comes" as a proxy to the real one on that port.
    const port = await freePort();
    const proxied = new URL(databaseUrl);
    proxied.port = String(port);
    const gatewayPort = await freePort();
    const child = spawnService('gateway', {
      DATABASE_URL: proxied.toString(),
      GATEWAY_PORT: String(gatewayPort),
      RECORDS_ADDR: inject('recordsAddress'),
      REPORTS_ADDR: inject('reportsAddress'),
      SEARCH_ADDR: inject('reportsAddress'),
      MEDIA_ADDR: inject('mediaAddress'),
    });
    children.push(child);
    const url = `http://127.0.0.1:${gatewayPort}`;
    let alive = false;
    for (let i = 0; i < 200 && !(alive = (await fetch(`${url}/healthz`).catch(() => undefined))?.ok ?? false); i++) await sleep(50);
    expect(alive).toBe(true);
    const notReady = await fetch(`${url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ status: 'not ready' });

    const target = new URL(inject('databaseUrl'));
    const sockets = new Set<Socket>();
    const proxy: Server = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
    try {
      let ready = false;
      for (let i = 0; i < 100 && !(ready = (await fetch(`${url}/readyz`)).ok); i++) await sleep(100);
      expect(ready).toBe(true);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
      for (const socket of sockets) socket.destroy();
      proxy.close();
    }
  });
});

describe('SIGTERM', () => {
  it('when a service gets SIGTERM while it is still starting (its database does not answer), then it exits 0 at once', async () => {
    // A "database" that accepts connections and never answers: start-up waits on it.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = new URL(databaseUrl);
    silentUrl.port = String((silent.address() as { port: number }).port);
    try {
      const metricsPort = await freePort();
      const child = spawnService('reports', { DATABASE_URL: silentUrl.toString(), GRPC_HOST: '127.0.0.1', GRPC_PORT: '0', METRICS_PORT: String(metricsPort) });
      children.push(child);
      // /metrics answers as soon as the process runs its service; start-up then waits on the database (5 s connect timeout).
      let up = false;
      for (let i = 0; i < 200 && !(up = (await fetch(`http://127.0.0.1:${metricsPort}/metrics`).catch(() => undefined))?.ok ?? false); i++) await sleep(25);
      expect(up).toBe(true);
      expect(child.exitCode).toBeNull();
      const sent = Date.now();
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      expect(Date.now() - sent).toBeLessThan(2_000);
    } finally {
      silent.close();
    }
  });
});
