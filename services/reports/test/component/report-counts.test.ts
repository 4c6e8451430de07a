// Which counts reports keeps for the pages after them, on a real database: a count that timed out
// or that began before the read model changed is made again; one over the limit is kept as none;
// pages that ask for a count being made wait for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Invalidation } from '@rex/cache';
import { createPool, type Pool } from '@rex/db';
import { reportCounts } from '../../src/db/report-counts.ts';
import type { CompiledReport } from '../../src/library/compile.ts';
import { freshDatabase } from '../../../../component/support/served.ts';

let pool: Pool;

/** A report whose count is `rows` rows, found after `seconds`. */
const countOf = (rows: number, seconds = 0) =>
  ({ countSql: 'SELECT count(*) AS count FROM generate_series(1, $1::int) AS n, pg_sleep($2::float8)', countValues: [rows, seconds] }) as unknown as CompiledReport;

/** A counter whose database counts are noted as they are made. */
function counter(options: { countLimit?: number; cacheMs?: number } = {}) {
  const invalidation = new Invalidation();
  let made = 0;
  const noting = {
    query: (...args: Parameters<Pool['query']>) => {
      made += 1;
      return (pool.query as (...a: Parameters<Pool['query']>) => ReturnType<Pool['query']>)(...args);
    },
  } as unknown as Pool;
  const counts = reportCounts(noting, { countLimit: options.countLimit ?? 0, cacheMs: options.cacheMs ?? 60_000, invalidation });
  return { counts, invalidation, made: () => made };
}

beforeAll(async () => {
  pool = createPool(await freshDatabase('report_counts'), { max: 2, applicationName: 'component-report-counts', statementTimeoutMs: 1_000 });
});

afterAll(async () => {
  await pool.end();
});

describe('counts kept for the pages after them', () => {
  it('when the same count is asked for again, then it is kept; other values are counted on their own', async () => {
    const { counts, made } = counter();
    expect(await counts.count(countOf(3))).toBe(3);
    expect(await counts.count(countOf(3))).toBe(3);
    expect(made()).toBe(1);
    expect(await counts.count(countOf(4))).toBe(4);
    expect(made()).toBe(2);
  });

  it('when the read model changes while a count runs, then that count is answered but not kept', async () => {
    const { counts, invalidation, made } = counter();
    const running = counts.count(countOf(5, 0.05));
    invalidation.invalidate();
    expect(await running).toBe(5);
    expect(await counts.count(countOf(5, 0.05))).toBe(5);
    expect(made()).toBe(2);
    expect(await counts.count(countOf(5, 0.05))).toBe(5);
    expect(made()).toBe(2);
  });

  it('when a count takes longer than its timeout, then the page goes without it and the next page counts again', async () => {
    const { counts, made } = counter();
    expect(await counts.count(countOf(2, 1.5))).toBeUndefined();
    expect(await counts.count(countOf(2, 1.5))).toBeUndefined();
    expect(made()).toBe(2);
  });

  it('when there are more rows than the count limit, then the page goes without a count, and that is kept', async () => {
    const { counts, made } = counter({ countLimit: 3 });
    expect(await counts.count(countOf(4))).toBeUndefined();
    expect(await counts.count(countOf(4))).toBeUndefined();
    expect(made()).toBe(1);
    expect(await counts.count(countOf(3))).toBe(3);
  });

  it('when many pages ask for a count at once, then it is counted once and each page gets it', async () => {
    const { counts, made } = counter();
    expect(await Promise.all(Array.from({ length: 8 }, () => counts.count(countOf(6, 0.05))))).toEqual(Array(8).fill(6));
    expect(made()).toBe(1);
  });

  it('when the read model changes while pages wait for a count, then a page that asks after the change counts again', async () => {
    const { counts, invalidation, made } = counter();
    const before = counts.count(countOf(7, 0.05));
    invalidation.invalidate();
    const after = counts.count(countOf(7, 0.05));
    expect(await Promise.all([before, after])).toEqual([7, 7]);
    expect(made()).toBe(2);
  });

  it('when counts are not kept (REPORT_COUNT_CACHE_MS=0), then every page counts, even pages at the same time', async () => {
    const { counts, made } = counter({ cacheMs: 0 });
    expect(await Promise.all([counts.count(countOf(2, 0.05)), counts.count(countOf(2, 0.05))])).toEqual([2, 2]);
    expect(made()).toBe(2);
  });
});
