import { AsyncLocalStorage } from 'node:async_hooks';
import { DEFAULT_STATEMENT_TIMEOUT_MS, type Pool } from '@rex/db';
import { keepingTrace } from '@rex/telemetry';

/** A shared query that did not settle in time (its connection stopped answering): its calls fail as a statement out of time does. */
export class SharedQueryTimedOut extends Error {
  readonly code = '57014';
  constructor(ms: number) {
    super(`A shared query got no answer within ${ms} ms.`);
  }
}

/** The context of no call (taken as the module loads, before any call is served). */
const outsideCalls = AsyncLocalStorage.snapshot();

/** Runs `fn` where it is called: kept in a caller's trace, it runs in that trace and nothing else of the caller's. */
const direct = <T>(fn: () => T): T => fn();

type Waiting<Item, Result> = {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
  /** `direct` kept in the caller's trace, when the caller is traced. */
  inTrace: typeof direct | undefined;
};

/**
 * One query for what several calls ask at about the same time. On this machine a round trip to
 * PostgreSQL costs a call more than the work of a small statement (the system calls that wake the
 * server and then the service), so calls that arrive together (one read of the gateway's
 * connection brings several) share one:
 *
 * - what is asked during one turn of the event loop is run together, at the end of that turn;
 * - while such a query runs, what is asked meanwhile waits for it and then goes in the next.
 *
 * A call that comes alone is not delayed, and each gets the answer to its own item. A query
 * starts only after every item in it was asked, so it sees every write committed before its
 * callers asked. It runs outside any one call's scope: no caller going away may cancel it for
 * the others (each caller drops an answer it no longer needs). When it fails, every call it
 * served gets the error. Its statements are spans of the first traced call it serves, if any.
 */
export class SharedQuery<Item, Result> {
  private waiting: Waiting<Item, Result>[] = [];
  private scheduled = false;
  private running = false;
  private readonly run: (items: Item[]) => Promise<Result[]>;
  private readonly timeoutMs: number;

  /**
   * `run` answers items in their order. A query that has not settled after `timeoutMs` (by
   * default a little longer than the pools' statement timeout: a connection that stopped
   * answering) fails its calls, and the next query starts without it.
   */
  constructor(run: (items: Item[]) => Promise<Result[]>, timeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS + 5_000) {
    this.run = run;
    this.timeoutMs = timeoutMs;
  }

  ask(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      const inTrace = keepingTrace(direct);
      this.waiting.push({ item, resolve, reject, inTrace: inTrace === direct ? undefined : inTrace });
      if (!this.scheduled && !this.running) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.next();
        });
      }
    });
  }

  private next(): void {
    const batch = this.waiting;
    if (!batch.length) return;
    this.waiting = [];
    this.running = true;
    const items = batch.map((waiting) => waiting.item);
    const inTrace = batch.find((waiting) => waiting.inTrace)?.inTrace ?? direct;
    let timer: NodeJS.Timeout | undefined;
    const unanswered = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SharedQueryTimedOut(this.timeoutMs)), this.timeoutMs);
      timer.unref();
    });
    const answered = new Promise<Result[]>((resolve) => resolve(outsideCalls(() => inTrace(() => this.run(items)))));
    Promise.race([answered, unanswered])
      .then(
        (results) => batch.forEach((waiting, i) => waiting.resolve(results[i])),
        (error: unknown) => batch.forEach((waiting) => waiting.reject(error)),
      )
      .finally(() => {
        clearTimeout(timer);
        this.running = false;
        this.next();
      });
  }
}

/**
 * A read of one record by id whose calls on a pool share queries (SharedQuery): `select` reads
 * the rows whose id is in its parameter `$1` (bigint[]). Each caller gets the row of its id, or
 * undefined; callers asking for the same id get the same row, which none may change. Ids are
 * canonical (RECORD_ID), so a row is found by its id's text.
 */
export function sharedReadById<Row extends { id: string }>(name: string, select: string): (db: Pick<Pool, 'query'>, id: string) => Promise<Row | undefined> {
  const byPool = new WeakMap<object, SharedQuery<string, Row | undefined>>();
  return (db, id) => {
    let reads = byPool.get(db);
    if (!reads) {
      reads = new SharedQuery(async (ids) => {
        const { rows } = await db.query<Row>({ name, text: select, values: [[...new Set(ids)]] });
        const found = new Map(rows.map((row) => [row.id, row]));
        return ids.map((one) => found.get(one));
      });
      byPool.set(db, reads);
    }
    return reads.ask(id);
  };
}
