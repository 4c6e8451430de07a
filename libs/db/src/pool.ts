import pg from 'pg';

// Dates stay strings: records format them exactly as the API shows them.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
// int8 ids and counts as strings, as the API returns them.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

export type Pool = pg.Pool;

export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
export const DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS = 30_000;
export type PoolClient = pg.PoolClient;

export function createPool(
  connectionString: string,
  options: { max?: number; applicationName?: string; statementTimeoutMs?: number; idleInTransactionTimeoutMs?: number } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName,
    // No statement and no open transaction holds a connection for ever.
    statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // A client losing its connection (a database restart, a terminated backend)
  // must not crash the process, idle or checked out: the query in flight
  // fails with the error, and the pool discards the client.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

/** Runs `fn` in one transaction: committed if it resolves, rolled back if it throws. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
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
