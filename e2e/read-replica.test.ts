// Reports scaled apart from writes on a real streaming replica: a primary and
// a hot standby made by pg_basebackup, the services on their own roles,
// records, the gateway and the projector on the primary, report queries on
// the replica as the read-only role.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort, migrate } from '@rex/db';
import { seedDemo } from '@rex/admin';
import { grpcServing } from '../scripts/suite.ts';
import * as gatewaySchema from '../services/gateway/src/db/migrations.ts';
import * as recordsSchema from '../services/records/src/db/migrations.ts';
import * as reportsSchema from '../services/reports/src/db/migrations.ts';
import { LOGIN_ROLES, applyBootstrap } from '../tools/admin/src/roles.ts';
import { spawnService, startGateway, type ExtraGateway } from './support/gateway.ts';
import { replicationBinaries, startStreamingReplica, type StreamingReplica } from './support/streaming-replica.ts';
import { api, eventually, sampleSubmission, token } from './support/world.ts';

const binaries = replicationBinaries();
const children: ChildProcess[] = [];
let cluster: StreamingReplica | undefined;
let gateway: ExtraGateway | undefined;

/** `url` (the primary's or the replica's) as `role`. */
const as = (url: string, role: string) => {
  const address = new URL(url);
  address.username = role;
  address.password = `${role}-password`;
  return address.toString();
};

async function withPool<T>(url: string, use: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    return await use(pool);
  } finally {
    await pool.end();
  }
}

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

