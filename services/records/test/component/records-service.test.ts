// RecordsService in this process, over a real gRPC server and database: what
// the gateway relies on of each kind of record, without the rest of the suite.
import * as grpc from '@grpc/grpc-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from '@rex/config';
import { createPool, withTransaction } from '@rex/db';
import { fromJsonValues, recordsV1, toJsonValues, type AuthContext, type FieldValues, type RecordsServiceClient, type Submission } from '@rex/protos';
import { RECORDS_FIXTURES, importRecordsFixtures } from '../../src/admin/index.ts';
import { RecordsEnv } from '../../src/config.ts';
import { insertNewRecords } from '../../src/db/new-records.ts';
import { listOccurrences } from '../../src/db/occurrences-repo.ts';
import { listSamples } from '../../src/db/samples-repo.ts';
import { startRecordsServer } from '../../src/server.ts';
import { clientOf, failure, freshDatabase, serve, settings, silentLogger, userOf, type Unary } from '../../../../component/support/served.ts';

const WEBSITE = 1;
const OTHER_WEBSITE = 2;
const SURVEY = 1;
const COUNT = 1;
const WEATHER = 2;
const owner = userOf(WEBSITE, 10);
const colleague = userOf(WEBSITE, 11);
const stranger = userOf(OTHER_WEBSITE, 20);

let records: Unary<RecordsServiceClient>;
let databaseUrl: string;

const submission = (values: FieldValues, children: Partial<Record<'occurrences' | 'samples', Submission[]>> = {}): Submission => ({ values: toJsonValues(values), ...children });
const sample = (values: FieldValues = {}, children: Partial<Record<'occurrences' | 'samples', Submission[]>> = {}) =>
  submission({ survey_id: String(SURVEY), date: '2026-05-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB', ...values }, children);

async function createSample(auth: AuthContext = owner, body: Submission = sample(), idempotencyKey = '') {
  const { saved } = await records.CreateSample({ auth, submission: body, idempotencyKey });
  return { id: String(fromJsonValues(saved!.values).id), saved: saved! };
}

beforeAll(async () => {
  databaseUrl = await freshDatabase('records');
  const config = settings(RecordsEnv, { DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'true', REFERENCE_CACHE_TTL_MS: '0' });
  const served = await serve('records.v1.RecordsService', () => startRecordsServer(config, silentLogger('records')));
  records = clientOf<RecordsServiceClient>(recordsV1.RecordsService, served);
  const pool = createPool(databaseUrl, { max: 1, applicationName: 'component-seed' });
  const fixtures = z.object(RECORDS_FIXTURES).parse({
    surveys: [
      { id: SURVEY, website_id: WEBSITE, title: 'Garden birds' },
      { id: 2, website_id: OTHER_WEBSITE, title: 'Elsewhere' },
    ],
    taxa: [
      { id: 1, taxon: 'Erithacus rubecula', default_common_name: 'Robin' },
      { id: 2, taxon: 'Turdus merula', default_common_name: 'Blackbird' },
    ],
    attributes: [
      { id: COUNT, entity: 'occurrence', caption: 'Count', data_type: 'I', survey_ids: [SURVEY] },
      { id: WEATHER, entity: 'sample', caption: 'Weather', data_type: 'T', survey_ids: [SURVEY] },
    ],
  });
  await withTransaction(pool, (client) => importRecordsFixtures(client, fixtures, new Set([WEBSITE, OTHER_WEBSITE]), () => undefined));
  await pool.end();
});

