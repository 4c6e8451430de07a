// ReportsService in this process, over a real gRPC server and database: its read
// model follows the outbox of a records service run beside it (as in a cluster,
// both on one database), and each caller's run of a report sees what it may.
import * as grpc from '@grpc/grpc-js';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from '@rex/config';
import { createPool, withTransaction } from '@rex/db';
import { registry } from '@rex/telemetry';
import {
  RowTextWriter,
  fromJsonRows,
  fromJsonValues,
  recordsV1,
  reportsV1,
  toJsonValues,
  type AuthContext,
  type FieldValues,
  type RecordsServiceClient,
  type ReportsServiceClient,
  type RowBatch__Output,
  type RunReportChunk__Output,
  type RunReportRequest,
} from '@rex/protos';
import { RECORDS_FIXTURES, importRecordsFixtures } from '../../../records/src/admin/index.ts';
import { RecordsEnv } from '../../../records/src/config.ts';
import { startRecordsServer } from '../../../records/src/server.ts';
import { ReportsEnv } from '../../src/config.ts';
import { startReportsServer } from '../../src/server.ts';
import { clientOf, failure, freshDatabase, serve, settings, silentLogger, userOf, type Unary } from '../../../../component/support/served.ts';

const EXPLORE = 'library/occurrences/filterable_explore_list';
const WEBSITE = 1;
const owner = userOf(WEBSITE, 10);
const colleague = userOf(WEBSITE, 11);
const reporter = userOf(WEBSITE, 12, { scope: 'SCOPE_REPORTING' });
const stranger = userOf(2, 20, { scope: 'SCOPE_REPORTING' });
const MARKER = 'component-pond';

let databaseUrl: string;
let records: Unary<RecordsServiceClient>;
let reports: ReturnType<typeof clientOf<ReportsServiceClient>>;
let ownOccurrences: string[];
let confidentialOccurrence: string;
let colleaguesOccurrence: string;

/** A run of a report, read to its end: the head and every row as an object of its columns. */
async function run(auth: AuthContext, request: Partial<RunReportRequest> = {}) {
  const stream = reports.raw.serverStream<RunReportChunk__Output>('RunReport', { auth, path: EXPLORE, parameters: { location_name: MARKER }, limit: 1000, wantCount: true, ...request }, 10_000);
  let columns: string[] = [];
  let count = -1;
  const rows: Record<string, string | null>[] = [];
  for await (const chunk of stream as AsyncIterable<RunReportChunk__Output>) {
    if (chunk.head) {
      columns = chunk.head.columns;
      count = Number(chunk.head.count);
    }
    if (chunk.rows) for (const row of fromJsonRows(chunk.rows.json)) rows.push(Object.fromEntries(columns.map((column, i) => [column, row[i]])));
  }
  return { columns, count, rows };
}

/** A run of a report as its batches of rows come, with the head's columns. */
async function batchesOf(auth: AuthContext, request: Partial<RunReportRequest> = {}) {
  const stream = reports.raw.serverStream<RunReportChunk__Output>('RunReport', { auth, path: EXPLORE, parameters: { location_name: MARKER }, limit: 1000, ...request }, 10_000);
  let columns: string[] = [];
  const batches: RowBatch__Output[] = [];
  for await (const chunk of stream as AsyncIterable<RunReportChunk__Output>) {
    if (chunk.head) columns = chunk.head.columns;
    if (chunk.rows) batches.push(chunk.rows);
  }
  return { columns, batches };
}

const occurrenceIds = async (auth: AuthContext) => (await run(auth)).rows.map((row) => String(row.occurrence_id)).sort();

async function createSample(auth: AuthContext, occurrences: FieldValues[], locationName = MARKER) {
  const values = { survey_id: '1', date: '2026-05-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB', location_name: locationName };
  const { saved } = await records.CreateSample({ auth, submission: { values: toJsonValues(values), occurrences: occurrences.map((o) => ({ values: toJsonValues(o) })) }, idempotencyKey: '' });
  return { id: String(fromJsonValues(saved!.values).id), occurrences: saved!.occurrences.map((o) => String(fromJsonValues(o.values).id)) };
}

