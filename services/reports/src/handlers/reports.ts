import Cursor from 'pg-cursor';
import type { Pool } from '@rex/db';
import { CallEnded, badRequest, forbidden, notFound, writeMessage, type Handlers } from '@rex/grpc';
import type { FieldValue, FolderEntry, ReportAccess__Output, ReportsServiceHandlers } from '@rex/protos';
import type { Catalogue } from '../library/catalogue.ts';
import { ParamError, compileReport, type CompiledReport } from '../library/compile.ts';
import type { ReportDefinition } from '../library/definition.ts';
import { reportVerdict } from '../domain/access.ts';
import { NotAllowedError, visibilityFor } from '../domain/visibility.ts';
const BATCH_ROWS = 500;
export const FEATURED = 'featured';

function reportEntry(report: ReportDefinition): FolderEntry {
  return { name: report.path.split('/').pop()!, type: 'ENTRY_TYPE_REPORT', title: report.title, description: report.description, path: report.path, featured: report.featured };
}

/** The report at `path` if the caller may use it; 404 when it does not exist for the caller, 403 when not allowed. */
function findReport(catalogue: Catalogue, path: string, access: ReportAccess__Output | null): ReportDefinition {
  const report = catalogue.reports.get(path.replace(/\.xml$/, ''));
  const verdict = report ? reportVerdict(report, access) : 'hidden';
  if (!report || verdict === 'hidden') throw notFound(`Unable to find report ${path}`);
  if (verdict === 'forbidden') throw forbidden('Report requested is not allowed');
  return report;
}

function textOf(value: unknown): FieldValue {
  if (value === null || value === undefined) return { null: true };
  if (value instanceof Date) return { text: value.toISOString() };
  return { text: typeof value === 'object' ? JSON.stringify(value) : String(value) };
}

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

/** PostgreSQL's code for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';

/**
 * Rows in all pages, on a pool whose statement timeout is short: a count that
 * takes longer is given up (undefined) and the page goes without it, as does
 * one of more rows than the count limit (so a count's cost does not grow with
 * the data beyond the limit).
 */
async function countRows(countPool: Pool, compiled: CompiledReport, countLimit: number): Promise<number | undefined> {
  try {
    const count = Number((await countPool.query(compiled.countSql, compiled.countValues)).rows[0].count);
    return countLimit && count > countLimit ? undefined : count;
  } catch (error) {
    if ((error as { code?: string }).code === QUERY_CANCELED) return undefined;
    throw error;
  }
}