describe('samples with their occurrences', () => {
  it('when a sample with two occurrences is created, then each reads back with its values and attributes, and lists by sample', async () => {
    const { id, saved } = await createSample(
      owner,
      sample({ 'smpAttr:2': 'Sunny', comment: 'Morning walk' }, { occurrences: [submission({ taxa_taxon_list_id: '1', 'occAttr:1': '3' }), submission({ taxa_taxon_list_id: '2' })] }),
    );
    expect(saved.entity).toBe('sample');
    expect(saved.occurrences).toHaveLength(2);
    const read = await records.GetSample({ auth: owner, id });
    const values = fromJsonValues(read.values);
    expect(values).toMatchObject({ id, survey_id: String(SURVEY), date_start: '2026-05-01', date_end: '2026-05-01', date_type: 'D', entered_sref: 'SU1234', comment: 'Morning walk', 'smpAttr:2': 'Sunny' });
    expect(read.version).toMatch(/^\d+$/);
    const firstId = String(fromJsonValues(saved.occurrences[0].values).id);
    const occurrence = fromJsonValues((await records.GetOccurrence({ auth: owner, id: firstId })).values);
    expect(occurrence).toMatchObject({ sample_id: id, taxa_taxon_list_id: '1', 'occAttr:1': '3' });
    const listed = await records.ListOccurrences({ auth: owner, filters: { sample_id: id }, limit: 10, offset: 0 });
    expect(listed.occurrences.map((row) => fromJsonValues(row.values).taxa_taxon_list_id).sort()).toEqual(['1', '2']);
    expect(listed.more).toBe(false);
  });

  it('when a submission is invalid, then INVALID_ARGUMENT names each field at fault and nothing is written', async () => {
    const before = await records.ListSamples({ auth: owner, filters: {}, limit: 1000, offset: 0 });
    const refused = await failure(records.CreateSample({ auth: owner, submission: sample({ survey_id: '2', date: '31/02/2020' }, { occurrences: [submission({ taxa_taxon_list_id: '1' })] }), idempotencyKey: '' }));
    expect(refused.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(refused.violations.map((violation) => violation.field)).toEqual(expect.arrayContaining(['sample:survey_id', 'sample:date_type']));
    const after = await records.ListSamples({ auth: owner, filters: {}, limit: 1000, offset: 0 });
    expect(after.samples).toHaveLength(before.samples.length);
  });

  it('when the same Idempotency-Key comes again, then the first result is replayed and one sample exists', async () => {
    const key = `component-${Date.now()}`;
    const first = await createSample(owner, sample({ comment: 'once' }), key);
    const again = await createSample(owner, sample({ comment: 'once' }), key);
    expect(again.id).toBe(first.id);
    expect(again.saved.replayed).toBe(true);
    const listed = await records.ListSamples({ auth: owner, filters: { comment: 'once' }, limit: 10, offset: 0 });
    expect(listed.samples).toHaveLength(1);
  });
});

describe('who may read and change a record', () => {
  it('when a user of another website asks for a sample, then NOT_FOUND, as if it did not exist', async () => {
    const { id } = await createSample();
    for (const call of [() => records.GetSample({ auth: stranger, id }), () => records.DeleteSample({ auth: stranger, id, ifMatch: [] })]) {
      expect((await failure(call())).code).toBe(grpc.status.NOT_FOUND);
    }
  });

  it("when another user of the website changes or deletes someone's sample, then PERMISSION_DENIED and it is unchanged", async () => {
    const { id } = await createSample(owner, sample({ comment: 'mine' }));
    const update = await failure(records.UpdateSample({ auth: colleague, id, submission: submission({ comment: 'hijacked' }), ifMatch: [] }));
    expect(update.code).toBe(grpc.status.PERMISSION_DENIED);
    expect((await failure(records.DeleteSample({ auth: colleague, id, ifMatch: [] }))).code).toBe(grpc.status.PERMISSION_DENIED);
    expect(fromJsonValues((await records.GetSample({ auth: owner, id })).values).comment).toBe('mine');
  });

  it('when If-Match holds a stale version, then update and delete fail with VERSION_MISMATCH and change nothing', async () => {
    const { id } = await createSample(owner, sample({ comment: 'first' }));
    const stale = (await records.GetSample({ auth: owner, id })).version;
    await records.UpdateSample({ auth: owner, id, submission: submission({ comment: 'second' }), ifMatch: [] });
    for (const call of [
      () => records.UpdateSample({ auth: owner, id, submission: submission({ comment: 'lost update' }), ifMatch: [stale] }),
      () => records.DeleteSample({ auth: owner, id, ifMatch: [stale] }),
    ]) {
      const refused = await failure(call());
      expect(refused.code).toBe(grpc.status.FAILED_PRECONDITION);
      expect(refused.reason).toBe('VERSION_MISMATCH');
    }
    const current = await records.GetSample({ auth: owner, id });
    expect(fromJsonValues(current.values).comment).toBe('second');
    await records.DeleteSample({ auth: owner, id, ifMatch: [current.version] });
    expect((await failure(records.GetSample({ auth: owner, id }))).code).toBe(grpc.status.NOT_FOUND);
  });

  it('when a sample is deleted, then its occurrences are gone with it', async () => {
    const { id, saved } = await createSample(owner, sample({}, { occurrences: [submission({ taxa_taxon_list_id: '1' })] }));
    const occurrenceId = String(fromJsonValues(saved.occurrences[0].values).id);
    await records.DeleteSample({ auth: owner, id, ifMatch: [] });
    expect((await failure(records.GetOccurrence({ auth: owner, id: occurrenceId }))).code).toBe(grpc.status.NOT_FOUND);
  });
});

describe('locations', () => {
  it('when a location is created, changed and listed, then each answer holds the latest values', async () => {
    const { saved } = await records.CreateLocation({ auth: owner, submission: submission({ name: 'Pond', centroid_sref: 'SU1234', centroid_sref_system: 'OSGB' }), idempotencyKey: '' });
    const id = String(fromJsonValues(saved!.values).id);
    await records.UpdateLocation({ auth: owner, id, submission: submission({ name: 'Big pond' }), ifMatch: [] });
    expect(fromJsonValues((await records.GetLocation({ auth: owner, id })).values)).toMatchObject({ name: 'Big pond', centroid_sref: 'SU1234' });
    const listed = await records.ListLocations({ auth: owner, filters: { name: 'Big pond' }, limit: 10, offset: 0 });
    expect(listed.locations.map((row) => fromJsonValues(row.values).id)).toEqual([id]);
    expect((await failure(records.GetLocation({ auth: stranger, id }))).code).toBe(grpc.status.NOT_FOUND);
  });
});

describe('statements run by name', () => {
  it('when trees of one shape are inserted again and again, then they are written each time, by one named statement prepared once on the connection', async () => {
    const pool = createPool(databaseUrl, { max: 1, applicationName: 'component-statements' });
    try {
      const tree = () => ({
        samples: [{ columns: { survey_id: String(SURVEY), date_type: 'U' }, attributes: [], occurrences: [{ columns: { taxa_taxon_list_id: '1' }, attributes: [] }], samples: [] }],
        occurrences: [],
        parent: null,
      });
      const writer = { websiteId: String(WEBSITE), userId: '10', createdById: '10' };
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) ids.push((await insertNewRecords({ pool }, tree(), writer)).samples[0].id);
      expect(new Set(ids).size).toBe(3);
      const { rows } = await pool.query<{ count: string }>('SELECT count(*) FROM records.samples WHERE id = ANY($1::bigint[])', [ids]);
      expect(rows[0].count).toBe('3');
      // pg_prepared_statements lists what this session (the pool's one connection) prepared.
      const prepared = await pool.query<{ name: string }>("SELECT name FROM pg_prepared_statements WHERE name LIKE 'tree\\_%'");
      expect(prepared.rows).toHaveLength(1);
    } finally {
      await pool.end();
    }
  });

  it("when a user's pages without filters are read again and again, then each is planned once on the connection, and a filtered page is planned for its values", async () => {
    const pool = createPool(databaseUrl, { max: 1, applicationName: 'component-pages' });
    try {
      const first = await createSample(owner, sample({}, { occurrences: [submission({ taxa_taxon_list_id: '1' }), submission({ taxa_taxon_list_id: '2' })] }));
      const page = { userId: '10', websiteId: String(WEBSITE), filters: {}, limit: 1000, offset: 0 };
      const read: string[][] = [];
      for (let i = 0; i < 3; i += 1) {
        read.push((await listSamples(pool, page)).map((row) => String(row.id)));
        read.push((await listOccurrences(pool, page)).map((row) => String(row.sample_id)));
      }
      expect(read[0]).toContain(first.id);
      expect(read[1].filter((sampleId) => sampleId === first.id)).toHaveLength(2);
      expect(read.slice(2)).toEqual([read[0], read[1], read[0], read[1]]);
      const filtered = { ...page, filters: { sample_id: first.id } };
      for (let i = 0; i < 3; i += 1) expect((await listOccurrences(pool, filtered)).map((row) => String(row.sample_id))).toEqual([first.id, first.id]);
      const prepared = await pool.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements WHERE name LIKE 'page\\_%'");
      expect(prepared.rows).toHaveLength(2);
      expect(prepared.rows.filter(({ statement }) => statement.includes('o.sample_id = $'))).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
