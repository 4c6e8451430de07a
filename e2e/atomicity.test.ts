import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { freePort } from '@rex/db';
import { grpcServing } from '../scripts/suite.ts';
import { startGateway, type ExtraGateway } from './support/gateway.ts';
import { api, dbQuery, sampleSubmission, setUpWorld, token } from './support/world.ts';

const OCCURRENCES = 3000;
const started: { stop: () => void }[] = [];

/** A records process of its own, so that it can be killed without touching the suite's. */
async function startRecords(): Promise<{ child: ChildProcess; address: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--conditions=development', '--disable-warning=ExperimentalWarning', 'src/main.ts'], {
    cwd: fileURLToPath(new URL('../services/records', import.meta.url)),
    env: { ...process.env, DATABASE_URL: inject('databaseUrl'), INTERNAL_AUTH_SECRET: inject('internalSecret'), GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port), METRICS_PORT: '0', LOG_LEVEL: 'silent', OTEL_SDK_DISABLED: 'true', REFERENCE_CACHE_TTL_MS: '0' },
    stdio: 'ignore',
  });
  const address = `127.0.0.1:${port}`;
  for (let i = 0; i < 200 && !(await grpcServing(address, 'records.v1.RecordsService')); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return { child, address };
}

afterAll(() => {
  for (const process of started) process.stop();
});

describe('a large submission when records is killed', () => {
  it(`when records dies while writing a sample with ${OCCURRENCES} occurrences, then the database holds all of it or none of it`, async () => {
    await setUpWorld();
    const bearer = await token();
    const outcomes: number[] = [];
    for (const delayMs of [30, 80, 150, 250]) {
      const records = await startRecords();
      const gateway: ExtraGateway = await startGateway({ authentication_methods: { jwtUser: { allow_http: true } } }, { RECORDS_ADDR: records.address });
      started.push(gateway, { stop: () => records.child.kill('SIGKILL') });
      const marker = `atomic-${Date.now()}-${delayMs}`;
      const body = sampleSubmission(
        { comment: marker },
        { occurrences: Array.from({ length: OCCURRENCES }, (_, i) => ({ values: { taxa_taxon_list_id: (i % 4) + 1, 'occAttr:1': String(i), comment: `n${i}` } })) },
      );
      const request = api('POST', `${gateway.services}/samples`, { token: bearer, body }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      records.child.kill('SIGKILL');
      await request;
      // PostgreSQL notices the dropped connection and rolls back what was not committed.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const samples = await dbQuery<{ id: string }>('SELECT id FROM records.samples WHERE comment = $1', [marker]);
      expect(samples.length).toBeLessThanOrEqual(1);
      if (samples.length) {
        const [{ n }] = await dbQuery<{ n: number }>('SELECT count(*)::int AS n FROM records.occurrences WHERE sample_id = $1', [samples[0].id]);
        const [{ v }] = await dbQuery<{ v: number }>(
          'SELECT count(*)::int AS v FROM records.occurrence_attribute_values a JOIN records.occurrences o ON o.id = a.occurrence_id WHERE o.sample_id = $1',
          [samples[0].id],
        );
        expect({ occurrences: n, values: v }).toEqual({ occurrences: OCCURRENCES, values: OCCURRENCES });
        outcomes.push(1);
      } else {
        // Occurrences cannot exist without their sample (foreign key), so no sample means none of it.
        outcomes.push(0);
      }
    }
    expect(outcomes).toHaveLength(4);
  }, 60_000);
});
