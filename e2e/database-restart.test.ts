// PostgreSQL restarts under load (an upgrade, a failover): every service must
// answer 503/504 JSON meanwhile, never 500, never exit, and recover by itself.
// The services reach the test database through a TCP proxy that the test
// takes down (every connection reset, new ones refused) and brings back on
// the same port, as a restarting server looks to its clients.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, dropDatabase, freePort } from '@rex/db';
import { demoToken } from '../scripts/demo-token.ts';
import { startSuite, type Suite } from '../scripts/suite.ts';
import { sampleSubmission } from './support/world.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'rex-restart-'));
const databaseName = `rex_restart_${Date.now()}`;
let serverUrl: string;
let suite: Suite;
let bearer: string;

/** A TCP proxy to the database that can go down and come back on its port. */
function databaseProxy(target: { host: string; port: number }, port: number) {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  const up = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', resolve);
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server?.close(() => resolve());
    });
  return { up, down };
}

let proxy: ReturnType<typeof databaseProxy>;

beforeAll(async () => {
  const url = new URL(inject('databaseUrl'));
  url.pathname = '/postgres';
  serverUrl = url.toString();
  await createDatabase(serverUrl, databaseName);
  const proxyPort = await freePort();
  proxy = databaseProxy({ host: url.hostname, port: Number(url.port || 5432) }, proxyPort);
  await proxy.up();
  const throughProxy = new URL(url);
  throughProxy.port = String(proxyPort);
  throughProxy.pathname = `/${databaseName}`;
  suite = await startSuite({ dataDir, databaseUrl: throughProxy.toString(), logs: join(dataDir, 'logs'), env: { LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true', PROJECTOR_IDLE_MS: '50' } });
  bearer = await demoToken(suite.demoPrivateKey);
}, 180_000);

afterAll(async () => {
  await suite?.stop();
  await proxy?.down();
  await dropDatabase(serverUrl, databaseName).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

type Outcome = { what: string; status: number; json: boolean; error?: string; ms?: number };

async function request(what: string, path: string, init: RequestInit = {}): Promise<Outcome> {
  const started = Date.now();
  try {
    const response = await fetch(`${suite.gatewayUrl}/index.php/services/rest${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json', ...init.headers },
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    let json = true;
    try {
      JSON.parse(text);
    } catch {
      json = false;
    }
    return { what, status: response.status, json };
  } catch (error) {
    return { what, status: 0, json: false, error: String((error as Error).cause ?? error), ms: Date.now() - started };
  }
}

const calls = () => [
  request('read', '/samples?limit=1'),
  request('write', '/samples', { method: 'POST', body: JSON.stringify(sampleSubmission()) }),
];

describe('a PostgreSQL restart under load', () => {
  it('when the database goes away and comes back, then no service fails or exits, errors are retryable JSON, and everything recovers', async () => {
    expect((await Promise.all(calls())).map((o) => o.status)).toEqual([200, 201]);
    const outcomes: Outcome[] = [];
    let loading = true;
    const load = (async () => {
      while (loading) outcomes.push(...(await Promise.all(calls())));
    })();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await proxy.down();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await proxy.up();
    const deadline = Date.now() + 60_000;
    let recovered = false;
    while (!recovered && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const tail = outcomes.slice(-6);
      recovered = tail.length >= 4 && tail.every((o) => o.status === 200 || o.status === 201);
    }
    loading = false;
    await load;
    expect(recovered, JSON.stringify(outcomes.slice(-9))).toBe(true);
    const failures = outcomes.filter((o) => o.status >= 500 && o.status !== 503 && o.status !== 504);
    expect(failures, JSON.stringify(failures.slice(0, 5))).toEqual([]);
    expect(outcomes.filter((o) => !o.json)).toEqual([]);
    expect(outcomes.some((o) => o.status === 503 || o.status === 504)).toBe(true);
    for (const [name, child] of Object.entries(suite.processes)) expect(child.exitCode, name).toBeNull();
  }, 120_000);
});
