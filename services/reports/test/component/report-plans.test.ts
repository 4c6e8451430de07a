// Report pages over a read model of many records, as PostgreSQL plans them on reports' own
// connections: a page of one species in one month takes the ids of its rows from the
// taxon-and-dates index alone (an index-only scan), and holds exactly the records the plain
// comparisons of taxon and dates find.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@rex/db';
import { fromJsonRows, reportsV1, type AuthContext, type AuthContext__Output, type ReportsServiceClient, type RunReportChunk__Output } from '@rex/protos';
import { ReportsEnv } from '../../src/config.ts';
import { createReportsPools, type ReportsPools } from '../../src/db/pools.ts';
import { visibilityFor } from '../../src/domain/visibility.ts';
import { loadCatalogue } from '../../src/library/catalogue.ts';
import { compileReport, type CompiledReport } from '../../src/library/compile.ts';
import { startReportsServer } from '../../src/server.ts';
import { clientOf, freshDatabase, serve, settings, silentLogger, userOf } from '../../../../component/support/served.ts';

const EXPLORE = 'library/occurrences/filterable_explore_list';
const WEBSITE = 1;
const reporter = userOf(WEBSITE, 12, { scope: 'SCOPE_REPORTING' });
/** Records in the read model: four species, their dates going round 2 000 days from 2020. */
const ROWS = 100_000;
const MONTH = { date_from: '2021-03-01', date_to: '2021-03-31' };
/** Taxa at the ends of the index's number line and beyond it (2^43 - 2 is its last). */
const FAR_TAXA = ['0', '8796093022206', '8796093022207', '9007199254740993'];

let seed: Pool;
let pools: ReportsPools;
let reports: ReturnType<typeof clientOf<ReportsServiceClient>>;

/** The indexes a statement's plan reads the read model's occurrences through (each with how), and whether it reads the table whole. */
async function accessPaths(pool: Pool, sql: string, values: unknown[]): Promise<{ indexes: string[]; wholeTable: boolean }> {
  const { rows } = await pool.query<{ 'QUERY PLAN': { Plan: Record<string, unknown> }[] }>(`EXPLAIN (FORMAT JSON) ${sql}`, values);
  const indexes: string[] = [];
  let wholeTable = false;
  const visit = (node: Record<string, unknown>) => {
    if (node['Relation Name'] === 'occurrences' && node['Node Type'] === 'Seq Scan') wholeTable = true;
    if (typeof node['Index Name'] === 'string') indexes.push(`${node['Index Name']} (${node['Node Type']})`);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) visit(child);
  };
  visit(rows[0]['QUERY PLAN'][0].Plan);
  return { indexes, wholeTable };
}

function compiled(parameters: Record<string, string>): CompiledReport {
  const definition = loadCatalogue([fileURLToPath(new URL('../../definitions', import.meta.url))]).reports.get(EXPLORE)!;
  return compileReport(definition, parameters, visibilityFor('occurrences', reporter as AuthContext__Output, false), { limit: 100, offset: 0, countLimit: 10_000 });
}

/** A run of the explore report through the service: the count and the page's occurrence ids. */
async function page(auth: AuthContext, parameters: Record<string, string>, offset = 0) {
  const stream = reports.raw.serverStream<RunReportChunk__Output>('RunReport', { auth, path: EXPLORE, parameters, limit: 100, offset, wantCount: true }, 10_000);
  let count = -1;
  const ids: string[] = [];
  for await (const chunk of stream as AsyncIterable<RunReportChunk__Output>) {
    if (chunk.head) count = Number(chunk.head.count);
    if (chunk.rows) for (const row of fromJsonRows(chunk.rows.json)) ids.push(String(row[0]));
  }
  return { count, ids };
}

