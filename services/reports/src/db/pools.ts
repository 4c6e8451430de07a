import { createPool, type Pool } from '@rex/db';
import type { ReportsConfig } from '../config.ts';

export type ReportsPools = { write: Pool; read: Pool; count: Pool; end: () => Promise<unknown> };

/**
 * The projector writes to DATABASE_URL; reports and the change feed read
 * from REPORTS_DATABASE_URL when it is set (a read replica), a report's query
 * under REPORT_TIMEOUT_MS and its page count under REPORT_COUNT_TIMEOUT_MS.
 * Report queries are named (prepared once per connection, see report-rows.ts),
 * planned for each run's parameters, on connections that are replaced after
 * PREPARED_USES queries so the statements they hold stay few. Their plans take the read
 * model's pages as cached (REPORT_PAGE_COST): at the server's default costs (4 for a random page)
 * a page of one species in one month walked the primary key through tens of thousands of rows
 * rather than read the few hundred pages the taxon-and-dates index points to.
 */
/** Queries a reading connection serves before it is replaced. */
const PREPARED_USES = 10_000;

export function createReportsPools(config: ReportsConfig): ReportsPools {
  const readUrl = config.REPORTS_DATABASE_URL ?? config.DATABASE_URL;
  const write = createPool(config.DATABASE_URL, { max: config.DB_POOL_MAX, applicationName: 'rex-reports' });
  const read = createPool(readUrl, {
    max: config.DB_POOL_MAX,
    applicationName: 'rex-reports-read',
    statementTimeoutMs: config.REPORT_TIMEOUT_MS,
    idleInTransactionTimeoutMs: config.REPORT_TIMEOUT_MS,
    maxUses: PREPARED_USES,
    customPlans: true,
    pageCost: config.REPORT_PAGE_COST,
  });
  const count = createPool(readUrl, {
    max: config.DB_POOL_MAX,
    applicationName: 'rex-reports-count',
    statementTimeoutMs: config.REPORT_COUNT_TIMEOUT_MS,
    maxUses: PREPARED_USES,
    customPlans: true,
    pageCost: config.REPORT_PAGE_COST,
  });
  return { write, read, count, end: () => Promise.all([write.end(), read.end(), count.end()]) };
}
