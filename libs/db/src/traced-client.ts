import pg from 'pg';
import { clientSpan, endSpan, type Span } from '@rex/telemetry';

/** The longest statement text a span keeps. */
const TEXT_KEPT = 2_000;

/** The span of a statement run for traced work (see @rex/telemetry's spans): its operation and text, never its values. */
export function statementSpan(text: string, database: string | undefined): Span | undefined {
  return clientSpan(() => {
    const operation = operationOf(text);
    return {
      name: database ? `${operation} ${database}` : operation,
      attributes: {
        'db.system.name': 'postgresql',
        ...(database ? { 'db.namespace': database } : {}),
        'db.operation.name': operation,
        'db.query.text': text.length > TEXT_KEPT ? `${text.slice(0, TEXT_KEPT)}…` : text,
      },
    };
  });
}

/** The statement's first keyword (SELECT, INSERT, WITH, BEGIN…), after any comments. */
export function operationOf(text: string): string {
  return /^(?:\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
}

export const endStatement = (span: Span, error: unknown) =>
  endSpan(span, error ? { error: `SQLSTATE ${(error as { code?: string }).code ?? 'unknown'}` } : {});

/**
 * The connections of the suite's pools: a statement run for traced work is a
 * span of its own, ended when its answer (or error) comes; the error's SQLSTATE
 * is kept, not its message, which may quote values. Statements of work that is
 * not traced, and submittables such as cursors, run as pg runs them.
 */
export class TracedClient extends pg.Client {
  // pg's query() has a dozen overloads; one implementation takes them all and returns what pg returns.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const first: unknown = args[0];
    const text =
      typeof first === 'string'
        ? first
        : first !== null && typeof first === 'object' && typeof (first as { submit?: unknown }).submit !== 'function' && typeof (first as { text?: unknown }).text === 'string'
          ? (first as { text: string }).text
          : undefined;
    const span = text === undefined ? undefined : statementSpan(text, this.database);
    if (!span) return super.query(...(args as Parameters<pg.Client['query']>));
    const ended = (callback: (error: unknown, result: unknown) => void) => (error: unknown, result: unknown) => {
      endStatement(span, error);
      callback(error, result);
    };
    const last = args.length - 1;
    if (typeof args[last] === 'function') args[last] = ended(args[last] as (error: unknown, result: unknown) => void);
    else if (typeof (first as { callback?: unknown }).callback === 'function') {
      args[0] = { ...(first as object), callback: ended((first as { callback: (error: unknown, result: unknown) => void }).callback) };
    }
    let result: unknown;
    try {
      result = super.query(...(args as Parameters<pg.Client['query']>));
    } catch (error) {
      endStatement(span, error);
      throw error;
    }
    // With a callback, pg answers through it (and returns nothing); without, with a promise.
    if (result instanceof Promise) {
      result.then(
        () => endStatement(span, undefined),
        (error: unknown) => endStatement(span, error),
      );
    }
    return result;
  }
}
