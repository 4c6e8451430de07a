import pg from 'pg';
import { createRequire } from 'node:module';
import type { Pool, PoolClient } from './pool.ts';
import { endStatement, statementSpan } from './traced-client.ts';

/** node-postgres's own mapping of a value to its parameter text (arrays, dates, JSON), as its queries use it. */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };

/** What node-postgres's connection offers a submittable (pg's own Query uses the same). */
type Connection = {
  stream: { cork?: () => void; uncork?: () => void };
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  parse(query: { text: string; name: string }): void;
  bind(config: { statement: string; values: unknown[]; valueMapper: (value: unknown) => unknown }): void;
  execute(config: { portal: string; rows: number }): void;
  sync(): void;
};

/**
 * Runs one named statement for several lists of values in one round trip: a Parse if the
 * connection has not prepared it, then a Bind and an Execute for each list, then one Sync.
 * PostgreSQL runs what comes before a Sync as one transaction, committed at the Sync: every
 * execution is written, or (after any error, the rest being skipped) none is. Each execution's
 * first row comes back as its columns' text, in the order of the statement's columns.
 */
class Pipeline {
  readonly name: string;
  readonly text: string;
  private readonly valueLists: unknown[][];
  private readonly rows: (string | null)[][] = [];
  private executed = 0;
  private answered = false;
  private readonly answer: (error: Error | undefined, rows: (string | null)[][]) => void;

  constructor(name: string, text: string, valueLists: unknown[][], done: (error: Error | undefined, rows: (string | null)[][]) => void) {
    this.name = name;
    this.text = text;
    this.valueLists = valueLists;
    this.answer = done;
  }

  private done(error: Error | undefined): void {
    if (this.answered) return;
    this.answered = true;
    this.answer(error, this.rows);
  }

  submit(connection: Connection): Error | null {
    const prepared = connection.parsedStatements[this.name] ?? connection.submittedNamedStatements[this.name];
    if (prepared !== undefined && prepared !== this.text) return new Error(`The statement ${this.name} was prepared with another text.`);
    connection.stream.cork?.();
    try {
      if (prepared === undefined) {
        connection.parse({ text: this.text, name: this.name });
        connection.submittedNamedStatements[this.name] = this.text;
      }
      for (const values of this.valueLists) {
        connection.bind({ statement: this.name, values, valueMapper: prepareValue });
        connection.execute({ portal: '', rows: 0 });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    this.rows[this.executed] ??= message.fields;
  }

  handleCommandComplete(): void {
    this.executed += 1;
  }

  handleEmptyQuery(): void {
    this.executed += 1;
  }

  // node-postgres lets go of a query at its first error (what follows until the Sync is skipped).
  handleError(error: Error): void {
    this.done(error);
  }

  handleReadyForQuery(): void {
    this.done(undefined);
  }

  // Nothing this statement asks for comes back as rows in pages or as a copy.
  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}
}

/**
 * Runs the named statement `text` once for each of `valueLists` on one client, in one round
 * trip and one transaction (see Pipeline): the first row of each execution, as its columns' text.
 */
export async function runPipelined(db: Pool, name: string, text: string, valueLists: unknown[][]): Promise<(string | null)[][]> {
  const client: PoolClient = await db.connect();
  let broken: Error | undefined;
  // Traced work sees the executions as one statement of its trace.
  const span = statementSpan(text, (client as unknown as { database?: string }).database);
  try {
    const rows = await new Promise<(string | null)[][]>((resolve, reject) => {
      const pipeline = new Pipeline(name, text, valueLists, (error, rows) => (error ? reject(error) : resolve(rows)));
      client.query(pipeline as unknown as pg.QueryConfig);
    });
    if (span) endStatement(span, undefined);
    return rows;
  } catch (error) {
    if (span) endStatement(span, error);
    // A statement PostgreSQL refused leaves the connection as it was; anything else closes it.
    if (!isStatementError(error)) broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Whether PostgreSQL refused a statement (an error of severity ERROR): its transaction was rolled
 * back and the connection goes on. Not so of a FATAL error, which ends the connection and may come
 * after a commit (a server stopped while it waits for a synchronous standby), nor of a lost connection.
 */
export const isStatementError = (error: unknown): error is pg.DatabaseError => error instanceof pg.DatabaseError && error.severity === 'ERROR';
