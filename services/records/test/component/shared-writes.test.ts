// Writes of one statement asked at about the same time share a round trip and a transaction on
// PostgreSQL: all are committed together; one that PostgreSQL refuses fails alone and the others
// are written; a call that ends before the commit has nothing written; a lost connection fails them
// all and nothing is run again.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPool, runPipelined, type Pool } from '@rex/db';
import { currentCall, inScope } from '@rex/grpc';
import { writeShared, type NamedWrite } from '../../src/db/shared-writes.ts';
import { freshDatabase } from '../../../../component/support/served.ts';
import { Call } from '../support/call.ts';

let pool: Pool;

const PUT = {
  name: 'put-thing',
  text: `WITH put AS (INSERT INTO things (id, label) SELECT $1, $2 FROM pg_sleep($3)) SELECT $2::text AS label, (pg_current_xact_id()::text::numeric % 4294967296)::bigint::text AS version`,
};

const put = (id: number, label = `thing ${id}`, sleepSeconds = 0): NamedWrite => ({ ...PUT, values: [id, label, sleepSeconds] });

const stored = async () => (await pool.query<{ id: number }>('SELECT id FROM things ORDER BY id')).rows.map((row) => row.id);

async function until(condition: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 3_000; !(await condition()); ) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  pool = createPool(await freshDatabase('writes'), { max: 4, applicationName: 'component-writes', scope: currentCall });
  await pool.query('CREATE TABLE things (id int PRIMARY KEY, label text NOT NULL)');
});
beforeEach(async () => {
  await pool.query('TRUNCATE things');
});
afterAll(async () => {
  await pool.end();
});

describe('one statement run for several writes in one round trip (runPipelined)', () => {
  it('when it runs three writes, then each answers its own row, all in one transaction', async () => {
    const rows = await runPipelined(pool, PUT.name, PUT.text, [put(1).values, put(2).values, put(3).values]);
    expect(rows.map(([label]) => label)).toEqual(['thing 1', 'thing 2', 'thing 3']);
    expect(new Set(rows.map(([, version]) => version)).size).toBe(1);
    expect(await stored()).toEqual([1, 2, 3]);
    const again = await runPipelined(pool, PUT.name, PUT.text, [put(4).values]);
    expect(again).toHaveLength(1);
  });

  it('when PostgreSQL refuses one of them, then it fails with PostgreSQL’s error, nothing of them is written, and the connection serves the next', async () => {
    await pool.query('INSERT INTO things VALUES (2, $1)', ['there before']);
    const refused = runPipelined(pool, PUT.name, PUT.text, [put(1).values, put(2).values, put(3).values]);
    await expect(refused).rejects.toMatchObject({ code: '23505' });
    expect(await stored()).toEqual([2]);
    const clients = await Promise.all([pool.connect(), pool.connect(), pool.connect(), pool.connect()]);
    clients.forEach((client) => client.release());
    expect(await runPipelined(pool, PUT.name, PUT.text, [put(5).values])).toHaveLength(1);
  });
});

describe('writes shared by calls at once (writeShared)', () => {
  it('when three writes are asked together, then all are committed in one transaction, each with its own answer', async () => {
    const answers = await Promise.all([1, 2, 3].map((id) => writeShared(pool, put(id))));
    expect(answers.map(([label]) => label)).toEqual(['thing 1', 'thing 2', 'thing 3']);
    expect(new Set(answers.map(([, version]) => version)).size).toBe(1);
    expect(await stored()).toEqual([1, 2, 3]);
  });

  it('when PostgreSQL refuses one of the writes shared, then only that one fails, with PostgreSQL’s error, and the others are written', async () => {
    await pool.query('INSERT INTO things VALUES (12, $1)', ['there before']);
    const settled = await Promise.allSettled([11, 12, 13].map((id) => writeShared(pool, put(id))));
    expect(settled.map((one) => one.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23505' });
    expect(await stored()).toEqual([11, 12, 13]);
    expect((await pool.query('SELECT label FROM things WHERE id = 12')).rows[0].label).toBe('there before');
  });

  it('when one call ends while the write it shares runs, then nothing of that call is written, and the other call’s write is', async () => {
    const running = async () =>
      (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'component-writes' AND wait_event = 'PgSleep'")).rows[0].n;
    const [a, b] = [new Call(), new Call()];
    const writes = [inScope(a, () => writeShared(pool, put(21, 'a', 1))), inScope(b, () => writeShared(pool, put(22, 'b', 1)))];
    await until(async () => (await running()) === 1);
    a.end();
    const [ofA, ofB] = await Promise.allSettled(writes);
    expect(ofA.status).toBe('rejected');
    expect(ofB).toMatchObject({ status: 'fulfilled', value: ['b', expect.any(String)] });
    expect(await stored()).toEqual([22]);
  });

  it('when the connection is lost during a shared write, then every write it served fails, and none is run again', async () => {
    const settled = Promise.allSettled([31, 32].map((id) => writeShared(pool, put(id, `thing ${id}`, 1))));
    await until(async () => (await pool.query("SELECT 1 FROM pg_stat_activity WHERE application_name = 'component-writes' AND wait_event = 'PgSleep'")).rowCount === 1);
    // The server's process for the connection is killed: the client sees its socket close, not an error of PostgreSQL's.
    await pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'component-writes' AND wait_event = 'PgSleep'");
    const results = await settled;
    expect(results.map((one) => one.status)).toEqual(['rejected', 'rejected']);
    expect(await stored()).toEqual([]);
  });
});
