import { TtlCache, type Invalidation } from '@rex/cache';
import type { Pool } from '@rex/db';
import { prom, use } from '@rex/telemetry';
import type { CompiledReport } from '../library/compile.ts';
import { statementName } from './report-rows.ts';

/** The channel every change to the read model notifies when it commits (reports migration 0013). */
export const READ_MODEL_CHANGED = 'rex_read_model_changed';

/** PostgreSQL's code for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';

/** Counts kept at most; the oldest go first. */
const COUNTS_KEPT = 10_000;

const countsAnswered = use(
  new prom.Counter({
    name: 'reports_page_counts_total',
    help: "Report pages' total counts, by where each came from: counted in the database, kept from an earlier page, or shared with a page that was counting it",
    labelNames: ['source'] as const,
    registers: [],
  }),
);

/** What a count found: the rows, more rows than the limit, or nothing in time; or it was read where it cannot be kept. */
type Counted = number | 'over limit' | 'timed out' | 'on a standby';

/** A report page's total count: undefined when the page goes without it. */
export type ReportCounts = { count(compiled: CompiledReport): Promise<number | undefined> };

/**
 * Rows in all pages, on a pool whose statement timeout is short: a count that
 * takes longer is given up and the page goes without it, as does one of more
 * rows than the count limit (so a count's cost does not grow with the data
 * beyond the limit).
 *
 * A count is kept for `cacheMs` under its statement and bound values (which
 * carry the caller's visibility, so a count is only ever answered to callers who
 * see the same rows), and forgotten when `invalidation` fires: on every change
 * to the read model (READ_MODEL_CHANGED). A count that began before a change is
 * not kept. Pages that ask for a count while it is being made wait for it rather
 * than count again, unless the read model changed since it began. Counts that
 * timed out are not kept: the next page tries again. Nor are counts read on a
 * standby (REPORTS_DATABASE_URL on a read replica), which may apply a change
 * after its notification has come from the primary.
 */
export function reportCounts(countPool: Pool, options: { countLimit: number; cacheMs: number; invalidation: Invalidation }): ReportCounts {
  const kept = new TtlCache<Counted>(options.cacheMs, COUNTS_KEPT, options.invalidation);

  const countRows = async (name: string, text: string, values: unknown[]): Promise<Counted> => {
    countsAnswered.inc({ source: 'database' });
    try {
      const { rows } = await countPool.query<{ count: string; standby: boolean }>({ name, text, values });
      if (rows[0].standby) return 'on a standby';
      const count = Number(rows[0].count);
      return options.countLimit && count > options.countLimit ? 'over limit' : count;
    } catch (error) {
      if ((error as { code?: string }).code === QUERY_CANCELED) return 'timed out';
      throw error;
    }
  };

  return {
    async count(compiled) {
      const text = `SELECT page_count.count, pg_is_in_recovery() AS standby FROM (${compiled.countSql}) AS page_count`;
      const name = statementName(text);
      if (options.cacheMs <= 0) return answer(await countRows(name, text, compiled.countValues));
      const key = `${name} ${JSON.stringify(compiled.countValues)}`;
      let counted = kept.get(key);
      if (counted !== undefined) {
        countsAnswered.inc({ source: 'cache' });
      } else {
        // Pages that miss the same count together wait for one count.
        let counting = false;
        counted = await kept.getOrLoad(key, () => ((counting = true), countRows(name, text, compiled.countValues)), keepable);
        if (!counting) countsAnswered.inc({ source: 'shared' });
      }
      return answer(counted);
    },
  };
}

const answer = (counted: Counted): number | undefined => (typeof counted === 'number' ? counted : undefined);
const keepable = (counted: Counted): boolean => counted !== 'timed out' && counted !== 'on a standby';
