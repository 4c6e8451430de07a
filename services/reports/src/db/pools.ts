import { createPool, type Pool } from '@rex/db';
import type { ReportsConfig } from '../config.ts';

export type ReportsPools = { write: Pool; read: Pool; count: Pool; end: () => Promise<unknown> };

/**
 * The projector writes to DATABASE_URL; reports and the change feed read
 * from REPORTS_DATABASE_URL when it is set (a read replica), a report's query
 * under REPORT_TIMEOUT_MS and its page count under REPORT_COUNT_TIMEOUT_MS.
 */
export function createReportsPools(config: ReportsConfig): ReportsPools {
  const readUrl = config.REPORTS_DATABASE_URL ?? config.DATABASE_URL;
  const write = createPool(config.DATABASE_URL, { max: config.DB_POOL_MAX, applicationName: 'rex-reports' });
  const read = createPool(readUrl, { max: config.DB_POOL_MAX, applicationName: 'rex-reports-read', statementTimeoutMs: config.REPORT_TIMEOUT_MS, idleInTransactionTimeoutMs: config.REPORT_TIMEOUT_MS });
  const count = createPool(readUrl, { max: config.DB_POOL_MAX, applicationName: 'rex-reports-count', statementTimeoutMs: config.REPORT_COUNT_TIMEOUT_MS });
  return { write, read, count, end: () => Promise.all([write.end(), read.end(), count.end()]) };
}
