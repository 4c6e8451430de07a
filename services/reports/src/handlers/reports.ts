import Cursor from 'pg-cursor';
import type { Pool } from '@rex/db';
import { DomainError, badRequest, forbidden, grpc, notFound, toServiceError, unary } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import type {
  DescribeReportRequest__Output,
  DescribeReportResponse,
  FieldValue,
  FolderEntry,
  ListFolderRequest__Output,
  ListFolderResponse,
  ReportAccess__Output,
  ReportsServiceHandlers,
  RunReportChunk,
  RunReportRequest__Output,
} from '@rex/protos';
import type { Catalogue } from '../library/catalogue.ts';
import { ParamError, compileReport } from '../library/compile.ts';
import type { ReportDefinition } from '../library/definition.ts';
import { reportVerdict } from '../domain/access.ts';
import { NotAllowedError, visibilityFor } from '../domain/visibility.ts';

const SERVICE = 'reports.v1.ReportsService';
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

export function reportHandlers(catalogue: Catalogue, readPool: Pool, logger: Logger): Pick<ReportsServiceHandlers, 'ListFolder' | 'DescribeReport' | 'RunReport'> {
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
    ListFolder: unary<ListFolderRequest__Output, ListFolderResponse>(SERVICE, 'ListFolder', logger, async (request) => {
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
    }),

    DescribeReport: unary<DescribeReportRequest__Output, DescribeReportResponse>(SERVICE, 'DescribeReport', logger, async (request) => {
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
        })),
        columns: report.columns.map((c) => ({ name: c.name, display: c.display, datatype: c.datatype, visible: c.visible })),
      };
    }),

    RunReport: (call: grpc.ServerWritableStream<RunReportRequest__Output, RunReportChunk>) => {
      const request = call.request;
      let closed = false;
      call.on('cancelled', () => {
        closed = true;
      });
      const write = async (chunk: RunReportChunk) => {
        if (!call.write(chunk)) await new Promise((resolve) => call.once('drain', resolve));
      };
      const run = async () => {
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
          });
        } catch (error) {
          if (error instanceof ParamError) throw badRequest(error.message);
          if (error instanceof NotAllowedError) throw forbidden(error.message);
          throw error;
        }
        const client = await readPool.connect();
        try {
          let count = 0;
          if (request.wantCount) count = Number((await client.query(compiled.countSql, compiled.countValues)).rows[0].count);
          await write({ head: { count, columns: compiled.columns.map((c) => c.name) } });
          const cursor = client.query(new Cursor(compiled.sql, compiled.values, { rowMode: 'array' }));
          try {
            for (;;) {
              const rows: unknown[][] = await cursor.read(BATCH_ROWS);
              if (!rows.length || closed) break;
              await write({ rows: { rows: rows.map((row) => ({ values: row.map(textOf) })) } });
            }
          } finally {
            await cursor.close();
          }
        } finally {
          client.release();
        }
        call.end();
      };
      run().catch((error: unknown) => {
        if (!(error instanceof DomainError)) logger.error({ err: error, path: request.path }, 'report failed');
        call.emit('error', toServiceError(error));
      });
    },
  };
}
