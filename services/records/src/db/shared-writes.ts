import { isStatementError, QueryAbandoned, runPipelined, type Pool } from '@rex/db';
import { currentCall, inScope, type CallScope } from '@rex/grpc';
import { sharedPerPool } from './shared-query.ts';

/** A write of one statement, by name: the first row it answers is its columns' text. */
export type NamedWrite = { name: string; text: string; values: unknown[] };

type Asked = { write: NamedWrite; scope: CallScope | undefined };
type Settled = { row: (string | null)[] } | { error: unknown };

/**
 * How many shared writes run at once. A write waits for its commit to reach the disk, so writes
 * that arrive meanwhile gather into the next; more at once would give each fewer to share.
 */
const MAX_RUNNING = 2;

/** One write on its own, in its caller's scope. */
async function alone(pool: Pool, { write, scope }: Asked): Promise<Settled> {
  const run = () => pool.query<(string | null)[]>({ ...write, rowMode: 'array' });
  try {
    return { row: (await (scope ? inScope(scope, run) : run())).rows[0] };
  } catch (error) {
    return { error };
  }
}

/**
 * Writes of the same statement asked at about the same time run in one round trip and one
 * transaction (runPipelined). If PostgreSQL refuses any of them, or a caller ends before the
 * commit (the shared scope ends with the first of its calls, and the pool cancels it), nothing of
 * them is written, and each runs again alone in its own call's scope: one write's fault is its own,
 * and no ended call's records are committed. Any other failure (the connection lost, or ended by
 * the server) fails them all, as it would each alone: whether the commit was reached is not known.
 */
async function runShared(pool: Pool, asked: Asked[]): Promise<Settled[]> {
  const byName = Map.groupBy(asked.keys(), (i) => asked[i].write.name);
  const settled: Settled[] = new Array(asked.length);
  await Promise.all(
    [...byName.values()].map(async (indexes) => {
      if (indexes.length === 1) {
        settled[indexes[0]] = await alone(pool, asked[indexes[0]]);
        return;
      }
      const { name, text } = asked[indexes[0]].write;
      try {
        const rows = await runPipelined(pool, name, text, indexes.map((i) => asked[i].write.values));
        indexes.forEach((i, k) => (settled[i] = { row: rows[k] }));
      } catch (error) {
        if (!isStatementError(error) && !(error instanceof QueryAbandoned)) {
          for (const i of indexes) settled[i] = { error };
          return;
        }
        await Promise.all(indexes.map(async (i) => (settled[i] = await alone(pool, asked[i]))));
      }
    }),
  );
  return settled;
}

const shared = sharedPerPool<Asked, Settled, Pool>(runShared, { maxRunning: MAX_RUNNING, untilAnyEnds: true });

/** Runs a named write on `pool`, sharing a round trip and a transaction with writes of the same statement asked at about the same time. */
export async function writeShared(pool: Pool, write: NamedWrite): Promise<(string | null)[]> {
  const result = await shared(pool, { write, scope: currentCall() });
  if ('error' in result) throw result.error;
  return result.row;
}
