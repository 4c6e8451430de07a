import type { Request, Response } from 'express';
import { RowTextWriter, csvLine, fromJsonRows, type ReportAccess, type RowForm, type RunReportChunk__Output } from '@rex/protos';
import { toAuthContext, type Caller } from '../auth/caller.ts';
import type { ReportsClient } from '../clients/reports.ts';
import { HttpError } from '../http-error.ts';
import { answerFormat, sendAnswer } from './answer-format.ts';
import { API_PARAMETERS, CARRIED_PARAMETERS, backend, requestUrl, servicesUrl } from './context.ts';
import { HTML_PAGE_END, escapeHtml, htmlPageStart, htmlValue } from './html-page.ts';
import type { Route } from './route.ts';
import { streamAnswer } from './stream-answer.ts';

/**
 * Query parameters that steer the API rather than the report: never passed to
 * it, so never unknown to it.
 */
const CONTROLS = new Set([
  // the page, its order and columns
  'limit', 'offset', 'orderby', 'sortdir', 'columns', 'wantCount', 'known_count',
  // credentials, scope and format
  ...API_PARAMETERS,
  // sent by the warehouse's client libraries, with no effect here
  'callback', '_', 'cached', 'nonce', 'auth_token', 'wantColumns', 'wantParameters', 'wantRecords', 'reportSource',
]);

/** What the caller's method options and connection allow of the report library. */
export function reportAccess(caller: Caller): ReportAccess {
  const client = caller.client;
  if (client && !client.allowReports) throw new HttpError(401, 'Access to reports unauthorised');
  const options = (caller.options?.resource_options?.reports ?? {}) as Record<string, unknown>;
  return {
    featuredOnly: options.featured === true || options.summary === true,
    limitToOwnData: options.limit_to_own_data === true,
    authorised: Array.isArray(options.authorise) ? options.authorise.map(String) : [],
    limitToReports: client?.limitToReports ?? [],
  };
}

function carried(req: Request): string {
  const params = new URLSearchParams();
  for (const name of CARRIED_PARAMETERS) if (typeof req.query[name] === 'string') params.set(name, req.query[name] as string);
  const text = params.toString();
  return text ? `?${text}` : '';
}

function integer(req: Request, name: string, fallback: number, max: number, overMax?: string): number {
  const raw = req.query[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw)) throw new HttpError(400, `Invalid integer format for ${name} parameter`);
  if (Number(raw) > max) throw new HttpError(400, overMax ?? `Invalid integer format for ${name} parameter`);
  return Number(raw);
}

/** The largest page a caller may ask for: JSON and HTML pages, and CSV or NDJSON downloads (streamed). */
export type ReportLimits = { maxPage: number; maxExport: number };

/** The report's own parameters: every query parameter but the controls, each given once. */
function reportParameters(req: Request): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.query)) {
    if (CONTROLS.has(key)) continue;
    if (typeof value !== 'string') throw new HttpError(400, `Parameter ${key} is given more than once`);
    parameters[key] = value;
  }
  return parameters;
}

/** What a report run says about the parameters it ignored: in the JSON and HTML bodies, and in a header (any format). */
const warningOf = (name: string) => `Unknown parameter ${name}: the report does not take it, so it was ignored.`;
const UNKNOWN_PARAMETERS_HEADER = 'Unknown-Parameters';

function pageLink(req: Request, offset: number, limit: number, count: number | undefined): string {
  const url = requestUrl(req);
  url.searchParams.set('offset', String(offset));
  url.searchParams.set('limit', String(limit));
  if (count !== undefined) url.searchParams.set('known_count', String(count));
  return url.toString();
}

/** The form reports writes the rows in for each format: as the answer's text, except for HTML. */
const ROW_FORMS = { json: 'ROW_FORM_JSON_OBJECTS', csv: 'ROW_FORM_CSV', ndjson: 'ROW_FORM_NDJSON', html: 'ROW_FORM_JSON_ARRAYS' } as const satisfies Record<string, RowForm>;

