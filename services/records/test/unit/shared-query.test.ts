// Calls asking at about the same time share one query: what is asked in one turn of the event
// loop goes together, what is asked while a query runs waits for the next, and each caller gets
// its own answer or the query's error.
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { QueryAbandoned } from '@rex/db';
import { currentCall, inScope, isDatabaseUnavailable, type CallScope } from '@rex/grpc';
import { SharedQuery, SharedQueryTimedOut } from '../../src/db/shared-query.ts';
import { Call } from '../support/call.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A query that answers each item doubled, once `release` is called; it keeps the batches it was given. */
function controlled() {
  const batches: number[][] = [];
  const pending: (() => void)[] = [];
  const query = new SharedQuery<number, number>((items) => {
    batches.push(items);
    return new Promise((resolve) => pending.push(() => resolve(items.map((item) => item * 2))));
  });
  const release = () => pending.shift()!();
  return { query, batches, release };
}

describe('a shared query', () => {
  it('when one call asks alone, then its query starts at the end of the turn with its item only', async () => {
    const { query, batches, release } = controlled();
    const answer = query.ask(1);
    expect(batches).toEqual([]);
    await turn();
    expect(batches).toEqual([[1]]);
    release();
    expect(await answer).toBe(2);
  });

  it('when several calls ask in one turn, then one query serves them all, each with the answer to its own item', async () => {
    const { query, batches, release } = controlled();
    const answers = [3, 1, 2].map((item) => query.ask(item));
    await turn();
    release();
    expect(await Promise.all(answers)).toEqual([6, 2, 4]);
    expect(batches).toEqual([[3, 1, 2]]);
  });

  it('when calls ask while two queries run, then they wait for one to finish and share the next; a query held up does not hold up the one beside it', async () => {
    const { query, batches, release } = controlled();
    const first = query.ask(1);
    await turn();
    const second = query.ask(2);
    await turn();
    const later = [query.ask(3), query.ask(4)];
    await turn();
    await turn();
    expect(batches).toEqual([[1], [2]]);
    release();
    expect(await first).toBe(2);
    await turn();
    expect(batches).toEqual([[1], [2], [3, 4]]);
    release();
    release();
    expect(await second).toBe(4);
    expect(await Promise.all(later)).toEqual([6, 8]);
  });

  it('when a query fails, then every call it served gets the error, and calls after it are served', async () => {
    let fail = true;
    const query = new SharedQuery<number, number>(async (items) => {
      if (fail) throw new Error('connection lost');
      return items;
    });
    const failed = [query.ask(1), query.ask(2)];
    for (const answer of failed) await expect(answer).rejects.toThrow('connection lost');
    fail = false;
    expect(await query.ask(3)).toBe(3);
  });

  it('when the query throws before it returns a promise, then its calls get the error and the next calls are still served', async () => {
    let calls = 0;
    const query = new SharedQuery<number, number>((items) => {
      calls += 1;
      if (calls === 1) throw new Error('bad query');
      return Promise.resolve(items);
    });
    await expect(query.ask(1)).rejects.toThrow('bad query');
    expect(await query.ask(2)).toBe(2);
  });

  it("when a call asks from its own context, then the query runs outside it (no caller's scope reaches the shared query)", async () => {
    const calls = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const query = new SharedQuery<number, number>(async (items) => {
      seen.push(calls.getStore());
      return items;
    });
    await calls.run('call A', () => Promise.all([query.ask(1), query.ask(2)]));
    expect(seen).toEqual([undefined]);
  });

  it('when both queries that may run never settle (their connections stopped answering), then their calls fail as unavailable after the bound, and the call waiting behind them is served', async () => {
    const query = new SharedQuery<number, number>((items) => (items[0] <= 2 ? new Promise<number[]>(() => undefined) : Promise.resolve(items)), { timeoutMs: 50 });
    const first = query.ask(1);
    await turn();
    const second = query.ask(2);
    await turn();
    // Both may-run slots are taken: this one waits until the bound frees one.
    const behind = query.ask(3);
    for (const stuck of [first, second]) {
      const error = await stuck.catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(SharedQueryTimedOut);
      expect(isDatabaseUnavailable(error)).toBe(true);
    }
    expect(await behind).toBe(3);
  });

  it('when the calls sharing a query end one after another, then its scope ends with the last of them, and its deadline is the latest of theirs', async () => {
    let seen: CallScope | undefined;
    let finish: () => void = () => undefined;
    const query = new SharedQuery<number, number>((items) => {
      seen = currentCall();
      return new Promise((resolve) => (finish = () => resolve(items)));
    });
    const [a, b] = [new Call(1_000), new Call(2_000)];
    const answers = [inScope(a, () => query.ask(1)), inScope(b, () => query.ask(2))];
    await turn();
    expect(seen?.deadline).toBe(2_000);
    let told = 0;
    seen!.onEnd(() => (told += 1));
    a.end();
    expect([seen!.ended, told]).toEqual([false, 0]);
    b.end();
    expect([seen!.ended, told]).toEqual([true, 1]);
    finish();
    expect(await Promise.all(answers)).toEqual([1, 2]);
  });

  it('when the calls sharing a write end one after another, then its scope ends with the first of them, and its deadline is the earliest of theirs', async () => {
    let seen: CallScope | undefined;
    let finish: () => void = () => undefined;
    const query = new SharedQuery<number, number>(
      (items) => {
        seen = currentCall();
        return new Promise((resolve) => (finish = () => resolve(items)));
      },
      { untilAnyEnds: true },
    );
    const [a, b, c] = [new Call(2_000), new Call(1_000), new Call()];
    const answers = [inScope(a, () => query.ask(1)), inScope(b, () => query.ask(2)), inScope(c, () => query.ask(3))];
    await turn();
    expect(seen?.deadline).toBe(1_000);
    let told = 0;
    seen!.onEnd(() => (told += 1));
    expect([seen!.ended, told]).toEqual([false, 0]);
    c.end();
    expect([seen!.ended, told]).toEqual([true, 1]);
    a.end();
    expect(told).toBe(1);
    finish();
    expect(await Promise.all(answers)).toEqual([1, 2, 3]);
  });

  it('when more writes are asked than may run at once, then the rest wait for one to finish and go in the next', async () => {
    const batches: number[][] = [];
    const finishers: (() => void)[] = [];
    const query = new SharedQuery<number, number>(
      (items) => {
        batches.push(items);
        return new Promise((resolve) => finishers.push(() => resolve(items)));
      },
      { maxRunning: 1 },
    );
    const first = query.ask(1);
    await turn();
    const rest = [query.ask(2), query.ask(3)];
    await turn();
    expect(batches).toEqual([[1]]);
    finishers[0]();
    await first;
    await turn();
    expect(batches).toEqual([[1], [2, 3]]);
    finishers[1]();
    expect(await Promise.all(rest)).toEqual([2, 3]);
  });

  it('when a call has ended before its query starts, then it is left out with QueryAbandoned and the others are served', async () => {
    const items: number[][] = [];
    const query = new SharedQuery<number, number>(async (asked) => {
      items.push(asked);
      return asked;
    });
    const [gone, here] = [new Call(), new Call()];
    const answers = [inScope(gone, () => query.ask(1)), inScope(here, () => query.ask(2))];
    gone.end();
    await expect(answers[0]).rejects.toBeInstanceOf(QueryAbandoned);
    expect(await answers[1]).toBe(2);
    expect(items).toEqual([[2]]);
  });
});
