// Calls running at once share their queries on PostgreSQL: writes take their ids in one query,
// each getting ids of its own in the order it asked; reads by id get their own rows from one; a
// shared query is cancelled when all its calls have ended, and not before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool, type PoolClient } from '@rex/db';
import { currentCall, inScope } from '@rex/grpc';
import { SEQUENCES, takeIds, takeSharedIds } from '../../src/db/id-allocation.ts';
import { SharedQuery, sharedReadById } from '../../src/db/shared-query.ts';
import { freshDatabase } from '../../../../component/support/served.ts';
import { Call } from '../support/call.ts';

let pool: Pool;

/** The pool as takeSharedIds uses it, counting its queries and failing the ones it is told to. */
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

async function until(condition: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 3_000; !(await condition()); ) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** After eight calls of the named statement `name` on `client`: PostgreSQL made a plan for each of the first five at most, then kept one for every call. */
async function expectPlannedOnce(client: PoolClient, name: string): Promise<void> {
  const { rows } = await client.query<{ generic_plans: string; custom_plans: string }>('SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1', [name]);
  expect(rows).toHaveLength(1);
  expect(Number(rows[0].custom_plans)).toBeLessThanOrEqual(5);
  expect(Number(rows[0].generic_plans)).toBeGreaterThanOrEqual(3);
}

/** How many ids of each sequence: samples and occurrences only. */
const counts = (samples: number, occurrences: number) => SEQUENCES.map((_, i) => (i === 0 ? samples : i === 1 ? occurrences : 0));

beforeAll(async () => {
  pool = createPool(await freshDatabase('ids'), { max: 2, applicationName: 'component-ids', scope: currentCall });
  await pool.query('CREATE SCHEMA records');
  for (const sequence of SEQUENCES) await pool.query(`CREATE SEQUENCE ${sequence}`);
});
afterAll(async () => {
  await pool.end();
});

describe('ids for writes running at once', () => {
  it('when a write asks alone, then it gets as many ids of each sequence as it asked', async () => {
    const db = counted();
    const [samples, occurrences, ...others] = await takeSharedIds(db, counts(1, 2));
    expect(db.queries).toBe(1);
    expect(samples).toHaveLength(1);
    expect(occurrences).toHaveLength(2);
    expect(others.every((ids) => ids.length === 0)).toBe(true);
  });

  it('when one connection takes ids again and again, then PostgreSQL plans the query once and reuses the plan', async () => {
    const client = await pool.connect();
    try {
      for (let i = 1; i <= 8; i++) {
        const [samples, occurrences] = await takeIds(client, counts(i, 2 * i));
        expect([samples.length, occurrences.length]).toEqual([i, 2 * i]);
      }
      await expectPlannedOnce(client, 'allocate-ids');
    } finally {
      client.release();
    }
  });

  it('when writes ask at the same time, then one query serves them all, each with ids of its own in the order asked', async () => {
    const db = counted();
        const asked = [counts(1, 2), counts(1, 10), counts(2, 0), counts(1, 1)];
    const results = await Promise.all(asked.map((c) => takeSharedIds(db, c)));
    expect(db.queries).toBe(1);
    results.forEach((ids, write) => asked[write].forEach((count, sequence) => expect(ids[sequence]).toHaveLength(count)));
    for (const sequence of [0, 1]) {
      const all = results.flatMap((ids) => ids[sequence]).map(Number);
      expect(new Set(all).size).toBe(all.length);
      expect(all).toEqual([...all].sort((a, b) => a - b));
    }
    // Nothing was taken that no write got: the next id follows the last one handed out.
    const next = await takeSharedIds(pool, counts(1, 0));
    expect(Number(next[0][0])).toBe(Number(results.at(-1)![0].at(-1)) + 1);
  });

  it('when a shared query fails, then the writes it served fail with its error and the writes after them get ids', async () => {
    const db = counted(1);
    const batched = [takeSharedIds(db, counts(1, 0)), takeSharedIds(db, counts(0, 1))];
    for (const write of batched) await expect(write).rejects.toThrow('connection lost');
    expect(db.queries).toBe(1);
    const later = await takeSharedIds(db, counts(1, 1));
    expect(later[0]).toHaveLength(1);
    expect(later[1]).toHaveLength(1);
  });

  it('when one of the calls sharing a query ends, then the query goes on for the other; when all have ended, it is cancelled in the database', async () => {
    const running = async (seconds: number) =>
      (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'component-ids' AND query = $1 AND state = 'active'", [`SELECT pg_sleep(${seconds})`])).rows[0].n;
    const sleeping = (seconds: number) =>
      new SharedQuery<number, number>(async (items) => {
        await pool.query(`SELECT pg_sleep(${seconds})`);
        return items;
      });
    const short = sleeping(1);
    const [a, b] = [new Call(), new Call()];
    const one = [inScope(a, () => short.ask(1)), inScope(b, () => short.ask(2))];
    await until(async () => (await running(1)) === 1);
    a.end();
    expect(await Promise.all(one)).toEqual([1, 2]);

    const long = sleeping(5);
    const [c, d] = [new Call(), new Call()];
    const two = [inScope(c, () => long.ask(3)), inScope(d, () => long.ask(4))].map((answer) => answer.catch((error: Error) => error.message));
    await until(async () => (await running(5)) === 1);
    const asked = Date.now();
    c.end();
    d.end();
    // PostgreSQL's own answer to a cancel request, long before the statement would have ended.
    expect(await Promise.all(two)).toEqual(['canceling statement due to user request', 'canceling statement due to user request']);
    expect(Date.now() - asked).toBeLessThan(2_000);
  });

  it('when reads by id ask at the same time, then one query answers each with the row of its id, or none', async () => {
    await pool.query('CREATE TABLE records.notes (id bigint PRIMARY KEY, body text NOT NULL)');
    await pool.query("INSERT INTO records.notes VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    const db = counted();
    const find = sharedReadById<{ id: string; body: string }>('find-notes', 'SELECT id, body FROM records.notes', 'id');
    const found = await Promise.all(['3', '1', '999', '3'].map((id) => find(db, id)));
    expect(db.queries).toBe(1);
    expect(found.map((row) => row?.body)).toEqual(['three', 'one', undefined, 'three']);
    // A read asked after a change committed sees it.
    await pool.query("UPDATE records.notes SET body = 'uno' WHERE id = 1");
    expect((await find(db, '1'))?.body).toBe('uno');
  });

  it('when one connection reads by id again and again, one id or several at a time, then PostgreSQL plans the read once and reuses the plan', async () => {
    const find = sharedReadById<{ id: string; body: string }>('find-notes-planned', 'SELECT id::text, body FROM records.notes', 'id');
    const client = await pool.connect();
    try {
      for (let i = 1; i <= 8; i++) {
        const ids = i % 2 ? ['2'] : ['3', '2', '1'];
        expect((await Promise.all(ids.map((id) => find(client, id)))).map((row) => row?.id)).toEqual(ids);
      }
      await expectPlannedOnce(client, 'find-notes-planned');
    } finally {
      client.release();
    }
  });
});