beforeAll(async () => {
  databaseUrl = await freshDatabase('reports');
  const recordsServed = await serve('records.v1.RecordsService', () =>
    startRecordsServer(settings(RecordsEnv, { DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'true', REFERENCE_CACHE_TTL_MS: '0' }), silentLogger('records')),
  );
  records = clientOf<RecordsServiceClient>(recordsV1.RecordsService, recordsServed);
  const reportsServed = await serve('reports.v1.ReportsService', () =>
    startReportsServer(settings(ReportsEnv, { DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'true', PROJECTOR_IDLE_MS: '20' }), silentLogger('reports')),
  );
  reports = clientOf<ReportsServiceClient>(reportsV1.ReportsService, reportsServed);
  const pool = createPool(databaseUrl, { max: 1, applicationName: 'component-seed' });
  const fixtures = z.object(RECORDS_FIXTURES).parse({
    surveys: [{ id: 1, website_id: WEBSITE, title: 'Garden birds' }],
    taxa: [1, 2, 3, 4].map((id) => ({ id, taxon: `Taxon ${id}`, default_common_name: `Bird ${id}` })),
  });
  await withTransaction(pool, (client) => importRecordsFixtures(client, fixtures, new Set([WEBSITE]), () => undefined));
  await pool.end();

  const mine = await createSample(owner, [{ taxa_taxon_list_id: '1' }, { taxa_taxon_list_id: '2' }, { taxa_taxon_list_id: '3', confidential: 't' }]);
  ownOccurrences = mine.occurrences.slice(0, 2).sort();
  confidentialOccurrence = mine.occurrences[2];
  colleaguesOccurrence = (await createSample(colleague, [{ taxa_taxon_list_id: '4' }])).occurrences[0];
  // The projector applies the outbox in the background.
  await vi.waitFor(async () => expect(await occurrenceIds(reporter)).toEqual([...ownOccurrences, colleaguesOccurrence].sort()), { timeout: 15_000, interval: 50 });
});

