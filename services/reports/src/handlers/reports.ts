import type { Pool } from '@rex/db';
import { badRequest, forbidden, notFound, writeMessage, type Handlers } from '@rex/grpc';
import { RowTextWriter, toJsonRows, type FolderEntry, type ReportAccess__Output, type ReportsServiceHandlers, type RowBatch, type RowForm__Output, type RowValues } from '@rex/protos';
import type { ReportCounts } from '../db/report-counts.ts';
import { reportRows } from '../db/report-rows.ts';
import { reportVerdict } from '../domain/access.ts';
import { cellText } from '../domain/report-values.ts';
import { NotAllowedError, visibilityFor } from '../domain/visibility.ts';
import type { Catalogue } from '../library/catalogue.ts';
import { ParamError, compileReport } from '../library/compile.ts';
import type { ReportDefinition } from '../library/types.ts';

export const FEATURED = 'featured';

const TEXT_FORMS: ReadonlySet<RowForm__Output> = new Set(['ROW_FORM_CSV', 'ROW_FORM_NDJSON', 'ROW_FORM_JSON_OBJECTS']);

/**
 * Writes each batch of rows in the form the caller asked for: as text it sends
 * on as it stands, or as JSON arrays of values (also for a form this version
 * does not know, which the caller sees by the text being absent).
 */
function batchWriter(form: RowForm__Output, columns: string[]): (rows: unknown[][]) => RowBatch {
  // The rows are the driver's arrays, this batch's alone: each value is replaced by its text where it stands.
  const values = (rows: unknown[][]) => {
    for (const row of rows) for (let i = 0; i < row.length; i++) row[i] = cellText(row[i]);
    return rows as RowValues[];
  };
  if (!TEXT_FORMS.has(form)) return (rows) => ({ json: toJsonRows(values(rows)), count: rows.length });
  const writer = new RowTextWriter(form as Exclude<RowForm__Output, 'ROW_FORM_JSON_ARRAYS'>, columns);
  return (rows) => ({ text: Buffer.from(writer.write(values(rows))), count: rows.length });
}

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

export function reportHandlers(
  catalogue: Catalogue,
  read: Pool,
  counts: ReportCounts,
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
      // The count runs beside the rows' query, on its own connection, unless it is kept from an earlier page.
      const counting = request.wantCount ? counts.count(compiled) : undefined;
      counting?.catch(() => undefined);
      let headSent = false;
      const columns = compiled.columns.map((c) => c.name);
      const batch = batchWriter(request.rowForm, columns);
      for await (const rows of reportRows(read, compiled, request.limit)) {
        if (!headSent) {
          const count = counting ? await counting : 0;
          await writeMessage(call, {
            head: { count: count ?? 0, countUnknown: count === undefined, columns, unknownParameters: compiled.unknownParameters },
          });
          headSent = true;
        }
        if (rows.length) await writeMessage(call, { rows: batch(rows) });
      }
    },
  };
}