export function reportHandlers(
  catalogue: Catalogue,
  pools: { read: Pool; count: Pool },
  countLimit = 0,
): Pick<Handlers<ReportsServiceHandlers>, 'ListFolder' | 'DescribeReport' | 'RunReport'> {
  /** A folder's entries that the caller may see; folders with nothing visible in them are left out. */
  const visibleEntries = (path: string, access: ReportAccess__Output | null): FolderEntry[] => {
    const folder = catalogue.folders.get(path);
    if (!folder) return [];
    const reports = folder.reports
      .map((reportPath) => catalogue.reports.get(reportPath)!)
      .filter((report) => reportVerdict(report, access) === 'allowed')
      .map(reportEntry);
    const folders = folder.folders
      .filter((child) => visibleEntries(child, access).length > 0)
      .map((child) => {
        const entry = catalogue.folders.get(child)!;
        return { name: child.split('/').pop()!, type: 'ENTRY_TYPE_FOLDER' as const, title: entry.title, description: entry.description ?? '', path: child, featured: false };
      });
    return [...folders, ...reports];
  };

  return {
    ListFolder: async (request) => {
      const path = request.path.replace(/^\/+|\/+$/g, '');
      if (path === FEATURED) {
        const featured = [...catalogue.reports.values()].filter((r) => r.featured && reportVerdict(r, request.access) === 'allowed');
        return { entries: featured.sort((a, b) => a.title.localeCompare(b.title)).map(reportEntry) };
      }
      if (!catalogue.folders.has(path)) throw notFound(`Unable to find folder ${path}`);
      const entries = visibleEntries(path, request.access);
      if (path === '' && !request.access?.featuredOnly) {
        entries.unshift({ name: FEATURED, type: 'ENTRY_TYPE_FOLDER', title: 'Featured', description: 'Reports picked out as the most useful.', path: FEATURED, featured: false });
      }
      return { entries };
    },

    DescribeReport: async (request) => {
      const report = findReport(catalogue, request.path, request.access);
      return {
        title: report.title,
        description: report.description,
        parameters: report.params.map((p) => ({
          name: p.name,
          display: p.display,
          description: p.description,
          datatype: p.datatype,
          hasDefault: p.default !== undefined,
          default: p.default ?? '',
          lookupValues: p.lookupValues ?? {},
          aliases: p.aliases ?? [],
        })),
        columns: report.columns.map((c) => ({ name: c.name, display: c.display, datatype: c.datatype, visible: c.visible })),
      };
    },

    RunReport: async (request, call) => {
      const report = findReport(catalogue, request.path, request.access);
      let compiled;
      try {
        const visibility = visibilityFor(report.table, request.auth, request.access?.limitToOwnData ?? false);
        compiled = compileReport(report, request.parameters, visibility, {
          limit: request.limit,
          offset: request.offset,
          orderBy: request.orderBy || undefined,
          sortDir: request.sortDir === 'DESC' ? 'DESC' : request.sortDir === 'ASC' ? 'ASC' : undefined,
          columns: request.columns.length ? request.columns : undefined,
          countLimit,
        });
      } catch (error) {
        if (error instanceof ParamError) throw badRequest(error.message);
        if (error instanceof NotAllowedError) throw forbidden(error.message);
        throw error;
      }
      // The count runs beside the rows' query, on its own connection.
      const counting = request.wantCount ? countRows(pools.count, compiled, countLimit) : undefined;
      counting?.catch(() => undefined);
      const client = await pools.read.connect();
      let healthy = true;
      if (request.limit <= BATCH_ROWS) {
        // A page fits one batch: one round trip, where a cursor takes three.
        try {
          const { rows } = await client.query<unknown[]>({ text: compiled.sql, values: compiled.values, rowMode: 'array' });
          const count = counting ? await counting : 0;
          await writeMessage(call, {
            head: { count: count ?? 0, countUnknown: count === undefined, columns: compiled.columns.map((c) => c.name), unknownParameters: compiled.unknownParameters },
          });
          if (rows.length) await writeMessage(call, { rows: { rows: rows.map((row) => ({ values: row.map(textOf) })) } });
        } catch (error) {
          // A caller gone after the query, or an error the server answered, leaves the connection usable; any other may not.
          healthy = error instanceof CallEnded || (error as { severity?: unknown }).severity !== undefined;
          throw error;
        } finally {
          client.release(!healthy);
        }
        return;
      }
      try {
        const cursor = client.query(new Cursor(compiled.sql, compiled.values, { rowMode: 'array' }));
        try {
          // The first rows are read before the head is sent: a query that fails at once (the usual
          // way) is then an error status for the client rather than an answer cut short.
          let rows: unknown[][] = await cursor.read(BATCH_ROWS);
          const count = counting ? await counting : 0;
          await writeMessage(call, {
            head: { count: count ?? 0, countUnknown: count === undefined, columns: compiled.columns.map((c) => c.name), unknownParameters: compiled.unknownParameters },
          });
          for (;;) {
            if (rows.length) await writeMessage(call, { rows: { rows: rows.map((row) => ({ values: row.map(textOf) })) } });
            // A short batch is the last one: no further round trip is needed to learn so.
            if (rows.length < BATCH_ROWS) break;
            rows = await cursor.read(BATCH_ROWS);
          }
        } finally {
          healthy = await closeCursor(cursor);
        }
      } finally {
        // A connection whose cursor could not be closed is not given to the next caller.
        client.release(!healthy);
      }
    },
  };
}
