import type { Request } from 'express';
import { isRecordId } from '@rex/protos';
import { fromJsonValues, type AuthContext, type JsonValues__Output, type SavedRecord__Output, type Submission } from '@rex/protos';
import { toAuthContext } from '../auth/caller.ts';
import { envelope, toSubmission } from '../envelope.ts';
import { HttpError } from '../http-error.ts';
import { API_PARAMETERS, backend, requestUrl, servicesUrl } from './context.ts';
import type { Parameter, Route } from './route.ts';
import { sendJson, sendJsonText, valuesObjectText } from './json-answer.ts';

/** Entity tags of If-Match / If-None-Match, unquoted (weak tags compare as strong: versions are exact). */
export function entityTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1'))
    .filter(Boolean);
}

const etag = (version: string) => `"${version}"`;

function idempotencyKey(req: Request): string {
  const key = req.get('idempotency-key');
  if (key === undefined) return '';
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw new HttpError(400, 'Idempotency-Key must be 1 to 255 visible characters.');
  return key;
}

/** Query parameters that are not field filters of a list. */
const LIST_CONTROLS = new Set(['limit', 'offset', ...API_PARAMETERS]);

/** `limit` (1–1000, default 100) and `offset` (≥ 0) of a list request; anything else is a 400. */
export function paging(query: Record<string, unknown>): { limit: number; offset: number } {
  const read = (name: string, fallback: number, min: number, max: number) => {
    const raw = query[name];
    if (raw === undefined) return fallback;
    if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw new HttpError(400, `Invalid ${name} parameter: a whole number from ${min} to ${max} is expected.`);
    }
    return Number(raw);
  };
  return { limit: read('limit', 100, 1, 1000), offset: read('offset', 0, 0, 1e9) };
}

/** The URL of the next page: the same query with the offset moved on. */
function nextPage(req: Request, limit: number, offset: number): string {
  const url = requestUrl(req);
  url.searchParams.set('offset', String(offset + limit));
  url.searchParams.set('limit', String(limit));
  return url.toString();
}

function recordId(req: Request): string {
  const id = String(req.params.id);
  if (!isRecordId(id)) throw new HttpError(404);
  return id;
}

type Values = JsonValues__Output | null;

/** Custom attributes in detail, keyed as in values: each stored value's fields. */
type AttributeDetails = Record<string, { multiValue: boolean; values: { values: Values }[] }>;

/** `?verbose`: each attribute's values as objects, a list of them for a multi-value attribute. */
function verboseAttributes(attributes: AttributeDetails): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, details] of Object.entries(attributes)) {
    const objects = details.values.map((value) => fromJsonValues(value.values));
    out[key] = details.multiValue ? objects : objects[0];
  }
  return out;
}

const verboseParameter: Parameter = {
  name: 'verbose',
  in: 'query',
  type: 'string',
  description: 'When present (any value), each custom attribute value is an object: attribute_id, value_id, caption, data_type, multi_value, value, raw_value, upper_value (a list of them for a multi-value attribute)',
};

/** How the records service serves one resource. */
export type RecordCalls = {
  list: (auth: AuthContext, filters: Record<string, string>, limit: number, offset: number) => Promise<{ rows: { values: Values }[]; more: boolean }>;
  create: (auth: AuthContext, submission: Submission, idempotencyKey: string) => Promise<{ saved: SavedRecord__Output | null }>;
  get: (
    auth: AuthContext,
    id: string,
    verbose: boolean,
  ) => Promise<{ values: Values; version: string; attributes?: AttributeDetails; associations?: { values: Values }[] }>;
  update: (auth: AuthContext, id: string, submission: Submission, ifMatch: string[]) => Promise<{ saved: SavedRecord__Output | null }>;
  remove: (auth: AuthContext, id: string, ifMatch: string[]) => Promise<unknown>;
  /** Several records in one request (`POST /<resource>/list`), saved all or none. */
  createMany?: (auth: AuthContext, submissions: Submission[], idempotencyKey: string) => Promise<{ saved: SavedRecord__Output[] }>;
};

/**
 * The five routes of a record resource owned by its creator (samples,
 * occurrences): a paged list with equality filters, create with Location,
 * ETag and Idempotency-Key, read with If-None-Match, update and delete with
 * If-Match.
 */
