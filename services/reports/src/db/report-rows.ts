import { hash } from 'node:crypto';
import Cursor from 'pg-cursor';
import type { Pool } from '@rex/db';
import type { CompiledReport } from '../library/compile.ts';
import { REPORT_TYPES } from './report-types.ts';

/** Rows fetched at a time, and the largest page read in one round trip. */
export const BATCH_ROWS = 500;

/**
 * A report's SQL as a named statement: prepared on a connection the first time it runs there,
 * then run without being parsed again (reading connections are replaced after a set number of
 * queries, which bounds what each keeps). The same text always gets the same name.
 */
export const statementName = (sql: string): string => {
  let name = statementNames.get(sql);
  if (name === undefined) {
    // The texts are the reports' queries, one per combination of parameters given: few, but not bounded.
    if (statementNames.size >= STATEMENT_NAMES_KEPT) statementNames.clear();
    name = `report_${hash('sha1', sql, 'base64url')}`;
    statementNames.set(sql, name);
  }
  return name;
};
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_KEPT = 1_000;

/**
 * Closes a cursor; true when the connection is fit for the next caller. On a
 * connection that was lost the close would wait for an answer that never
 * comes, so it is given a second at most and the connection is then dropped.
 */
async function closeCursor(cursor: Cursor): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const closed = cursor.close().then(
    () => true,
    () => false,
  );
  const gaveUp = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), 1_000);
  });
  try {
    return await Promise.race([closed, gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A report's rows (arrays, in column order), batch after batch; the first batch
 * comes even when empty, so a query that fails at once (the usual way) fails
 * before the caller has answered anything. The connection is released however
 * the caller stops reading: given back when fit for the next caller, dropped
 * otherwise.
 */
export async function* reportRows(pool: Pool, compiled: CompiledReport, limit: number): AsyncGenerator<unknown[][]> {
  const client = await pool.connect();
  let healthy = true;
  try {
    if (limit <= BATCH_ROWS) {
      // A page fits one batch: one round trip, where a cursor takes three.
      let rows: unknown[][];
      try {
        rows = (await client.query<unknown[]>({ name: statementName(compiled.sql), text: compiled.sql, values: compiled.values, rowMode: 'array', types: REPORT_TYPES })).rows;
      } catch (error) {
        // An error the server answered leaves the connection usable; any other may not.
        healthy = (error as { severity?: unknown }).severity !== undefined;
        throw error;
      }
      yield rows;
      return;
    }
    const cursor = client.query(new Cursor(compiled.sql, compiled.values, { rowMode: 'array', types: REPORT_TYPES }));
    try {
      // The next batch is asked for before this one is handed on, so the database produces it meanwhile.
      let next: Promise<unknown[][]> = cursor.read(BATCH_ROWS);
      for (;;) {
        const rows = await next;
        // A short batch is the last one: no further round trip is needed to learn so.
        const last = rows.length < BATCH_ROWS;
        if (!last) {
          next = cursor.read(BATCH_ROWS);
          // A caller that stops reading leaves this batch unread; its error, if any, is the close's to handle.
          next.catch(() => undefined);
        }
        yield rows;
        if (last) break;
      }
    } finally {
      healthy = await closeCursor(cursor);
    }
  } finally {
    client.release(!healthy);
  }
}