/** Runs a report and streams its rows to the client as JSON, an HTML table, CSV or NDJSON. */
function runReport(reports: ReportsClient, limits: ReportLimits, req: Request, res: Response, path: string): Promise<void> {
  const format = answerFormat(req, ['json', 'html', 'csv', 'ndjson']);
  const page = format === 'json' || format === 'html';
  const maxLimit = page ? limits.maxPage : limits.maxExport;
  const limit = integer(req, 'limit', 100, maxLimit, `limit may be at most ${maxLimit} for ${page ? `a ${format.toUpperCase()} page` : `a ${format} download`}`);
  const offset = integer(req, 'offset', 0, 1e9);
  const wantCount = req.query.wantCount !== '0' && req.query.wantCount !== 'false';
  // The count a paging link carries (known_count): the rows are not counted again for each page.
  const knownCount = wantCount && typeof req.query.known_count === 'string' && /^\d{1,15}$/.test(req.query.known_count) ? Number(req.query.known_count) : undefined;
  const parameters = reportParameters(req);
  const sortdir = typeof req.query.sortdir === 'string' ? req.query.sortdir.toUpperCase() : '';
  if (sortdir && sortdir !== 'ASC' && sortdir !== 'DESC') throw new HttpError(400, 'sortdir must be ASC or DESC');
  const stream = reports.runReport({
    auth: toAuthContext(req.caller!),
    path,
    parameters,
    limit,
    offset,
    orderBy: typeof req.query.orderby === 'string' ? req.query.orderby : '',
    sortDir: sortdir,
    columns: typeof req.query.columns === 'string' ? req.query.columns.split(',').filter(Boolean) : [],
    wantCount: wantCount && knownCount === undefined,
    access: reportAccess(req.caller!),
    rowForm: ROW_FORMS[format],
  });

  let columns: string[] = [];
  let texts: RowTextWriter | undefined;
  let count: number | undefined;
  let warnings: string[] = [];
  let rows = 0;
  const paging = () => {
    const links: Record<string, string> = { self: pageLink(req, offset, limit, count) };
    if (offset > 0) links.previous = pageLink(req, Math.max(0, offset - limit), limit, count);
    if (count !== undefined ? offset + limit < count : rows === limit) links.next = pageLink(req, offset + limit, limit, count);
    return links;
  };
  return streamAnswer(stream, res, 'reports', {
    applyHead: (chunk: RunReportChunk__Output) => {
      if (!chunk.head) return false;
      columns = chunk.head.columns;
      if (format !== 'html') texts = new RowTextWriter(ROW_FORMS[format], columns);
      count = knownCount ?? (wantCount && !chunk.head.countUnknown ? Number(chunk.head.count) : undefined);
      const unknown = chunk.head.unknownParameters;
      warnings = unknown.map(warningOf);
      res.status(200).vary('Accept');
      if (unknown.length) res.set(UNKNOWN_PARAMETERS_HEADER, unknown.map(encodeURIComponent).join(', '));
      if (format === 'csv') {
        res.type('text/csv').write(csvLine(columns));
      } else if (format === 'ndjson') {
        res.type('application/x-ndjson');
      } else if (format === 'html') {
        const warned = warnings.length ? `<h2>Warnings</h2>\n${htmlValue(warnings)}\n` : '';
        const head = `<tr>${columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr>`;
        res.type('html').write(`${htmlPageStart(`Report ${path}`)}${warned}<table>\n${head}\n`);
      } else {
        const warned = warnings.length ? `"warnings":${JSON.stringify(warnings)},` : '';
        res.type('application/json');
        res.write(count !== undefined ? `{"count":${count},"paging":${JSON.stringify(paging())},${warned}"data":[` : `{${warned}"data":[`);
      }
      return true;
    },
    render: (chunk: RunReportChunk__Output) => {
      const batch = chunk.rows;
      if (!batch) return undefined;
      // Reports writes the rows as this answer's text, sent on as it stands (never into HTML, which escapes values).
      if (texts && batch.text.length) {
        rows += batch.count;
        return batch.text;
      }
      // As values: for HTML, and from a reports service that writes only those (one of an earlier version, during an upgrade).
      const values = fromJsonRows(batch.json);
      rows += values.length;
      if (texts) return texts.write(values);
      return values.map((row) => `<tr>${row.map((value) => `<td>${htmlValue(value)}</td>`).join('')}</tr>\n`).join('');
    },
    finish: () => {
      if (format === 'html') return `</table>\n${htmlValue({ count: count ?? rows, paging: paging() })}${HTML_PAGE_END}`;
      if (format !== 'json') return undefined;
      return count !== undefined ? ']}' : `],"count":0,"paging":${JSON.stringify(paging())}}`;
    },
  });
}

