import pg from 'pg';
import { keepingTrace, unwatchPool, watchPool } from '@rex/telemetry';
import { TracedClient } from './traced-client.ts';
import { databaseSocket } from './database-socket.ts';

// Dates stay strings: records format them exactly as the API shows them.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
// int8 ids and counts as strings, as the API returns them.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
export const DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS = 30_000;

/**
 * The call a query runs for, when the service tells (see `scope` below): its
 * deadline, whether the caller has given up, and a way to be told when it does.
 */
export type QueryScope = { deadline?: number; readonly ended: boolean; onEnd: (listener: () => void) => () => void };

/** The caller gave up (cancelled, or out of time) before or while its query ran. */
export class QueryAbandoned extends Error {
  readonly code = '57014';
  constructor() {
    super('canceling statement: the call it ran for ended');
  }
}

/** What node-postgres keeps of a connection and does not type: its running query, and its key for cancel requests. */
type PgInternals = { _getActiveQuery(): unknown; processID: number; secretKey: number };

/** An unconnected client, whose connection carries one cancel request. */
type Canceller = {
  host: string;
  port: number;
  connection: { on(event: string, listener: () => void): void; connect(...target: unknown[]): void; cancel(processId: number, secretKey: number): void };
};

/**
 * Asks the server to cancel what `target` runs, on a connection of its own, as node-postgres's
 * Client#cancel does, without reading its deprecated `activeQuery` (which would print a
 * DeprecationWarning into the service's log at the first cancel).
 */
function sendCancelRequest(canceller: Canceller, target: PgInternals): void {
  const connection = canceller.connection;
  connection.on('error', () => undefined);
  connection.on('connect', () => connection.cancel(target.processID, target.secretKey));
  if (canceller.host?.startsWith('/')) connection.connect(`${canceller.host}/.s.PGSQL.${canceller.port}`);
  else connection.connect(canceller.port, canceller.host);
}

/** Marks clients whose connection closed (pg-pool drops idle clients on 'error' only, not on a plain close). */
const closed = new WeakSet<object>();

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * The suite's pool. It never hands out a client whose connection has closed
 * (a query on one would wait for ever), and, given the current call's scope,
 * its clients serve that call: a query still running when the call is
 * cancelled or its deadline passes is cancelled in the database (a PostgreSQL
 * cancel request), so a write whose caller already had an error is not
 * committed behind its back, and transactions run with the call's remaining
 * time as their statement timeout.
 */
export class ScopedPool extends pg.Pool {
  readonly scope: () => QueryScope | undefined;

  /** Its name in the metrics (rex_db_pool_*): the application name it connects with. */
  readonly name: string;

  constructor(config: pg.PoolConfig, scope: () => QueryScope | undefined = () => undefined) {
    super(config);
    this.scope = scope;
    this.name = config.application_name ?? 'default';
    watchPool(this.name, this);
  }

  override end(): Promise<void>;
  override end(callback: () => void): void;
  override end(callback?: () => void): Promise<void> | void {
    unwatchPool(this.name, this);
    return callback ? super.end(callback) : super.end();
  }

  // pg-pool's query() goes through connect() too, so both are covered. Callbacks,
  // not promises: this runs for every query.
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    if (!callback) {
      return new Promise((resolve, reject) => this.connect((error, client) => (error ? reject(error) : resolve(client!))));
    }
    const scope = this.scope();
    if (scope?.ended) {
      process.nextTick(callback, new QueryAbandoned(), undefined, () => undefined);
      return;
    }
    // The statements the caller runs with the client are its trace's, whoever's release hands it over.
    this.liveClient(scope, keepingTrace(callback));
  }

  /** A live client for the call in `scope` (read once: pg-pool may answer from another call's context). */
  private liveClient(scope: QueryScope | undefined, callback: ConnectCallback): void {
    super.connect((error, client, done) => {
      if (error || !client) {
        callback(error ?? new Error('The pool gave no client.'), undefined, () => undefined);
        return;
      }
      // A client whose connection has closed is dropped, and another asked for.
      if (closed.has(client)) {
        done(true);
        this.liveClient(scope, callback);
        return;
      }
      // The call may have ended while it waited for a client: it would hear of it no more.
      if (scope?.ended) {
        done();
        callback(new QueryAbandoned(), undefined, () => undefined);
        return;
      }
      if (scope) this.watch(client, scope);
      callback(undefined, client, (release) => client.release(release as boolean | Error | undefined));
    });
  }

  /**
   * Cancels the client's running query if the call ends while the client is checked out. A
   * client a cancel request was sent for is then closed, not given to the next call: the request
   * travels on a connection of its own and cancels whatever its server process runs when it
   * arrives, which, if the query it was meant for had finished meanwhile, would be the next
   * call's statement.
   */
  private watch(client: pg.PoolClient, scope: QueryScope): void {
    let cancelSent = false;
    const onEnd = () => {
      if (!(client as unknown as PgInternals)._getActiveQuery()) return;
      cancelSent = true;
      sendCancelRequest(new pg.Client(this.options) as unknown as Canceller, client as unknown as PgInternals);
    };
    const stopWatching = scope.onEnd(onEnd);
    const release = client.release;
    client.release = (err?: Error | boolean) => {
      stopWatching();
      client.release = release;
      return release.call(client, cancelSent || err);
    };
  }
}

