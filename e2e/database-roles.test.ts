// A least-privilege deployment: each service connects as its own role (made
// by `pnpm admin database roles`), migrations run as a step, report queries
// run as a read-only role (a replica's connection, in a cluster) while writes
// go to the primary as records' role.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '@rex/db';
import { seedDemo } from '@rex/admin';
import { grpcServing } from '../scripts/suite.ts';
import { spawnService, startGateway, type ExtraGateway } from './support/gateway.ts';
import { api, eventually, freshDatabase, sampleSubmission, token } from './support/world.ts';

const children: ChildProcess[] = [];
let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;
let ownerUrl: string;
let gateway: ExtraGateway | undefined;

/** The fresh database as `role`. */
const as = (role: string) => {
  const url = new URL(ownerUrl);
  url.username = role;
  url.password = `${role}-password`;
  return url.toString();
};

function run(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--conditions=development', '--disable-warning=ExperimentalWarning', ...args], {
    cwd: fileURLToPath(new URL(`../${cwd}`, import.meta.url)),
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return once(child, 'exit').then(([code]) => ({ code: code as number | null, output }));
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
  children.push(spawnService(name, { GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port), MIGRATE_ON_START: 'false', ...env }));
  const address = `127.0.0.1:${port}`;
  const service = `${name}.v1.${name === 'records' ? 'Records' : 'Reports'}Service`;
  for (let i = 0; i < 300 && !(await grpcServing(address, service)); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return address;
}

beforeAll(async () => {
  database = await freshDatabase('rex_roles');
  ownerUrl = database.url;
}, 30_000);

afterAll(async () => {
  gateway?.stop();
  for (const child of children) child.kill('SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 300));
  await database?.drop();
});

describe('one database role per service', () => {
  it('when the roles are bootstrapped, then each service migrates its own schema as its role, and no role reaches beyond what it needs', async () => {
    const passwords = mkdtempSync(join(tmpdir(), 'rex-roles-'));
    for (const role of ['rex_gateway', 'rex_records', 'rex_media', 'rex_reports', 'rex_reports_reader']) writeFileSync(join(passwords, role), `${role}-password\n`);
    const bootstrap = await run(['src/main.ts', 'database', 'roles', '--apply', '--password-dir', passwords], 'tools/admin', { DATABASE_URL: ownerUrl });
    expect(bootstrap).toMatchObject({ code: 0, output: expect.stringMatching(/roles ready: rex_gateway, rex_records, rex_media, rex_reports, rex_reports_reader/) });
    // Applying it again changes nothing and fails nothing.
    expect((await run(['src/main.ts', 'database', 'roles', '--apply'], 'tools/admin', { DATABASE_URL: ownerUrl })).code).toBe(0);

    for (const [service, role] of [
      ['gateway', 'rex_gateway'],
      ['records', 'rex_records'],
      ['reports', 'rex_reports'],
      ['media', 'rex_media'],
    ]) {
      const migrated = await run(['src/main.ts', 'migrate'], `services/${service}`, { DATABASE_URL: as(role) });
      expect({ service, ...migrated }).toMatchObject({ service, code: 0 });
    }

    // reports reads the records tables records grants it, and writes none of them.
    await expect(sql(as('rex_reports'), 'SELECT count(*) FROM records.outbox')).resolves.toHaveLength(1);
    await expect(sql(as('rex_reports'), `UPDATE records.samples SET comment = 'x'`)).rejects.toThrow(/permission denied/);
    await expect(sql(as('rex_reports'), 'SELECT count(*) FROM auth.websites')).rejects.toThrow(/permission denied/);
    // The report role reads the read model only, in read-only sessions.
    await expect(sql(as('rex_reports_reader'), 'SELECT count(*) FROM reports.occurrences')).resolves.toHaveLength(1);
    await expect(sql(as('rex_reports_reader'), 'SELECT count(*) FROM records.samples')).rejects.toThrow(/permission denied/);
    await expect(sql(as('rex_reports_reader'), 'DELETE FROM reports.occurrences')).rejects.toThrow(/read-only transaction|permission denied/);
    // Services cannot touch each other's schemas.
    await expect(sql(as('rex_records'), 'SELECT count(*) FROM auth.websites')).rejects.toThrow(/permission denied/);
    await expect(sql(as('rex_gateway'), 'SELECT count(*) FROM records.samples')).rejects.toThrow(/permission denied/);
    await expect(sql(as('rex_media'), 'SELECT count(*) FROM records.samples')).rejects.toThrow(/permission denied/);
  }, 120_000);

  it('when reports query replicas use the read-only role and the projector its own, then reports answer what records wrote through its role', async () => {
    const seed = new pg.Pool({ connectionString: ownerUrl, max: 1 });
    await seedDemo(seed, inject('dataDir'));
    await seed.end();
    const records = await grpcService('records', { DATABASE_URL: as('rex_records') });
    // Two roles from one image: query replicas (read-only connection, no projector) and one projector.
    const reports = await grpcService('reports', { DATABASE_URL: as('rex_reports'), REPORTS_DATABASE_URL: as('rex_reports_reader'), PROJECTOR_ENABLED: 'false' });
    await grpcService('reports', { DATABASE_URL: as('rex_reports'), REPORTS_DATABASE_URL: as('rex_reports_reader'), PROJECTOR_ENABLED: 'true', PROJECTOR_IDLE_MS: '50' });
    gateway = await startGateway(
      { authentication_methods: { jwtUser: { allow_http: true } } },
      { DATABASE_URL: as('rex_gateway'), RECORDS_ADDR: records, REPORTS_ADDR: reports, MIGRATE_ON_START: 'false' },
    );
        const created = await api('POST', `${gateway.services}/samples`, { token: await token(), body: sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }) });
    expect(created.status).toBe(201);
    const rows = await eventually(async () => {
      const page = await api('GET', `${gateway!.services}/reports/library/occurrences/filterable_explore_list.xml?limit=10`, { token: await token() });
      expect(page.status).toBe(200);
      const occurrences = new Set(created.body.occurrences.map((o: { values: { id: string } }) => String(o.values.id)));
      const found = page.body.data.filter((row: { occurrence_id: string }) => occurrences.has(String(row.occurrence_id)));
      expect(found.length).toBe(occurrences.size);
      return found;
    }, 15_000);
    expect(rows.length).toBeGreaterThan(0);
    // The write went to the primary as records; the report ran on the read-only role's connection.
    const sessions = await sql<{ application_name: string; usename: string }>(
      ownerUrl,
      `SELECT application_name, usename FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'rex-%'`,
    );
    const roleOf = (application: string) => new Set(sessions.filter((s) => s.application_name === application).map((s) => s.usename));
    expect(roleOf('rex-reports-read')).toEqual(new Set(['rex_reports_reader']));
    expect(roleOf('rex-records')).toEqual(new Set(['rex_records']));
  }, 60_000);
});