/** GET {services}/reports[/<folder>…][/<report>.xml[/params|/columns]]. */
export function reportRoutes(reports: ReportsClient, limits: ReportLimits): Route[] {
  const listing = async (req: Request, res: Response, path: string) => {
    const { entries } = await backend('reports', reports.listFolder(toAuthContext(req.caller!), path, reportAccess(req.caller!)));
    const base = `${servicesUrl(req)}/rest/reports`;
    const credentials = carried(req);
    const body: Record<string, unknown> = {};
    for (const entry of [...entries].sort((a, b) => a.title.localeCompare(b.title))) {
      if (entry.type === 'ENTRY_TYPE_FOLDER') {
        body[entry.name] = { type: 'folder', title: entry.title, ...(entry.description ? { description: entry.description } : {}), href: `${base}/${entry.path}${credentials}` };
      } else {
        const href = `${base}/${entry.path}.xml`;
        body[path === 'featured' ? entry.path : entry.name] = {
          type: 'report',
          title: entry.title,
          description: entry.description,
          path: entry.path,
          ...(entry.featured ? { featured: 'true' } : {}),
          href: `${href}${credentials}`,
          params: { href: `${href}/params${credentials}` },
          columns: { href: `${href}/columns${credentials}` },
        };
      }
    }
    sendAnswer(req, res, body, path ? `Reports: ${path}` : 'Reports');
  };

  const describe = async (req: Request, res: Response, path: string, part: 'params' | 'columns') => {
    const described = await backend('reports', reports.describeReport(toAuthContext(req.caller!), path, reportAccess(req.caller!)));
    const data: Record<string, unknown> = {};
    if (part === 'params') {
      for (const p of described.parameters) {
        data[p.name] = {
          display: p.display,
          description: p.description,
          datatype: p.datatype,
          ...(p.hasDefault ? { default: p.default } : {}),
          ...(Object.keys(p.lookupValues).length ? { lookup_values: p.lookupValues } : {}),
          ...(p.aliases.length ? { aliases: p.aliases } : {}),
        };
      }
    } else {
      for (const c of described.columns) data[c.name] = { display: c.display, datatype: c.datatype, visible: c.visible };
    }
    sendAnswer(req, res, { data }, `${part === 'params' ? 'Parameters' : 'Columns'} of ${described.title}`);
  };

  const handler = async (req: Request, res: Response) => {
    const path = ([] as string[]).concat((req.params as { path?: string | string[] }).path ?? []).join('/');
    const described = /^(.+\.xml)\/(params|columns)$/.exec(path);
    if (described) return describe(req, res, described[1], described[2] as 'params' | 'columns');
    if (path.endsWith('.xml')) {
      if (!path.includes('/')) throw new HttpError(404, `Unable to find report ${path}`);
      return runReport(reports, limits, req, res, path);
    }
    return listing(req, res, path);
  };

  return [
    {
      resource: 'reports',
      method: 'get',
      path: '/reports',
      summary: 'The top of the report hierarchy: folders (and the virtual featured folder) with titles, descriptions and links (format=json|html).',
      responses: { 200: 'An object keyed by name of folders and reports' },
      handler: (req, res) => listing(req, res, ''),
    },
    {
      resource: 'reports',
      method: 'get',
      path: '/reports/*path',
      summary:
        'A folder of the hierarchy; <path>.xml runs a report with its parameters in the query string (limit, offset, orderby, sortdir, columns, wantCount, known_count (the count a paging link carries, not counted again), format=json|html|csv|ndjson; a parameter the report does not take is ignored and named in warnings and the Unknown-Parameters header); <path>.xml/params and /columns describe it (format=json|html|csv).',
      parameters: [{ name: 'path', in: 'path', type: 'string', description: 'e.g. library/occurrences/filterable_explore_list.xml', required: true }],
      responses: {
        200: 'A folder listing, {count, paging, warnings?, data} of report rows, or the params/columns description',
        400: 'A missing or invalid parameter',
        403: 'A report the caller may not run',
        404: 'No such folder or report',
      },
      handler,
    },
  ];
}