beforeAll(async () => {
  const databaseUrl = await freshDatabase('report_plans');
  const served = await serve('reports.v1.ReportsService', () =>
    startReportsServer(settings(ReportsEnv, { DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'true', PROJECTOR_ENABLED: 'false' }), silentLogger('reports')),
  );
  reports = clientOf<ReportsServiceClient>(reportsV1.ReportsService, served);
  pools = createReportsPools(settings(ReportsEnv, { DATABASE_URL: databaseUrl }));
  seed = createPool(databaseUrl, { max: 1, statementTimeoutMs: 0, applicationName: 'component-seed' });
  // Besides dated records, some of species 1 with an open start or end around the month, which the
  // window's plain comparisons leave out, and some deleted or confidential ones.
  await seed.query(
    `INSERT INTO reports.occurrences (id, sample_id, website_id, survey_id, taxa_taxon_list_id, taxon, date_start, date_end, date_type,
       record_status, confidential, release_status, deleted, zero_abundance, training, created_by_id, created_on, updated_on, attrs, sample_attrs)
     SELECT n, n / 3, $1, 1, 1 + n % 4, 'Taxon ' || (1 + n % 4),
            CASE WHEN n % 997 = 0 THEN NULL ELSE DATE '2020-01-01' + n % 2000 END,
            CASE WHEN n % 991 = 0 THEN NULL ELSE DATE '2020-01-01' + n % 2000 END,
            'D', 'C', n % 89 = 0, 'R', n % 83 = 0, false, false, 10, now(), now(), '{}', '{}'
       FROM generate_series(1, $2::int) AS n`,
    [WEBSITE, ROWS],
  );
  // And some of taxa at and beyond the ends of the index's number line, in the month or open-ended.
  await seed.query(
    `INSERT INTO reports.occurrences (id, sample_id, website_id, survey_id, taxa_taxon_list_id, taxon, date_start, date_end, date_type,
       record_status, confidential, release_status, deleted, zero_abundance, training, created_by_id, created_on, updated_on, attrs, sample_attrs)
     SELECT $2::int + 100 * t.i + n, $2::int + n, $1, 1, t.taxon, 'Far taxon',
            CASE WHEN n % 5 = 0 THEN NULL ELSE DATE '2021-03-01' + n END, CASE WHEN n % 7 = 0 THEN NULL ELSE DATE '2021-03-01' + n END,
            'D', 'C', false, 'R', false, false, false, 10, now(), now(), '{}', '{}'
       FROM unnest($3::bigint[]) WITH ORDINALITY AS t(taxon, i), generate_series(1, 20) AS n`,
    [WEBSITE, ROWS, FAR_TAXA],
  );
  // As autovacuum leaves a table: its pages known to be visible to all, which an index-only scan needs.
  await seed.query('VACUUM ANALYZE reports.occurrences');
}, 60_000);

afterAll(async () => {
  await pools?.end();
  await seed?.end();
});