async function grpcService(name: 'records' | 'reports', env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawnService(name, { GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port), MIGRATE_ON_START: 'false', ...env });
  children.push(child);
  const address = `127.0.0.1:${port}`;
  const service = `${name}.v1.${name === 'records' ? 'Records' : 'Reports'}Service`;
  for (const deadline = Date.now() + 30_000; !(await grpcServing(address, service)); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${name} did not serve ${service} within 30 s`);
  }
  return address;
}

/** Who holds sessions on `url`'s server: application name → roles. */
async function sessions(url: string): Promise<Map<string, Set<string>>> {
  const rows = await sql<{ application_name: string; usename: string }>(url, `SELECT application_name, usename FROM pg_stat_activity WHERE application_name LIKE 'rex-%'`);
  const byApplication = new Map<string, Set<string>>();
  for (const row of rows) byApplication.set(row.application_name, (byApplication.get(row.application_name) ?? new Set()).add(row.usename));
  return byApplication;
}

beforeAll(async () => {
  if ('missing' in binaries) {
    console.warn(`reports on a streaming replica: skipped, ${binaries.missing}`);
    return;
  }
  cluster = await startStreamingReplica(binaries);
  const primary = cluster.primaryUrl;
  // What `admin database roles --apply` and each service's `migrate` command do, each migration as its service's role.
  await withPool(primary, (pool) => applyBootstrap(pool, Object.fromEntries(LOGIN_ROLES.map((role) => [role, `${role}-password`]))));
  await Promise.all([
    withPool(as(primary, 'rex_gateway'), (pool) => migrate(pool, gatewaySchema.SCHEMA, gatewaySchema.migrations())),
    withPool(as(primary, 'rex_records'), (pool) => migrate(pool, recordsSchema.SCHEMA, recordsSchema.migrations())),
  ]);
  // reports reads the records tables records' migrations grant.
  await withPool(as(primary, 'rex_reports'), (pool) => migrate(pool, reportsSchema.SCHEMA, reportsSchema.migrations()));
  await withPool(primary, (pool) => seedDemo(pool, inject('dataDir')));

  // As a cluster runs it: query pods read the replica as the read-only role, the projector writes on the primary.
  const [records, reports] = await Promise.all([
    grpcService('records', { DATABASE_URL: as(primary, 'rex_records') }),
    grpcService('reports', { DATABASE_URL: as(primary, 'rex_reports'), REPORTS_DATABASE_URL: as(cluster.replicaUrl, 'rex_reports_reader'), PROJECTOR_ENABLED: 'false' }),
    grpcService('reports', { DATABASE_URL: as(primary, 'rex_reports'), PROJECTOR_ENABLED: 'true', PROJECTOR_IDLE_MS: '50' }),
  ]);
  gateway = await startGateway(
    { authentication_methods: { jwtUser: { allow_http: true } } },
    { DATABASE_URL: as(primary, 'rex_gateway'), RECORDS_ADDR: records, REPORTS_ADDR: reports, MIGRATE_ON_START: 'false' },
  );
}, 60_000);

afterAll(async () => {
  gateway?.stop();
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? once(child, 'exit') : undefined)));
  await cluster?.stop();
}, 30_000);

describe('reports on a streaming replica', () => {
  const title = 'when report queries run on a hot standby of the primary, then a report answers from the replica what records wrote to the primary';
  it.skipIf('missing' in binaries)('missing' in binaries ? `${title} — skipped: ${binaries.missing}` : title, async () => {
    const { primaryUrl, replicaUrl } = cluster!;
    expect(await sql(replicaUrl, 'SELECT pg_is_in_recovery() AS standby')).toEqual([{ standby: true }]);
    expect(await sql(primaryUrl, 'SELECT pg_is_in_recovery() AS standby')).toEqual([{ standby: false }]);

    const created = await api('POST', `${gateway!.services}/samples`, {
      token: await token(),
      body: sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }, { values: { taxa_taxon_list_id: 2 } }] }),
    });
    expect(created.status).toBe(201);
    const occurrences = new Set<string>(created.body.occurrences.map((o: { values: { id: string } }) => String(o.values.id)));
    expect(occurrences.size).toBe(2);

    const report = `${gateway!.services}/reports/library/occurrences/filterable_explore_list.xml?limit=100`;
    const ours = async () => {
      const page = await api('GET', report, { token: await token() });
      expect(page.status).toBe(200);
      return page.body.data.filter((row: { occurrence_id: string }) => occurrences.has(String(row.occurrence_id)));
    };
    // The projector's rows reach the replica by streaming; the report answers once they are there.
    const rows = await eventually(async () => {
      const found = await ours();
      expect(found).toHaveLength(occurrences.size);
      return found;
    }, 15_000);
    expect(rows.map((row: { taxon: string }) => row.taxon).sort()).toEqual(['Erithacus rubecula', 'Turdus merula']);

    // The report's queries ran on the replica, as the read-only role, and never on the primary: each
    // server logs every statement it runs with the role and application that sent it.
    const reportQueries = (server: 'primary' | 'replica') =>
      cluster!.statements(server).filter((statement) => statement.application.startsWith('rex-reports-') && statement.text.includes('reports.occurrences'));
    expect(new Set(reportQueries('replica').map((statement) => statement.role))).toEqual(new Set(['rex_reports_reader']));
    // The page on the report pool (its total, when counted, on the count pool).
    expect(reportQueries('replica').map((statement) => statement.application)).toContain('rex-reports-read');
    expect(reportQueries('primary')).toEqual([]);
    // A count read on the standby is not kept for the next page (the standby may apply a change after
    // its notification has come from the primary): each page counts again.
    const countsOnReplica = () => reportQueries('replica').filter((statement) => statement.application === 'rex-reports-count').length;
    const counted = countsOnReplica();
    await ours();
    await ours();
    await eventually(async () => expect(countsOnReplica()).toBe(counted + 2), 5_000);
    expect(cluster!.statements('primary').filter((statement) => statement.role === 'rex_reports_reader')).toEqual([]);
    const onReplica = await sessions(replicaUrl);
    const onPrimary = await sessions(primaryUrl);
    expect(onReplica.get('rex-reports-read')).toEqual(new Set(['rex_reports_reader']));
    // On the primary the read-only role has no session (the projector's own read pool is there as reports' role).
    expect([...onPrimary.values()].some((roles) => roles.has('rex_reports_reader'))).toBe(false);
    expect(onPrimary.get('rex-reports-read')).toEqual(new Set(['rex_reports']));

    // Writes went to the primary: records inserted the occurrences there as its role and the projector
    // its read model as reports'; nothing but report connections reached the replica, which refuses
    // writes whoever asks.
    const writes = (server: 'primary' | 'replica', table: string) =>
      cluster!.statements(server).filter((statement) => new RegExp(`\\bINSERT INTO ${table}\\b`, 'i').test(statement.text)).map((statement) => statement.role);
    expect(new Set(writes('primary', 'records.occurrences'))).toEqual(new Set(['rex_records']));
    expect(new Set(writes('primary', 'reports.occurrences'))).toEqual(new Set(['rex_reports']));
    expect(cluster!.statements('replica').filter((statement) => /\b(INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\b/i.test(statement.text))).toEqual([]);
    expect([...onReplica.keys()].filter((name) => !name.startsWith('rex-reports-'))).toEqual([]);
    const ids = [...occurrences].join(', ');
    const [written] = await sql<{ count: string }>(primaryUrl, `SELECT count(*) FROM records.occurrences WHERE id IN (${ids})`);
    expect(Number(written.count)).toBe(2);
    await expect(sql(replicaUrl, `UPDATE records.occurrences SET comment = comment WHERE id IN (${ids})`)).rejects.toThrow(/read-only transaction/);
    await expect(sql(as(replicaUrl, 'rex_records'), `UPDATE records.occurrences SET comment = comment WHERE id IN (${ids})`)).rejects.toThrow(/read-only transaction/);
  });
});
