import { AsyncLocalStorage } from 'node:async_hooks';
import { DEFAULT_STATEMENT_TIMEOUT_MS, QueryAbandoned, type Pool } from '@rex/db';
import { currentCall, inScope, type CallScope } from '@rex/grpc';
import { keepingTrace } from '@rex/telemetry';

/** A shared query that did not settle in time (its connection stopped answering): its calls fail as with a lost connection. */
export class SharedQueryTimedOut extends Error {
  /** SQLSTATE connection_failure: the database is taken to be unavailable (UNAVAILABLE, may be retried). */
  readonly code = '08006';
  constructor(ms: number) {
    super(`A shared query got no answer within ${ms} ms.`);
  }
}

/** The context of no call (taken as the module loads, before any call is served). */
const outsideCalls = AsyncLocalStorage.snapshot();

/** Runs `fn` where it is called: kept in a caller's trace, it runs in that trace and nothing else of the caller's. */
const direct = <T>(fn: () => T): T => fn();

/** How many shared queries of one kind may run at once, unless told: a query held up on its connection does not hold up the next. */
const MAX_RUNNING = 2;

/**
 * The scope of a query shared by calls. A read has ended once every one of its calls has
 * (cancelled, or out of time), and its deadline is the latest of theirs: no caller going away
 * cancels it for the others. A write (`untilAnyEnds`) ends as soon as any of its calls does, and
 * its deadline is the earliest: no call's records are committed once that call has ended. The
 * pool cancels the query in the database then, as it would a call's own.
 */
class ScopeOfCalls implements CallScope {
  readonly deadline: number | undefined;
  private readonly scopes: CallScope[];
  private readonly untilAnyEnds: boolean;

  constructor(scopes: CallScope[], untilAnyEnds: boolean) {
    this.scopes = scopes;
    this.untilAnyEnds = untilAnyEnds;
    const deadlines = scopes.map((scope) => scope.deadline).filter((deadline) => deadline !== undefined);
    if (untilAnyEnds) this.deadline = deadlines.length ? Math.min(...deadlines) : undefined;
    else this.deadline = deadlines.length === scopes.length ? Math.max(0, ...deadlines) : undefined;
  }

  get ended(): boolean {
    return this.untilAnyEnds ? this.scopes.some((scope) => scope.ended) : this.scopes.every((scope) => scope.ended);
  }

  onEnd(listener: () => void): () => void {
    let told = false;
    const check = () => {
      if (told || !this.ended) return;
      told = true;
      listener();
    };
    const stops = this.scopes.map((scope) => scope.onEnd(check));
    return () => stops.forEach((stop) => stop());
  }
}

