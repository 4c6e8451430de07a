// The projector applies the outbox one batch at a time: in the order the transactions committed,
// each event once, at a cost per batch that does not grow with the read model.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from '@rex/config';
import { createPool, withTransaction, type Pool, type PoolClient } from '@rex/db';
import { fromJsonValues, recordsV1, toJsonValues, type AuthContext, type FieldValues, type RecordsServiceClient } from '@rex/protos';
import { RECORDS_FIXTURES, importRecordsFixtures } from '../../../records/src/admin/index.ts';
import { RecordsEnv } from '../../../records/src/config.ts';
import { startRecordsServer } from '../../../records/src/server.ts';
import { ReportsEnv } from '../../src/config.ts';
import { BATCH_DUE_STATEMENT, applyBatch, batchDue, startProjector } from '../../src/projector.ts';
import { startReportsServer } from '../../src/server.ts';
import { clientOf, freshDatabase, serve, settings, silentLogger, userOf, type Unary } from '../../../../component/support/served.ts';

const WEBSITE = 1;
const owner = userOf(WEBSITE, 10);

let databaseUrl: string;
let records: Unary<RecordsServiceClient>;
let pool: Pool;

type Statement = { text: string; values: unknown[] };

/** A pool whose connections note every statement they are given (those of its query() too, once a connect() has handed them out). */
function notingPool(url: string, noted: Statement[]): Pool {
  const noting = createPool(url, { max: 1, applicationName: 'component-projector' });
  const connect = noting.connect.bind(noting);
  const wrapped = new WeakSet<PoolClient>();
  const wrap = (client: PoolClient): PoolClient => {
    if (!wrapped.has(client)) {
      wrapped.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      // Given on, as given: the pool's own query() passes a callback.
      client.query = ((statement: string | { text: string; values?: unknown[] }, ...rest: unknown[]) => {
        if (typeof statement === 'string') noted.push({ text: statement, values: Array.isArray(rest[0]) ? rest[0] : [] });
        else noted.push({ text: statement.text, values: statement.values ?? [] });
        return query(statement, ...rest);
      }) as PoolClient['query'];
    }
    return client;
  };
  // The pool's connect() calls connect(callback): only the promise's client is noted.
  noting.connect = ((callback?: Parameters<Pool['connect']>[0]) => (callback ? connect(callback) : connect().then(wrap))) as Pool['connect'];
  return noting;
}

/**
 * Tables of the records and reports schemas a statement's plan reads whole: a sequential scan, or
 * an index read from end to end (no condition bounds where it starts) unless it is a partial
 * index, which holds only the rows the statement looks for. Planned on `client` as it stands (in
 * the settings the batch gave its transaction, replayed before).
 */