/** The settings a pool's connections start with (`-c name=value`), none when all are the server's. */
function connectionOptions(options: { jit?: boolean; customPlans?: boolean; pageCost?: number }): string | undefined {
  const settings = [
    options.jit ? '' : '-c jit=off',
    options.customPlans ? '-c plan_cache_mode=force_custom_plan' : '',
    options.pageCost ? `-c seq_page_cost=${options.pageCost} -c random_page_cost=${options.pageCost}` : '',
  ];
  return settings.filter(Boolean).join(' ') || undefined;
}

export function createPool(
  connectionString: string,
  options: {
    max?: number;
    applicationName?: string;
    statementTimeoutMs?: number;
    idleInTransactionTimeoutMs?: number;
    /** The call each query serves (e.g. @rex/grpc's currentCall), for cancellation and deadlines. */
    scope?: () => QueryScope | undefined;
    /**
     * Queries a connection serves before it is closed and replaced: bounds what it holds for
     * its whole life, such as the statements prepared on it (named queries).
     */
    maxUses?: number;
    /**
     * Plan each execution of a prepared statement for its own parameters (PostgreSQL's
     * plan_cache_mode=force_custom_plan): a named query then saves its parsing but never runs a
     * generic plan that suits other parameters.
     */
    customPlans?: boolean;
    /**
     * Let PostgreSQL compile a statement to machine code when its estimated cost passes
     * jit_above_cost. Off unless asked for: the suite's statements take milliseconds, a compile is
     * made for every execution and takes tens of them, and estimates cross the threshold on
     * statements that are cheap to run (the projector's, with their correlated subqueries).
     */
    jit?: boolean;
    /**
     * What the planner counts for reading a table or index page, sequential or random
     * (PostgreSQL's seq_page_cost and random_page_cost), when not its server's: 0.1 takes the
     * pages as held in memory, so a plan that reads a few hundred pages of a selective index no
     * longer looks dearer than one that filters tens of thousands of rows.
     */
    pageCost?: number;
  } = {},
): pg.Pool {
  const config: pg.PoolConfig = {
    // Statements of traced work are spans (nothing else is done for the others).
    Client: TracedClient,
    connectionString,
    stream: databaseSocket,
    max: options.max ?? 10,
    application_name: options.applicationName,
    // No statement and no open transaction holds a connection for ever.
    statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    ...(options.maxUses ? { maxUses: options.maxUses } : {}),
    options: connectionOptions(options),
  };
  const pool = new ScopedPool(config, options.scope);
  // A client losing its connection (a database restart, a terminated backend)
  // must not crash the process, idle or checked out: the query in flight
  // fails with the error, and the pool discards the client.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    client.on('end', () => closed.add(client));
  });
  return pool;
}

/** The statement timeout for a transaction of the current call: what remains of its deadline. */
function beginStatement(pool: pg.Pool): string {
  const deadline = pool instanceof ScopedPool ? pool.scope()?.deadline : undefined;
  if (deadline === undefined) return 'BEGIN';
  const remaining = Math.max(1, Math.floor(deadline - Date.now()));
  return `BEGIN; SET LOCAL statement_timeout = ${remaining}`;
}

/**
 * Time a commit must leave before the call's deadline for its answer to reach the caller in time:
 * a transaction finishing later is rolled back, since its caller will have been told the call
 * failed.
 */
export const COMMIT_MARGIN_MS = 100;

/** Whether the call a transaction serves can still be answered: not ended, and its deadline not (almost) passed. */
function callStillWaits(pool: pg.Pool): boolean {
  const scope = pool instanceof ScopedPool ? pool.scope() : undefined;
  if (!scope) return true;
  return !scope.ended && (scope.deadline === undefined || Date.now() < scope.deadline - COMMIT_MARGIN_MS);
}

/**
 * Runs `fn` in one transaction: committed if it resolves, rolled back if it throws, and rolled
 * back (QueryAbandoned) when the call it serves has ended or is out of time by then, so nothing is
 * saved for a caller that was answered with an error.
 */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(beginStatement(pool));
    const result = await fn(client);
    if (!callStillWaits(pool)) throw new QueryAbandoned();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** True when the database answers a trivial query. */
export async function isReachable(pool: pg.Pool): Promise<boolean> {
  try {
    await pool.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