describe('a report page over many records', () => {
  it('when a page asks for one species in one month, then the ids of its rows, and its count, are read from the taxon-and-dates index alone, and only its rows from the table', async () => {
    const report = compiled({ taxa_taxon_list_id: '1', ...MONTH });
    const page = await accessPaths(pools.read, report.sql, report.values);
    expect(page.wholeTable).toBe(false);
    expect(page.indexes.sort()).toEqual(['occurrences_pkey (Index Scan)', 'occurrences_taxon_dates (Index Only Scan)']);
    expect(await accessPaths(pools.count, report.countSql, report.countValues)).toEqual({ indexes: ['occurrences_taxon_dates (Index Only Scan)'], wholeTable: false });
  });

  it('when a page asks for species in a date window, then it holds exactly the records the plain comparisons of taxon and dates find, newest first, with their count', async () => {
    for (const [taxa, window] of [
      ['1', MONTH],
      ['1,3', { date_from: '2020-12-20', date_to: '2021-01-10' }],
      ['2', { date_from: '2024-06-01' }],
      ['4', { date_to: '2020-01-15' }],
      // Given backwards: what spans the gap (nothing here), as the comparisons find it.
      ['1', { date_from: '2021-03-31', date_to: '2021-03-01' }],
      ['', { date_from: '2021-03-31', date_to: '2021-03-01' }],
      // Taxa beyond the index's number line: their records are found by the plain comparison.
      ['1,9007199254740993', MONTH],
      ['8796093022206', MONTH],
      ['8796093022207', { date_from: '2021-03-05' }],
      ['0,8796093022206,8796093022207', {}],
      ['8796093022206,9007199254740993', { date_to: '2021-03-10' }],
    ] as const) {
      const { rows } = await seed.query<{ id: string }>(
        `SELECT o.id::text AS id FROM reports.occurrences o
          WHERE website_id = $1 AND NOT deleted AND NOT confidential AND release_status = 'R' AND ($2::bigint[] IS NULL OR taxa_taxon_list_id = ANY($2))
            AND ($3::date IS NULL OR date_end >= $3) AND ($4::date IS NULL OR date_start <= $4)
          ORDER BY o.id DESC`,
        [WEBSITE, taxa ? taxa.split(',') : null, 'date_from' in window ? window.date_from : null, 'date_to' in window ? window.date_to : null],
      );
      const answered = await page(reporter, { ...(taxa ? { taxa_taxon_list_id: taxa } : {}), ...window });
      expect(answered.ids, `taxa ${taxa} in ${JSON.stringify(window)}`).toEqual(rows.slice(0, 100).map((row) => row.id));
      expect(answered.count).toBe(rows.length > 10_000 ? 0 : rows.length);
      const second = await page(reporter, { ...(taxa ? { taxa_taxon_list_id: taxa } : {}), ...window }, 100);
      expect(second.ids, `the second page of taxa ${taxa} in ${JSON.stringify(window)}`).toEqual(rows.slice(100, 200).map((row) => row.id));
    }
  });

  it("when the taxa's span is asked for, then it is the union of their windows: one multirange, the same records", async () => {
    const span = async (taxa: (string | null)[] | null, from: string | null, to: string | null) =>
      (await seed.query<{ span: string }>('SELECT reports.taxa_span($1::bigint[], $2::date, $3::date)::text AS span', [taxa, from, to])).rows[0].span;
    expect(await span(['1'], '2021-03-01', '2021-03-31')).toBe('{[1165878,1165909)}');
    expect(await span(['3', '1'], '2021-03-01', '2021-03-31')).toBe('{[1165878,1165909),[3263030,3263061)}');
    expect(await span(['1', null, '-1', '8796093022207'], null, null)).toBe('{[-1,0),[1048576,2097152)}');
    expect(await span(null, '2021-03-01', '2021-03-31')).toBe('{}');
  });

  it("when the taxa's windows are asked for, then each taxon gets its stretch within the window, and a taxon off the line or missing a range below the line", async () => {
    // 2021-03-01 is day 117 302 after 1700-01-01; each taxon's stretch is 2^20 days long.
    const windows = async (taxa: (string | null)[] | null, from: string | null, to: string | null) =>
      (await seed.query<{ windows: string }>('SELECT reports.taxa_windows($1::bigint[], $2::date, $3::date)::text AS windows', [taxa, from, to])).rows[0].windows;
    expect(await windows(['1'], '2021-03-01', '2021-03-31')).toBe('{"[1165878,1165909)"}');
    expect(await windows(['1', null, '-1', '8796093022207'], null, null)).toBe('{"[1048576,2097152)","[-1,0)","[-1,0)","[-1,0)"}');
    expect(await windows(['2'], '2021-03-31', '2021-03-01')).toBe('{"[2214454,2214455)"}');
    expect(await windows(['8796093022206'], '2021-03-01', null)).toBe('{"[9223372036852795958,9223372036853727232)"}');
    expect(await windows(null, '2021-03-01', '2021-03-31')).toBe('{}');
  });
});