async function tablesScannedWhole(client: PoolClient, statement: Statement): Promise<string[]> {
  const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON, VERBOSE) ${statement.text}`, statement.values);
  const { rows: partial } = await client.query<{ name: string }>(
    "SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indpred IS NOT NULL AND indrelid::regclass::text LIKE ANY('{records.%,reports.%}')",
  );
  const partialIndexes = new Set(partial.map((row) => row.name));
  const scanned: string[] = [];
  const visit = (node: Record<string, unknown>) => {
    const type = String(node['Node Type']);
    const unbounded = /Index/.test(type) && !node['Index Cond'] && !partialIndexes.has(`${node.Schema}.${node['Index Name']}`);
    if ((type === 'Seq Scan' || unbounded) && ['records', 'reports'].includes(String(node.Schema))) scanned.push(`${node.Schema}.${node['Relation Name']}`);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) visit(child);
  };
  const [plan] = rows[0]['QUERY PLAN'] as { Plan: Record<string, unknown> }[];
  visit(plan.Plan);
  return scanned;
}

async function createSample(auth: AuthContext, sample: FieldValues, occurrences: FieldValues[]) {
  const values = { survey_id: '1', date: '2026-05-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB', ...sample };
  const { saved } = await records.CreateSample({ auth, submission: { values: toJsonValues(values), occurrences: occurrences.map((o) => ({ values: toJsonValues(o) })) }, idempotencyKey: '' });
  return String(fromJsonValues(saved!.values).id);
}

beforeAll(async () => {
  databaseUrl = await freshDatabase('projector');
  const recordsServed = await serve('records.v1.RecordsService', () =>
    startRecordsServer(settings(RecordsEnv, { DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'true', REFERENCE_CACHE_TTL_MS: '0' }), silentLogger('records')),
  );
  records = clientOf<RecordsServiceClient>(recordsV1.RecordsService, recordsServed);
  // The read model's schema, with no projector running: the test applies the batches itself.
  await serve('reports.v1.ReportsService', () =>
    startReportsServer(settings(ReportsEnv, { DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'true', PROJECTOR_ENABLED: 'false' }), silentLogger('reports')),
  );
  pool = createPool(databaseUrl, { max: 1, applicationName: 'component-seed' });
  const fixtures = z.object(RECORDS_FIXTURES).parse({
    surveys: [{ id: 1, website_id: WEBSITE, title: 'Pond survey' }],
    taxa: [1, 2].map((id) => ({ id, taxon: `Taxon ${id}`, default_common_name: `Newt ${id}` })),
  });
  await withTransaction(pool, (client) => importRecordsFixtures(client, fixtures, new Set([WEBSITE]), () => undefined));
});

afterAll(async () => {
  await pool?.end();
});

describe('the projector', () => {
  it('when events wait from transactions 98, 99, 100 and 101, then batches of two apply them in that order, each once', async () => {
    // Transactions this low belong to the cluster's creation, so no event of the suite's own sorts
    // among them; they are older than every running transaction, so the projector may take them.
    // As text, 100 and 101 sort before 98 and 99.
    const { rows: before } = await pool.query<{ txid: string; event_id: string }>("SELECT txid::text, event_id FROM reports.projector_cursor WHERE name = 'outbox'");
    await pool.query(
      `INSERT INTO records.outbox (entity, entity_id, operation, website_id, txid)
       SELECT 'location', 900000 + n, 'create', $1, (97 + n)::text::xid8 FROM generate_series(1, 4) AS n ORDER BY n`,
      [WEBSITE],
    );
    await pool.query("UPDATE reports.projector_cursor SET txid = '0', event_id = 0 WHERE name = 'outbox'");
    try {
      const never = { everyMs: 3_600_000, next: Number.POSITIVE_INFINITY };
      expect(await applyBatch(pool, 2, never)).toBe(2);
      expect(await applyBatch(pool, 2, never)).toBe(2);
      const { rows } = await pool.query<{ entity_id: string }>(
        "SELECT entity_id::text FROM reports.changes WHERE entity = 'location' AND entity_id > 900000 ORDER BY seq",
      );
      expect(rows.map((row) => row.entity_id)).toEqual(['900001', '900002', '900003', '900004']);
    } finally {
      // Back to where the cursor was, past every event the suite wrote before.
      await pool.query("UPDATE reports.projector_cursor SET txid = $1::xid8, event_id = $2 WHERE name = 'outbox'", [before[0].txid, before[0].event_id]);
    }
  });

  /** Applies batches until one finds nothing (after at least `events`), noting every statement they run. */
  async function applyNoting(events: number): Promise<Statement[]> {
    const noted: Statement[] = [];
    const projector = notingPool(databaseUrl, noted);
    try {
      // The second batch finds nothing to apply and looks for rows still without attribute values.
      const never = { everyMs: 3_600_000, next: Number.POSITIVE_INFINITY };
      // Events wait while any older transaction of the server runs (another test's, an ANALYZE):
      // the projector applies nothing a late commit could still precede.
      // Samples commit apart, so a batch may apply the first while the next still waits:
      // batches run until one finds nothing, after every event.
      let applied = 0;
      let last = -1;
      for (const deadline = Date.now() + 10_000; (applied < events || last !== 0) && Date.now() < deadline; ) {
        last = await applyBatch(projector, 500, never);
        applied += last;
        if (last === 0 && applied < events) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(applied).toBeGreaterThanOrEqual(events);
      expect(last).toBe(0);
    } finally {
      await projector.end();
    }
    return noted;
  }

  /** What a batch asked the planner for: the statements it planned, not the ones that set its transaction up. */
  const plannedOf = (noted: Statement[]) => noted.filter((statement) => /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(statement.text) && !/pg_notify/.test(statement.text));

  /**
   * The statements batches ran whose plans read a table whole (see tablesScannedWhole), each
   * planned again in one transaction, after the settings the batches gave theirs (SET LOCAL).
   */
  async function scansOf(noted: Statement[]): Promise<{ tables: string[]; statement: string }[]> {
    const client = await pool.connect();
    const planned = new Set(plannedOf(noted));
    try {
      await client.query('BEGIN');
      const scans = [];
      for (const statement of noted) {
        if (/^\s*SET LOCAL\b/i.test(statement.text)) await client.query(statement.text);
        if (!planned.has(statement)) continue;
        const tables = await tablesScannedWhole(client, statement);
        if (tables.length) scans.push({ tables, statement: statement.text.replace(/\s+/g, ' ').slice(0, 120) });
      }
      return scans;
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }

  // Each statement of a real batch is planned again as the batch plans it: a table still read whole
  // is one no index serves, which on a read model of millions of rows is a scan of millions of rows
  // per batch.
  it('when it applies a batch of samples and occurrences, then every statement it runs finds its rows through an index', async () => {
    await createSample(owner, { location_name: 'Pond' }, [{ taxa_taxon_list_id: '1' }, { taxa_taxon_list_id: '2', sensitivity_precision: '1000' }]);
    await createSample(owner, { location_name: 'Private pond', privacy_precision: '10000' }, [{ taxa_taxon_list_id: '1' }]);
    const noted = await applyNoting(5);
    // Each kind of statement a batch of this shape runs: outbox, samples, occurrences, blurring, feed, cursor.
    expect(plannedOf(noted).length).toBeGreaterThanOrEqual(10);
    expect(await scansOf(noted)).toEqual([]);
  });

  // Under a steady stream of writes a batch holds hundreds of occurrences of a hundred samples,
  // and records holds tens of thousands of samples: PostgreSQL planned the batch's joins to read
  // records' samples and taxa whole, a cost per batch that grew with every record (decision 0048).
  it("when a batch of hundreds of occurrences meets tens of thousands of samples and taxa in records, then no statement it runs reads records' samples or taxa whole", async () => {
    const first = await createSample(owner, { location_name: 'Marsh' }, [{ taxa_taxon_list_id: '1' }]);
    await applyNoting(2);
    // Samples with no events (records holds them, the projector never applies them), and a
    // taxon list of a real warehouse's length.
    await withTransaction(pool, async (client) => {
      await client.query('CREATE TEMP TABLE copies ON COMMIT DROP AS SELECT s.* FROM records.samples s, generate_series(1, 20000) WHERE s.id = $1', [first]);
      await client.query("UPDATE copies SET id = nextval('records.samples_id_seq')");
      await client.query('INSERT INTO records.samples SELECT * FROM copies');
      await client.query("INSERT INTO records.taxa (taxon) SELECT 'Taxon ' || n FROM generate_series(3, 20000) AS n");
    });
    await pool.query('ANALYZE records.samples, records.taxa');
    // A hundred samples of three occurrences each: 400 events.
    await Promise.all(Array.from({ length: 100 }, (_, i) => createSample(owner, { location_name: `Fen ${i}` }, [1, 2, 3].map((n) => ({ taxa_taxon_list_id: String(n) })))));
    // The tables of tens of thousands of rows; the batch's own few hundred may be read whole where
    // the planner, with the statistics it has of them at that moment, finds that cheaper.
    const large = new Set(['records.samples', 'records.taxa']);
    const scans = await scansOf(await applyNoting(400));
    expect(scans.filter((scan) => scan.tables.some((table) => large.has(table)))).toEqual([]);
  });

  // An idle projector polls every PROJECTOR_IDLE_MS: each poll is one statement, not a batch's transaction.
  describe('when idle', () => {
    const never = { everyMs: 3_600_000, next: Number.POSITIVE_INFINITY };

    /** Applies batches until one finds nothing, waiting meanwhile for transactions still running (up to 10 s). */
    async function drain(): Promise<void> {
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
        if ((await applyBatch(pool, 500, never)) === 0 && !(await batchDue(pool, never))) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the outbox did not drain');
    }

    /** Whether a batch becomes due within `ms` (an event waits while an older transaction runs). */
    async function dueWithin(ms: number): Promise<boolean> {
      for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
        if (await batchDue(pool, never)) return true;
      }
      return false;
    }

    it('when nothing waits, then no batch is due; a new record, an occurrence without attribute values or statistics to look at make one due', async () => {
      await drain();
      expect(await batchDue(pool, never)).toBe(false);

      await createSample(owner, { location_name: 'Ditch' }, [{ taxa_taxon_list_id: '1' }]);
      expect(await dueWithin(10_000)).toBe(true);
      await drain();

      // A row written to the read model directly has no attribute values until the projector gives it some.
      await pool.query(
        `INSERT INTO reports.occurrences (id, sample_id, website_id, survey_id, survey_title, taxa_taxon_list_id, taxon, date_start, date_end, date_type,
           record_status, confidential, release_status, zero_abundance, training, created_by_id, created_on, updated_on)
         VALUES (990001, 990001, $1, 1, 'Pond survey', 1, 'Taxon 1', DATE '2026-05-01', DATE '2026-05-01', 'D', 'C', false, 'R', false, false, 10, now(), now())`,
        [WEBSITE],
      );
      expect(await batchDue(pool, never)).toBe(true);
      await drain();
      const { rows } = await pool.query<{ attrs: unknown }>('SELECT attrs FROM reports.occurrences WHERE id = 990001');
      expect(rows[0].attrs).toEqual({});

      expect(await batchDue(pool, { everyMs: 60_000, next: 0 })).toBe(true);
    });

    it('when it has nothing to apply, then its polls run no transaction, and a new record is applied at the next poll', async () => {
      await drain();
      const noted: Statement[] = [];
      const noting = notingPool(databaseUrl, noted);
      const projector = startProjector(noting, silentLogger('projector'), { batchSize: 500, idleMs: 10, analyzeEveryMs: 3_600_000 });
      try {
        // Polls 10 ms apart; the first runs a batch (a projector starts as if busy), which looks at the statistics.
        await vi.waitFor(() => expect(noted.filter((statement) => /AS due/.test(statement.text)).length).toBeGreaterThan(10), { timeout: 5_000, interval: 20 });
        expect(noted.filter((statement) => /^BEGIN/i.test(statement.text))).toHaveLength(1);
        const id = await createSample(owner, { location_name: 'Lake' }, [{ taxa_taxon_list_id: '2' }]);
        for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
          if ((await pool.query('SELECT 1 FROM reports.samples WHERE id = $1', [id])).rowCount) break;
        }
        expect((await pool.query('SELECT 1 FROM reports.samples WHERE id = $1', [id])).rowCount).toBe(1);
      } finally {
        await projector.stop();
        await noting.end();
      }
    });

    it('when a committed event waits behind a transaction still running, then no batch is due until that transaction ends', async () => {
      await drain();
      const other = createPool(databaseUrl, { max: 1, applicationName: 'component-older' });
      const older = await other.connect();
      try {
        await older.query('BEGIN');
        await older.query('SELECT pg_current_xact_id()');
        // Committed after the older transaction began: its event may not be applied before that one ends.
        await pool.query(`INSERT INTO records.outbox (entity, entity_id, operation, website_id) VALUES ('location', 900101, 'create', $1)`, [WEBSITE]);
        expect(await batchDue(pool, never)).toBe(false);
        await older.query('COMMIT');
        expect(await dueWithin(10_000)).toBe(true);
      } finally {
        await older.query('ROLLBACK').catch(() => undefined);
        older.release();
        await other.end();
      }
      await drain();
    });

    // The outbox keeps every event ever written: a poll that reads it whole costs more with every write.
    it('when the outbox holds tens of thousands of applied events, then a poll reads a few pages of it', async () => {
      await drain();
      // Events of transactions older than the cursor's, so already applied as far as the projector knows.
      await pool.query(
        `INSERT INTO records.outbox (entity, entity_id, operation, website_id, txid)
         SELECT 'location', 800000 + n, 'create', $1, '3'::xid8 FROM generate_series(1, 30000) AS n`,
        [WEBSITE],
      );
      try {
        await pool.query('ANALYZE records.outbox');
        const { rows } = await pool.query<{ 'QUERY PLAN': { Plan: Record<string, unknown> }[] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${BATCH_DUE_STATEMENT}`);
        const plan = rows[0]['QUERY PLAN'][0].Plan;
        const pages = Number(plan['Shared Hit Blocks']) + Number(plan['Shared Read Blocks']);
        // The outbox's 30 000 rows take about 370 pages.
        expect(pages).toBeLessThan(30);
        expect(await batchDue(pool, never)).toBe(false);
      } finally {
        await pool.query("DELETE FROM records.outbox WHERE entity = 'location' AND entity_id > 800000 AND entity_id <= 830000 AND txid = '3'::xid8");
      }
    });
  });
});
