// Every pool's connections trace the statements of traced work, whichever way a statement is
// run (a promise, pg-pool's callback, a transaction's client), and nothing else.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPool, withTransaction, type Pool } from '@rex/db';
import { inSpan, serverSpan, startTracing, stopTracing } from '@rex/telemetry';
import { freshDatabase } from '../../../../component/support/served.ts';
import { sharedReadById } from '../../src/db/shared-query.ts';

type Exporter = NonNullable<Parameters<typeof startTracing>[0]>;
type ReadableSpan = Parameters<Exporter['export']>[0][number];

/** Keeps what tracing exports, as a collector would receive it. */
const exported: ReadableSpan[] = [];
const exporter: Exporter = {
  export: (spans, done) => {
    exported.push(...spans);
    done({ code: 0 });
  },
  shutdown: async () => undefined,
};
let pool: Pool;

const sampled = () => serverSpan(() => undefined, () => ({ name: 'records.v1.RecordsService/GetSample', attributes: {} }), true);
const finished = async (): Promise<ReadableSpan[]> => {
  await new Promise((resolve) => setTimeout(resolve, 250));
  // The statements' spans (CLIENT), in the order they ended.
  return exported.filter((span) => span.kind === 2);
};

beforeAll(async () => {
  // Every root is sampled: a statement is traced when it runs under the span, and only then.
  vi.stubEnv('OTEL_TRACES_SAMPLER', 'always_on');
  await startTracing(exporter);
  pool = createPool(await freshDatabase('spans'), { max: 2, applicationName: 'component-spans' });
  await pool.query('CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)');
});
afterAll(async () => {
  await pool.end();
  await stopTracing();
  vi.unstubAllEnvs();
});
beforeEach(() => {
  exported.length = 0;
});

describe('statements of traced work', () => {
  it('when statements run under a traced call, by promise, by callback or in a transaction, then each is a span of the call, with its text and without its values', async () => {
    const call = sampled()!;
    await inSpan(call, async () => {
      await pool.query({ name: 'note-insert', text: 'INSERT INTO notes (id, body) VALUES ($1, $2)', values: [1, 'secret-body'] });
      await new Promise<void>((resolve, reject) => pool.query('SELECT body FROM notes WHERE id = $1', [1], (error) => (error ? reject(error) : resolve())));
      await withTransaction(pool, (client) => client.query('UPDATE notes SET body = $1 WHERE id = $2', ['other-secret', 1]));
    });
    call.end();
    const spans = await finished();
    expect(spans.map((span) => span.attributes['db.operation.name'])).toEqual(['INSERT', 'SELECT', 'BEGIN', 'UPDATE', 'COMMIT']);
    expect(spans.every((span) => span.parentSpanContext?.spanId === call.spanContext().spanId)).toBe(true);
    expect(spans[0].attributes['db.query.text']).toBe('INSERT INTO notes (id, body) VALUES ($1, $2)');
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toMatch(/secret-body|other-secret/);
  });

  it('when a statement fails, then its span is an error naming the SQLSTATE, not the message that quotes the value', async () => {
    const call = sampled()!;
    await inSpan(call, () => pool.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [1, 'duplicate-secret']).catch(() => undefined));
    call.end();
    const [span] = await finished();
    expect(span.status).toEqual({ code: 2, message: 'SQLSTATE 23505' });
    expect(JSON.stringify({ attributes: span.attributes, events: span.events, status: span.status })).not.toContain('duplicate-secret');
  });

  it('when traced calls wait for the pool\'s one connection, then each one\'s statements are spans of its own trace, whoever released it', async () => {
    const one = createPool(await freshDatabase('spans_one'), { max: 1, applicationName: 'component-spans-one' });
    try {
      const calls = [sampled()!, sampled()!, sampled()!];
      // The first holds the connection a while; the others queue behind it and are handed it by a release.
      await Promise.all(
        calls.map((call, i) => inSpan(call, () => one.query(`SELECT pg_sleep(${i === 0 ? 0.2 : 0}), $1::int AS call`, [i]))),
      );
      calls.forEach((call) => call.end());
      const spans = await finished();
      expect(spans).toHaveLength(3);
      expect(new Set(spans.map((span) => span.parentSpanContext?.spanId))).toEqual(new Set(calls.map((call) => call.spanContext().spanId)));
      expect(spans.every((span) => calls.some((call) => call.spanContext().traceId === span.spanContext().traceId && call.spanContext().spanId === span.parentSpanContext?.spanId))).toBe(true);
    } finally {
      await one.end();
    }
  });

  it('when calls share a query, then its statement is a span of the first traced call among them, and of no other', async () => {
    const find = sharedReadById<{ id: string; body: string }>('find-notes', 'SELECT id::text, body FROM notes', 'id');
    await pool.query("INSERT INTO notes (id, body) VALUES (11, 'a'), (12, 'b') ON CONFLICT DO NOTHING");
    exported.length = 0;
    const [first, second] = [sampled()!, sampled()!];
    const found = await Promise.all([find(pool, '11'), inSpan(first, () => find(pool, '12')), inSpan(second, () => find(pool, '11'))]);
    expect(found.map((row) => row?.body)).toEqual(['a', 'b', 'a']);
    first.end();
    second.end();
    const spans = await finished();
    expect(spans).toHaveLength(1);
    expect(spans[0].parentSpanContext?.spanId).toBe(first.spanContext().spanId);
    expect(spans[0].attributes['db.query.text']).toMatch(/= ANY/);
  });

  it('when a statement runs outside traced work, then it is no span', async () => {
    await pool.query('SELECT count(*) FROM notes');
    expect(await finished()).toEqual([]);
  });
});
