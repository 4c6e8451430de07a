import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { api, eventually, sampleSubmission, setUpWorld, token, dbQuery } from './support/world.ts';

/** Another reports replica on the suite's database, applying the outbox in small batches. */
function replica(): ChildProcess {
  return spawn(process.execPath, ['--conditions=development', '--disable-warning=ExperimentalWarning', 'src/main.ts'], {
    cwd: fileURLToPath(new URL('../services/reports', import.meta.url)),
    env: {
      ...process.env,
      DATABASE_URL: inject('databaseUrl'),
      INTERNAL_AUTH_SECRET: inject('internalSecret'),
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: '0',
      METRICS_PORT: '0',
      PROJECTOR_BATCH_SIZE: '3',
      PROJECTOR_IDLE_MS: '5',
      LOG_LEVEL: 'silent',
      OTEL_SDK_DISABLED: 'true',
    },
    stdio: 'ignore',
  });
}

const replicas: ChildProcess[] = [];
const marker = `projector${Date.now()}`;

beforeAll(async () => {
  await setUpWorld();
  replicas.push(replica(), replica());
});

afterAll(() => {
  for (const child of replicas) child.kill('SIGKILL');
});

describe('the outbox projector', () => {
  it('when replicas apply the outbox together and one is killed mid-way, then the read model ends exactly equal to the records', async () => {
    const bearer = await token();
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 60; i++) {
      writes.push(
        api('POST', '/samples', {
          token: bearer,
          body: sampleSubmission({ location_name: marker }, { occurrences: [1, 2, 3].map((taxon) => ({ values: { taxa_taxon_list_id: taxon } })) }),
        }),
      );
      if (i === 30) replicas[0].kill('SIGKILL');
      if (i % 10 === 9) await Promise.all(writes.splice(0));
    }
    await Promise.all(writes);
    const deleted = await dbQuery<{ id: string }>("SELECT id FROM records.samples WHERE location_name = $1 ORDER BY id LIMIT 5", [marker]);
    for (const { id } of deleted) expect((await api('DELETE', `/samples/${id}`, { token: bearer })).status).toBe(204);

    const source = async () =>
      (
        await dbQuery<{ id: string }>(
          `SELECT o.id FROM records.occurrences o JOIN records.samples s ON s.id = o.sample_id
            WHERE s.location_name = $1 AND NOT o.deleted ORDER BY o.id`,
          [marker],
        )
      ).map((row) => row.id);
    const readModel = async () =>
      (await dbQuery<{ id: string }>('SELECT id FROM reports.occurrences WHERE location_name = $1 AND NOT deleted ORDER BY id', [marker])).map((row) => row.id);
    const expected = await source();
    expect(expected).toHaveLength(55 * 3);
    await eventually(async () => expect(await readModel()).toEqual(expected), 20_000);
    const [behind] = await dbQuery<{ n: string }>(
      "SELECT count(*) AS n FROM records.outbox o, reports.projector_cursor c WHERE c.name = 'outbox' AND (o.txid, o.id) > (c.txid, c.event_id)",
    );
    expect(Number(behind.n)).toBe(0);
  }, 60_000);

  it('when the read model grows, then the projector keeps its statistics current, whatever the server\'s autovacuum does', async () => {
    const bearer = await token();
    const body = sampleSubmission({ location_name: `${marker}-bulk` }, { occurrences: Array.from({ length: 1500 }, () => ({ values: { taxa_taxon_list_id: 1 } })) });
    expect((await api('POST', '/samples', { token: bearer, body })).status).toBe(201);
    const stale = async () =>
      (
        await dbQuery<{ n_mod_since_analyze: string; n_live_tup: string }>(
          "SELECT n_mod_since_analyze, n_live_tup FROM pg_stat_user_tables WHERE schemaname = 'reports' AND relname = 'occurrences'",
        )
      )[0];
    await eventually(async () => {
      const { n_mod_since_analyze: changed, n_live_tup: rows } = await stale();
      expect(Number(changed)).toBeLessThanOrEqual(500 + Number(rows) / 10);
      const [{ reltuples }] = await dbQuery<{ reltuples: number }>("SELECT reltuples FROM pg_class WHERE oid = 'reports.occurrences'::regclass");
      expect(Number(reltuples)).toBeGreaterThanOrEqual(1500);
    }, 25_000);
  }, 40_000);

  it('when lag is asked for, then the reports metrics give events and seconds behind and the delay histogram', async () => {
    const metrics = await (await fetch(inject('reportsMetricsUrl'))).text();
    expect(metrics).toMatch(/reports_projector_events_behind \d+/);
    expect(metrics).toMatch(/reports_projector_seconds_behind [\d.e-]+/);
    expect(metrics).toMatch(/reports_projector_event_delay_seconds_count \d+/);
  });
});