describe('running a report', () => {
  it('when a user runs the explore report, then it gets its own records with their columns, the count and the page asked for', async () => {
    const all = await run(owner);
    expect(all.count).toBe(2);
    expect(all.columns.slice(0, 2)).toEqual(['occurrence_id', 'taxon']);
    expect(all.rows[0]).toMatchObject({ location_name: MARKER, website_id: String(WEBSITE) });
    const second = await run(owner, { limit: 1, offset: 1, orderBy: 'occurrence_id', sortDir: 'ASC' });
    expect(second.rows.map((row) => row.occurrence_id)).toEqual([ownOccurrences[1]]);
    expect(second.count).toBe(2);
  });

  it("when the rows are asked for as CSV, NDJSON or a page's JSON objects, then each batch holds them as that text, with its count; a form it does not know gets the values", async () => {
    const { columns, batches } = await batchesOf(owner);
    const values = batches.flatMap((batch) => fromJsonRows(batch.json));
    expect(values).toHaveLength(2);
    expect(batches.map((batch) => batch.count)).toEqual([2]);
    for (const form of ['ROW_FORM_CSV', 'ROW_FORM_NDJSON', 'ROW_FORM_JSON_OBJECTS'] as const) {
      const written = await batchesOf(owner, { rowForm: form });
      expect(written.columns).toEqual(columns);
      expect(written.batches.map((batch) => batch.json)).toEqual(['']);
      expect(written.batches.map((batch) => batch.count)).toEqual([2]);
      expect(Buffer.concat(written.batches.map((batch) => batch.text)).toString('utf8'), form).toBe(new RowTextWriter(form, columns).write(values));
    }
    const unknown = await batchesOf(owner, { rowForm: 9 as unknown as RunReportRequest['rowForm'] });
    expect(unknown.batches.flatMap((batch) => fromJsonRows(batch.json))).toEqual(values);
    expect(unknown.batches.map((batch) => batch.text.length)).toEqual([0]);
  });

  it('when callers of different scope run the same report, then each sees exactly its records, and confidential ones are left out', async () => {
    expect(await occurrenceIds(colleague)).toEqual([colleaguesOccurrence]);
    expect(await occurrenceIds(reporter)).toEqual([...ownOccurrences, colleaguesOccurrence].sort());
    expect(await occurrenceIds(stranger)).toEqual([]);
    expect(await occurrenceIds(reporter)).not.toContain(confidentialOccurrence);
  });

  it('when a sample is deleted, then its occurrences leave the report', async () => {
    const gone = await createSample(owner, [{ taxa_taxon_list_id: '1' }]);
    await vi.waitFor(async () => expect(await occurrenceIds(owner)).toContain(gone.occurrences[0]), { timeout: 15_000, interval: 50 });
    await records.DeleteSample({ auth: owner, id: gone.id, ifMatch: [] });
    await vi.waitFor(async () => expect(await occurrenceIds(owner)).toEqual(ownOccurrences), { timeout: 15_000, interval: 50 });
  });

  it('when a report does not exist or a parameter is not of its type, then NOT_FOUND, or refused naming the parameter; so is an order by no column', async () => {
    await expect(run(owner, { path: 'library/occurrences/nothing' })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    // FAILED_PRECONDITION: a request the client must change (the gateway's 400 with the message).
    await expect(run(owner, { parameters: { survey_id: 'abc' } })).rejects.toMatchObject({ code: grpc.status.FAILED_PRECONDITION, details: expect.stringMatching(/survey_id/) });
    await expect(run(owner, { orderBy: 'nonsense' })).rejects.toMatchObject({ code: grpc.status.FAILED_PRECONDITION });
  });
});

/** Report pages' counts so far, by where they came from. */
async function countsAnswered(): Promise<{ database: number; cache: number }> {
  const metric = await registry.getSingleMetric('reports_page_counts_total')!.get();
  const of = (source: string) => metric.values.find((value) => value.labels.source === source)?.value ?? 0;
  return { database: of('database'), cache: of('cache') };
}

describe('counts kept between pages (REPORT_COUNT_CACHE_MS)', () => {
  it('when the same page is asked for again, then its count is the one kept, and a caller who sees other rows gets its own count', async () => {
    expect((await run(reporter)).count).toBe(3);
    // Retried: a change to the read model between the two pages (the projector's last batch) would rightly forget the count.
    await vi.waitFor(
      async () => {
        const before = await countsAnswered();
        expect((await run(reporter)).count).toBe(3);
        expect((await run(reporter)).count).toBe(3);
        expect(await countsAnswered()).toEqual({ database: before.database, cache: before.cache + 2 });
      },
      { timeout: 5_000, interval: 50 },
    );
    // The same report with the same parameters, counted for each caller's rows (not the reporter's kept count).
    expect((await run(colleague)).count).toBe(1);
    expect((await run(stranger)).count).toBe(0);
    expect((await run(owner, { parameters: { location_name: MARKER, taxa_taxon_list_id: '1' } })).count).toBe(1);
  });

  it('when the read model changes, through the projector or by plain SQL, then the next page counts again', async () => {
    const place = 'component-kept-count';
    const counted = async () => (await run(owner, { parameters: { location_name: place } })).count;
    const elsewhere = await createSample(owner, [{ taxa_taxon_list_id: '2' }], 'component-elsewhere');
    expect(await counted()).toBe(0);
    expect(await counted()).toBe(0);
    await createSample(owner, [{ taxa_taxon_list_id: '1' }], place);
    await vi.waitFor(async () => expect(await counted()).toBe(1), { timeout: 10_000, interval: 50 });
    // The other sample reaches the read model before it is changed there (the projector would write over the change).
    await vi.waitFor(async () => expect((await run(owner, { parameters: { location_name: 'component-elsewhere' } })).count).toBe(1), { timeout: 10_000, interval: 50 });
    const pool = createPool(databaseUrl, { max: 1, applicationName: 'component-direct-write' });
    try {
      expect(await counted()).toBe(1);
      // A change the projector did not make: the count follows it all the same.
      await pool.query('UPDATE reports.occurrences SET location_name = $1 WHERE id = $2', [place, elsewhere.occurrences[0]]);
      await vi.waitFor(async () => expect(await counted()).toBe(2), { timeout: 5_000, interval: 50 });
    } finally {
      await pool.end();
    }
  });

  it('when the read model gains a table, then it notifies its changes like the others (every table has the trigger)', async () => {
    const pool = createPool(databaseUrl, { max: 1, applicationName: 'component-triggers' });
    try {
      const { rows } = await pool.query<{ table: string; notifies: boolean }>(
        `SELECT t.tablename AS table,
                EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = format('reports.%I', t.tablename)::regclass AND g.tgname = 'notify_change') AS notifies
           FROM pg_tables t WHERE t.schemaname = 'reports' AND t.tablename <> 'schema_migrations' ORDER BY 1`,
      );
      expect(rows.map((row) => row.table)).toContain('occurrences');
      expect(rows.filter((row) => !row.notifies)).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});

describe('the library and the change feed', () => {
  it('when a report is described, then its parameters and columns are listed', async () => {
    const described = await reports.DescribeReport({ auth: owner, path: EXPLORE });
    expect(described.parameters.map((parameter) => parameter.name)).toContain('location_name');
    expect(described.columns.map((column) => column.name)).toContain('occurrence_id');
    expect((await failure(reports.DescribeReport({ auth: owner, path: 'library/nothing' }))).code).toBe(grpc.status.NOT_FOUND);
  });

  it("when a user reads the feed from the beginning, then its own samples' creations are there in order, and a cursor resumes after them", async () => {
    const first = await reports.ListChanges({ auth: owner, fromBeginning: true, limit: 1000, entities: ['occurrence'], ownOnly: true });
    const ids = first.changes.map((change) => change.id);
    expect(ids).toEqual(expect.arrayContaining(ownOccurrences));
    expect(ids).not.toContain(colleaguesOccurrence);
    const resumed = await reports.ListChanges({ auth: owner, cursor: first.nextCursor, limit: 1000, entities: ['occurrence'], ownOnly: true });
    expect(resumed.changes).toEqual([]);
  });
});