type Waiting<Item, Result> = {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
  /** The scope of the call that asked; undefined outside a call. */
  scope: CallScope | undefined;
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
 * - while MAX_RUNNING such queries run, what is asked meanwhile waits and goes in the next.
 *
 * A call that comes alone is not delayed, and each gets the answer to its own item. A query
 * starts only after every item in it was asked, so it sees every write committed before its
 * callers asked. It runs in the scope of all its calls together (ScopeOfCalls): no caller going
 * away cancels it for the others, and when all have gone it is cancelled; a call that has ended
 * before its query starts is left out (QueryAbandoned). One that has still not settled a little
 * after the pools' statement timeout (a connection that stopped answering) fails its calls
 * (SharedQueryTimedOut). When it fails, every call it served gets the error. Its statements are
 * spans of the first traced call it serves, if any.
 */
export class SharedQuery<Item, Result> {
  private waiting: Waiting<Item, Result>[] = [];
  private scheduled = false;
  private running = 0;
  private readonly run: (items: Item[]) => Promise<Result[]>;
  private readonly timeoutMs: number;
  private readonly maxRunning: number;
  private readonly untilAnyEnds: boolean;

  /**
   * `run` answers items in their order; `timeoutMs` bounds a query that never settles; `maxRunning`
   * queries run at once at most; `untilAnyEnds` ends a query with the first of its calls to end
   * (see ScopeOfCalls).
   */
  constructor(
    run: (items: Item[]) => Promise<Result[]>,
    options: { timeoutMs?: number; maxRunning?: number; untilAnyEnds?: boolean } = {},
  ) {
    this.run = run;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS + 5_000;
    this.maxRunning = options.maxRunning ?? MAX_RUNNING;
    this.untilAnyEnds = options.untilAnyEnds ?? false;
  }

  ask(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      const inTrace = keepingTrace(direct);
      this.waiting.push({ item, resolve, reject, scope: currentCall(), inTrace: inTrace === direct ? undefined : inTrace });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.next();
        });
      }
    });
  }

  private next(): void {
    if (this.running >= this.maxRunning) return;
    const batch: Waiting<Item, Result>[] = [];
    for (const waiting of this.waiting) {
      if (waiting.scope?.ended) waiting.reject(new QueryAbandoned());
      else batch.push(waiting);
    }
    this.waiting = [];
    if (!batch.length) return;
    this.running += 1;
    const items = batch.map((waiting) => waiting.item);
    const inTrace = batch.find((waiting) => waiting.inTrace)?.inTrace ?? direct;
    const scopes = batch.map((waiting) => waiting.scope);
    // A call outside any call's scope (a job, a test) has no end: nor has the query it shares.
    const scope = scopes.every((one) => one !== undefined) ? new ScopeOfCalls(scopes as CallScope[], this.untilAnyEnds) : undefined;
    const run = () => inTrace(() => this.run(items));
    let timer: NodeJS.Timeout | undefined;
    const unanswered = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SharedQueryTimedOut(this.timeoutMs)), this.timeoutMs);
      timer.unref();
    });
    const answered = new Promise<Result[]>((resolve) => resolve(outsideCalls(() => (scope ? inScope(scope, run) : run()))));
    Promise.race([answered, unanswered])
      .then(
        (results) => batch.forEach((waiting, i) => waiting.resolve(results[i])),
        (error: unknown) => batch.forEach((waiting) => waiting.reject(error)),
      )
      .finally(() => {
        clearTimeout(timer);
        this.running -= 1;
        this.next();
      });
  }
}

/** One SharedQuery per pool, made when the pool is first asked: `run` answers the items asked on it. */
export function sharedPerPool<Item, Result, Db extends Pick<Pool, 'query'> = Pick<Pool, 'query'>>(
  run: (db: Db, items: Item[]) => Promise<Result[]>,
  options: { maxRunning?: number; untilAnyEnds?: boolean } = {},
): (db: Db, item: Item) => Promise<Result> {
  const byPool = new WeakMap<object, SharedQuery<Item, Result>>();
  return (db, item) => {
    let shared = byPool.get(db);
    if (!shared) byPool.set(db, (shared = new SharedQuery((items) => run(db, items), options)));
    return shared.ask(item);
  };
}

/**
 * The ids of a shared read, given in a subquery. Given as a value, the array's length is what
 * PostgreSQL plans for: a plan made for any array is estimated at ten rows, costs more than one
 * made for a single id, and so PostgreSQL planned the statement anew at every call, for more time
 * than it took to run. As a subquery's value the ids are unknown to both plans, and the statement
 * is planned once per connection.
 */
const IDS = 'ANY(CAST((SELECT $1::bigint[]) AS bigint[]))';

/**
 * A read of one record by id whose calls on a pool share queries: `select` (without a WHERE) is
 * read for the rows whose `idColumn` is one of the ids asked. Each caller gets the row of its id,
 * or undefined; callers asking for the same id get the same row, which none may change. Ids are
 * canonical (RECORD_ID), so a row is found by its id's text.
 */
export function sharedReadById<Row extends { id: string }>(
  name: string,
  select: string,
  idColumn: string,
): (db: Pick<Pool, 'query'>, id: string) => Promise<Row | undefined> {
  const text = `${select} WHERE ${idColumn} = ${IDS}`;
  return sharedPerPool(async (db, ids: string[]) => {
    const { rows } = await db.query<Row>({ name, text, values: [[...new Set(ids)]] });
    const found = new Map(rows.map((row) => [row.id, row]));
    return ids.map((one) => found.get(one));
  });
}
