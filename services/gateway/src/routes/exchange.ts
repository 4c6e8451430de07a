import type { Request, Response } from 'express';
import { canonicalMoment } from '@rex/dates';
import { toAuthContext } from '../auth/caller.ts';
import type { ReportsClient } from '../clients/reports.ts';
import { HttpError } from '../http-error.ts';
import { sendAnswer } from './answer-format.ts';
import { backend, requestUrl, servicesUrl } from './context.ts';
import type { Parameter, Route } from './route.ts';

const DEPRECATION = { Deprecation: 'true' };

const PARAMETERS: Parameter[] = [
  { name: 'proj_id', in: 'query', type: 'string', description: 'The client connection (project)' },
  { name: 'edited_date_from', in: 'query', type: 'string', description: 'Records edited on or after this date (YYYY-MM-DD, or an ISO 8601 date-time such as 2026-11-22T06:10:58 or 2026-11-22T06:10:58+00:00)' },
  { name: 'edited_date_to', in: 'query', type: 'string', description: 'Records edited on or before this date' },
  { name: 'page', in: 'query', type: 'integer', description: 'Page, from 1' },
  { name: 'page_size', in: 'query', type: 'integer', description: 'Records per page, 1–1000 (default 100)' },
];

function dateParameter(req: Request, name: string, required: boolean): string {
  const value = req.query[name];
  if (value === undefined || value === '') {
    if (required) throw new HttpError(400, `Missing ${name} parameter`);
    return '';
  }
  const moment = typeof value === 'string' ? canonicalMoment(value) : undefined;
  if (moment === undefined) throw new HttpError(400, `Invalid date for ${name} parameter`);
  return moment;
}

function integerParameter(req: Request, name: string, fallback: number, max: number): number {
  const value = req.query[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new HttpError(400, `Invalid ${name} parameter: a whole number from 1 to ${max} is expected`);
  }
  return Number(value);
}

function pageLink(req: Request, resource: string, page: number): string {
  const url = requestUrl(req);
  url.searchParams.set('page', String(page));
  return `${servicesUrl(req)}/rest/${resource}?${url.searchParams.toString()}`;
}