export function recordResourceRoutes(spec: {
  resource: string;
  entity: string;
  noun: string;
  calls: RecordCalls;
  /** GET of one record takes `?verbose`: custom attribute values in detail. */
  verbose?: boolean;
  /** Checks before a create reaches the service. */
  beforeCreate?: (req: Request) => void;
  listSummary: string;
  createSummary: string;
  listFilterExample: Parameter;
  createResponses: Record<number, string>;
}): Route[] {
  const { resource, entity, noun, calls } = spec;
  const idParameter: Parameter = { name: 'id', in: 'path', type: 'integer', description: `${noun[0].toUpperCase()}${noun.slice(1)} id`, required: true };
  const auth = (req: Request) => toAuthContext(req.caller!);
  return [
    {
      resource,
      method: 'get',
      path: `/${resource}`,
      summary: spec.listSummary,
      parameters: [
        { name: 'limit', in: 'query', type: 'integer', description: 'Rows per page, 1–1000 (default 100)' },
        { name: 'offset', in: 'query', type: 'integer', description: 'Rows to skip (default 0)' },
        spec.listFilterExample,
      ],
      responses: { 200: 'A JSON array of {"values": {...}}; a Link header with rel="next" when more rows follow', 400: 'A bad filter or paging value' },
      handler: async (req, res) => {
        const { limit, offset } = paging(req.query);
        const filters: Record<string, string> = {};
        for (const [key, value] of Object.entries(req.query)) if (!LIST_CONTROLS.has(key) && typeof value === 'string') filters[key] = value;
        const page = await backend('records', calls.list(auth(req), filters, limit, offset));
        if (page.more) res.set('Link', `<${nextPage(req, limit, offset)}>; rel="next"`);
        sendJsonText(req, res, `[${page.rows.map((row) => valuesObjectText(row.values)).join(',')}]`);
      },
    },
    {
      resource,
      method: 'post',
      path: `/${resource}`,
      summary: spec.createSummary,
      submission: true,
      responses: spec.createResponses,
      handler: async (req, res) => {
        spec.beforeCreate?.(req);
        const { saved } = await backend('records', calls.create(auth(req), toSubmission(entity, req.body), idempotencyKey(req)));
        const body = envelope(saved!, servicesUrl(req));
        if (saved!.replayed) res.set('Idempotent-Replayed', 'true');
        res.location(body.href as string).set('ETag', etag(saved!.version));
        sendJson(req, res, body, 201);
      },
    },
    {
      resource,
      method: 'get',
      path: `/${resource}/:id`,
      summary: `Read one of the authenticated user's ${resource}.`,
      parameters: spec.verbose ? [idParameter, verboseParameter] : [idParameter],
      responses: { 200: `The ${noun}: values holds every field as a string or null; ETag its version`, 304: 'Not modified (If-None-Match)', 403: `Another user's ${noun}`, 404: `No such ${noun}` },
      handler: async (req, res) => {
        const verbose = Boolean(spec.verbose) && req.query.verbose !== undefined;
        const { values, version, attributes, associations } = await backend('records', calls.get(auth(req), recordId(req), verbose));
        res.set('ETag', etag(version));
        const held = entityTags(req.get('if-none-match'));
        if (held.includes(version) || held.includes('*')) {
          res.status(304).end();
          return;
        }
        if (!verbose) {
          sendJsonText(req, res, valuesObjectText(values));
          return;
        }
        const body: Record<string, unknown> = { values: { ...fromJsonValues(values), ...verboseAttributes(attributes ?? {}) } };
        if (associations) body.associations = associations.map((association) => fromJsonValues(association.values));
        sendJson(req, res, body);
      },
    },
    {
      resource,
      method: 'put',
      path: `/${resource}/:id`,
      summary: `Update one of the authenticated user's ${resource}; send only the values that change.`,
      parameters: [idParameter],
      submission: true,
      responses: {
        200: 'Updated: values and href; ETag the new version',
        400: 'Validation failed',
        403: `Another user's ${noun}`,
        404: `No such ${noun}`,
        409: 'A duplicate external_key',
        412: 'If-Match does not hold the current version',
      },
      handler: async (req, res) => {
        const id = recordId(req);
        const { saved } = await backend('records', calls.update(auth(req), id, toSubmission(entity, req.body), entityTags(req.get('if-match'))));
        res.set('ETag', etag(saved!.version));
        sendJson(req, res, envelope(saved!, servicesUrl(req)));
      },
    },
    {
      resource,
      method: 'delete',
      path: `/${resource}/:id`,
      summary: `Delete one of the authenticated user's ${resource}.`,
      parameters: [idParameter],
      responses: { 204: 'Deleted; no body', 403: `Another user's ${noun}`, 404: `No such ${noun}`, 412: 'If-Match does not hold the current version' },
      handler: async (req, res) => {
        await backend('records', calls.remove(auth(req), recordId(req), entityTags(req.get('if-match'))));
        res.status(204).end();
      },
    },
    ...(calls.createMany ? [createManyRoute(resource, entity, calls.createMany, spec.beforeCreate)] : []),
  ];
}

/** `POST /<resource>/list`: a JSON array of submissions, all saved or none; 201 with an array of envelopes. */
function createManyRoute(resource: string, entity: string, createMany: NonNullable<RecordCalls['createMany']>, beforeCreate?: (req: Request) => void): Route {
  return {
    resource,
    method: 'post',
    path: `/${resource}/list`,
    summary: `Create several ${resource} from a JSON array of submissions, in one transaction: all are saved, or none (errors are keyed <index>/<entity>:<field>).`,
    submission: true,
    responses: { 201: 'Created: a JSON array of {values, href, ...}, in the order submitted', 400: 'Not an array, or validation failed for an item' },
    handler: async (req, res) => {
      if (!Array.isArray(req.body)) throw new HttpError(400, { [`${entity}:values`]: `The body must be a JSON array of ${resource}.` });
      beforeCreate?.(req);
      const submissions = req.body.map((item: unknown) => toSubmission(entity, item));
      const { saved } = await backend('records', createMany(toAuthContext(req.caller!), submissions, idempotencyKey(req)));
      if (saved.some((record) => record.replayed)) res.set('Idempotent-Replayed', 'true');
      sendJson(req, res, saved.map((record) => envelope(record, servicesUrl(req))), 201);
    },
  };
}
