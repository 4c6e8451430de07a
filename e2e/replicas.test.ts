// Replicas behind one target, as a headless Service gives them in a cluster:
// the gateway's calls spread over every address (round_robin), and when a
// replica dies its share moves to the others without failed requests beyond
// the ones it was serving.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { freePort } from '@rex/db';
import { grpcServing } from '../scripts/suite.ts';
import { spawnService, startGateway, type ExtraGateway } from './support/gateway.ts';
import { api, sampleSubmission, setUpWorld, token } from './support/world.ts';

type Replica = { child: ChildProcess; address: string; metrics: string };

const children: ChildProcess[] = [];
let gateway: ExtraGateway;
let records: Replica[];
let reports: Replica[];
let bearer: string;
let sampleId: string;

async function replica(name: 'records' | 'reports', env: Record<string, string> = {}): Promise<Replica> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const child = spawnService(name, { DATABASE_URL: inject('databaseUrl'), GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port), METRICS_PORT: String(metricsPort), ...env });
  children.push(child);
  const address = `127.0.0.1:${port}`;
  for (let i = 0; i < 300 && !(await grpcServing(address, `${name}.v1.${name === 'records' ? 'Records' : 'Reports'}Service`)); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, address, metrics: `http://127.0.0.1:${metricsPort}/metrics` };
}

/** OK calls of `method` a replica has served, from its metrics. */
async function served(replica: Replica, method: string): Promise<number> {
  const text = await (await fetch(replica.metrics)).text();
  const line = text.split('\n').find((l) => l.startsWith('grpc_server_handled_total{') && l.includes(`grpc_method="${method}"`) && l.includes('grpc_code="OK"'));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** `total` requests, `concurrency` at a time; the statuses they got. */
async function load(total: number, concurrency: number, request: () => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        statuses.push(await request().catch(() => 0));
      }
    }),
  );
  return statuses;
}

const multi = (replicas: Replica[]) => `ipv4:${replicas.map((r) => r.address).join(',')}`;

beforeAll(async () => {
  await setUpWorld();
  records = await Promise.all([replica('records'), replica('records')]);
  reports = await Promise.all([replica('reports', { PROJECTOR_ENABLED: 'false' }), replica('reports', { PROJECTOR_ENABLED: 'false' })]);
  gateway = await startGateway({ authentication_methods: { jwtUser: { allow_http: true } } }, { RECORDS_ADDR: multi(records), REPORTS_ADDR: multi(reports) });
  bearer = await token();
  const created = await api('POST', `${gateway.services}/samples`, { token: bearer, body: sampleSubmission() });
  expect(created.status).toBe(201);
  sampleId = String(created.body.values.id);
}, 60_000);

afterAll(() => {
  gateway?.stop();
  for (const child of children) child.kill('SIGKILL');
});

describe('replicas behind one multi-address target', () => {
  it('when a load runs, then both records replicas and both reports replicas serve it, within 40/60 of each other', async () => {
    const before = await Promise.all([...records.map((r) => served(r, 'GetSample')), ...reports.map((r) => served(r, 'RunReport'))]);
    const statuses = await load(200, 8, async () => (await api('GET', `${gateway.services}/samples/${sampleId}`, { token: bearer })).status);
    const reportStatuses = await load(60, 4, async () => (await api('GET', `${gateway.services}/reports/library/occurrences/filterable_explore_list.xml?limit=5`, { token: bearer })).status);
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(new Set(reportStatuses)).toEqual(new Set([200]));
    const after = await Promise.all([...records.map((r) => served(r, 'GetSample')), ...reports.map((r) => served(r, 'RunReport'))]);
    const [r1, r2, p1, p2] = after.map((n, i) => n - before[i]);
    expect(r1 + r2).toBe(200);
    expect(p1 + p2).toBe(60);
    for (const [a, b] of [
      [r1, r2],
      [p1, p2],
    ]) {
      expect(Math.min(a, b) / (a + b)).toBeGreaterThanOrEqual(0.4);
    }
  });

  it('when one records replica is killed under load, then the other takes every call and nothing fails but what was in flight', async () => {
    const [victim, survivor] = records;
    const before = await served(survivor, 'GetSample');
    const concurrency = 4;
    const during = load(300, concurrency, async () => (await api('GET', `${gateway.services}/samples/${sampleId}`, { token: bearer })).status);
    await new Promise((resolve) => setTimeout(resolve, 150));
    victim.child.kill('SIGKILL');
    const statuses = await during;
    const failed = statuses.filter((status) => status !== 200);
    // At most the calls in flight on the killed replica fail (answered 503 JSON), never more.
    expect(failed.length).toBeLessThanOrEqual(concurrency);
    expect(failed.every((status) => status === 503)).toBe(true);
    const after = await load(100, concurrency, async () => (await api('GET', `${gateway.services}/samples/${sampleId}`, { token: bearer })).status);
    expect(new Set(after)).toEqual(new Set([200]));
    expect((await served(survivor, 'GetSample')) - before).toBeGreaterThanOrEqual(100);
  });
});