/** taxon-observations, annotations and projects: the deprecated exchange end-points, still served. */
export function exchangeRoutes(reports: ReportsClient, idPrefix: string): Route[] {
  const list = (resource: 'taxon-observations' | 'annotations') => async (req: Request, res: Response) => {
    const page = integerParameter(req, 'page', 1, 1e6);
    const pageSize = integerParameter(req, 'page_size', 100, 1000);
    const request = {
      auth: toAuthContext(req.caller!),
      editedDateFrom: dateParameter(req, 'edited_date_from', resource === 'taxon-observations'),
      editedDateTo: dateParameter(req, 'edited_date_to', false),
      page,
      pageSize,
      idPrefix,
    };
    const answer = await backend('reports', resource === 'taxon-observations' ? reports.listTaxonObservations(request) : reports.listAnnotations(request));
    const paging: Record<string, string> = { self: pageLink(req, resource, page) };
    if (page > 1) paging.previous = pageLink(req, resource, page - 1);
    if (answer.more) paging.next = pageLink(req, resource, page + 1);
    res.set(DEPRECATION);
    sendAnswer(req, res, { paging, data: answer.items.map((item) => shape(req, resource, item.fields)) }, resource);
  };

  const one = (resource: 'taxon-observations' | 'annotations') => async (req: Request, res: Response) => {
    const id = String(req.params.id);
    const request = { auth: toAuthContext(req.caller!), id, page: 1, pageSize: 1, idPrefix };
    const answer = await backend('reports', resource === 'taxon-observations' ? reports.listTaxonObservations(request) : reports.listAnnotations(request));
    if (!answer.items.length) throw new HttpError(404);
    res.set(DEPRECATION);
    sendAnswer(req, res, shape(req, resource, answer.items[0].fields), `${resource} ${id}`);
  };

  /** An annotation points at its observation with an absolute link that keeps the caller's proj_id. */
  function shape(req: Request, resource: string, fields: Record<string, string>): Record<string, unknown> {
    if (resource !== 'annotations') return fields;
    const { taxonObservationId, ...rest } = fields;
    const proj = typeof req.query.proj_id === 'string' ? `?proj_id=${encodeURIComponent(req.query.proj_id)}` : '';
    return { ...rest, taxonObservation: { id: taxonObservationId, href: `${servicesUrl(req)}/rest/taxon-observations/${taxonObservationId}${proj}` } };
  }

  const projects = (req: Request) => {
    const client = req.caller?.client;
    if (!client?.projects || (req.caller!.method !== 'directClient' && req.caller!.method !== 'hmacClient')) throw new HttpError(401, 'Unable to authorise');
    return client.projects;
  };

  const deprecated = ' Deprecated: answers carry a Deprecation header.';
  return [
    {
      resource: 'taxon-observations',
      method: 'get',
      path: '/taxon-observations',
      deprecated: true,
      summary: `Occurrences in the exchange format, oldest edit first, paged; edited_date_from is required.${deprecated}`,
      parameters: PARAMETERS,
      responses: { 200: '{paging: {self, previous?, next?}, data: [...]}', 400: 'A missing or invalid parameter' },
      handler: list('taxon-observations'),
    },
    {
      resource: 'taxon-observations',
      method: 'get',
      path: '/taxon-observations/:id',
      deprecated: true,
      summary: `One taxon-observation by its id (external key, or the configured user_id followed by the occurrence id).${deprecated}`,
      parameters: [{ name: 'id', in: 'path', type: 'string', description: 'Taxon-observation id', required: true }],
      responses: { 200: 'The taxon-observation', 404: 'No such record visible to the caller' },
      handler: one('taxon-observations'),
    },
    {
      resource: 'annotations',
      method: 'get',
      path: '/annotations',
      deprecated: true,
      summary: `Comments on occurrences, including verification decisions, in the exchange format, paged.${deprecated}`,
      parameters: PARAMETERS,
      responses: { 200: '{paging: {self, previous?, next?}, data: [...]}', 400: 'An invalid parameter' },
      handler: list('annotations'),
    },
    {
      resource: 'annotations',
      method: 'get',
      path: '/annotations/:id',
      deprecated: true,
      summary: `One annotation by id.${deprecated}`,
      parameters: [{ name: 'id', in: 'path', type: 'integer', description: 'Annotation id', required: true }],
      responses: { 200: 'The annotation', 404: 'No such annotation visible to the caller' },
      handler: one('annotations'),
    },
    {
      resource: 'projects',
      method: 'get',
      path: '/projects',
      deprecated: true,
      summary: `The authenticated client's projects (directClient and hmacClient only), without internal keys.${deprecated}`,
      responses: { 200: '{data: [...], paging: {self}}', 401: 'Not a client' },
      handler: async (req, res) => {
        const data = projects(req).map((project) => ({ ...project, href: `${servicesUrl(req)}/rest/projects/${project.id}` }));
        res.set(DEPRECATION);
        sendAnswer(req, res, { data, paging: { self: `${servicesUrl(req)}/rest/projects?page=1` } }, 'projects');
      },
    },
    {
      resource: 'projects',
      method: 'get',
      path: '/projects/:id',
      deprecated: true,
      summary: `One of the authenticated client's projects.${deprecated}`,
      parameters: [{ name: 'id', in: 'path', type: 'string', description: 'Project id', required: true }],
      responses: { 200: 'The project', 404: 'No such project' },
      handler: async (req, res) => {
        const project = projects(req).find((p) => p.id === String(req.params.id));
        if (!project) throw new HttpError(404);
        res.set(DEPRECATION);
        sendAnswer(req, res, { ...project, href: `${servicesUrl(req)}/rest/projects/${project.id}` }, `projects ${project.id}`);
      },
    },
  ];
}
