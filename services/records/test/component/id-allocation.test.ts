// Writes running at once take their ids from the sequences in one shared query: each write gets
// ids of its own, in the order it asked, and no write's call can cancel the others' ids.
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool, type QueryScope } from '@rex/db';
import { IdAllocation, SEQUENCES } from '../../src/db/id-allocation.ts';
import { freshDatabase } from '../../../../component/support/served.ts';

const scopes = new AsyncLocalStorage<QueryScope>();
let pool: Pool;

/** The pool as IdAllocation uses it, counting its queries and failing the ones it is told to. */
function counted(failNext = 0) {
  const counter = {
    queries: 0,
    failNext,
    query: ((config: never) => {
      counter.queries += 1;
      if (counter.failNext > 0) {
        counter.failNext -= 1;
        return Promise.reject(new Error('connection lost'));
      }
      return pool.query(config);
    }) as Pool['query'],
  };
  return counter;
}

/** How many ids of each sequence: samples and occurrences only. */
const counts = (samples: number, occurrences: number) => SEQUENCES.map((_, i) => (i === 0 ? samples : i === 1 ? occurrences : 0));

beforeAll(async () => {
  pool = createPool(await freshDatabase('ids'), { max: 2, applicationName: 'component-ids', scope: () => scopes.getStore() });
  await pool.query('CREATE SCHEMA records');
  for (const sequence of SEQUENCES) await pool.query(`CREATE SEQUENCE ${sequence}`);
});
afterAll(async () => {
  await pool.end();
});

describe('ids for writes running at once', () => {
  it('when a write asks alone, then its query starts at once and it gets as many ids as it asked', async () => {
    const db = counted();
    const allocation = new IdAllocation(db);
    const taking = allocation.take(counts(1, 2));
    expect(db.queries).toBe(1);
    const [samples, occurrences, ...others] = await taking;
    expect(samples).toHaveLength(1);
    expect(occurrences).toHaveLength(2);
    expect(others.every((ids) => ids.length === 0)).toBe(true);
  });

  it('when writes ask while a query for another runs, then one more query serves them all, each with ids of its own in the order asked', async () => {
    const db = counted();
    const allocation = new IdAllocation(db);
    const asked = [counts(1, 2), counts(1, 10), counts(2, 0), counts(1, 1)];
    const results = await Promise.all(asked.map((c) => allocation.take(c)));
    expect(db.queries).toBe(2);
    results.forEach((ids, write) => asked[write].forEach((count, sequence) => expect(ids[sequence]).toHaveLength(count)));
    for (const sequence of [0, 1]) {
      const all = results.flatMap((ids) => ids[sequence]).map(Number);
      expect(new Set(all).size).toBe(all.length);
      expect(all).toEqual([...all].sort((a, b) => a - b));
    }
    // Nothing was taken that no write got: the next id follows the last one handed out.
    const next = await new IdAllocation(pool).take(counts(1, 0));
    expect(Number(next[0][0])).toBe(Number(results.at(-1)![0].at(-1)) + 1);
  });

  it('when a shared query fails, then the writes it served fail with its error and the writes after them get ids', async () => {
    const db = counted(2);
    const allocation = new IdAllocation(db);
    const first = allocation.take(counts(1, 0));
    const batched = [allocation.take(counts(1, 0)), allocation.take(counts(0, 1))];
    await expect(first).rejects.toThrow('connection lost');
    for (const write of batched) await expect(write).rejects.toThrow('connection lost');
    expect(db.queries).toBe(2);
    const later = await allocation.take(counts(1, 1));
    expect(later[0]).toHaveLength(1);
    expect(later[1]).toHaveLength(1);
  });

  it("when the call of the write that started the query has ended, then the query still serves every write waiting (no call's end cancels the others' ids)", async () => {
    const ended: QueryScope = { ended: true, onEnd: () => () => undefined };
    // The pool refuses a query of an ended call; the shared one runs outside any call.
    await expect(scopes.run(ended, () => pool.query('SELECT 1'))).rejects.toThrow(/call it ran for ended/);
    const allocation = new IdAllocation(pool);
    const ids = await scopes.run(ended, () => Promise.all([allocation.take(counts(1, 0)), allocation.take(counts(0, 3))]));
    expect(ids[0][0]).toHaveLength(1);
    expect(ids[1][1]).toHaveLength(3);
  });
});
