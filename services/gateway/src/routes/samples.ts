import type { Request } from 'express';
import { toAuthContext } from '../auth/caller.ts';
import type { RecordsClient } from '../clients/records.ts';
import { envelope, fromFieldValues, toSubmission } from '../envelope.ts';
import { HttpError } from '../http-error.ts';
import { backend, servicesUrl } from './context.ts';
import type { Parameter, Route } from './route.ts';

const ID = /^[1-9]\d{0,17}$/;
const ID_PARAMETER: Parameter = { name: 'id', in: 'path', type: 'integer', description: 'Sample id', required: true };

function sampleId(req: Request): string {
  const id = String(req.params.id);
  if (!ID.test(id)) throw new HttpError(404);
  return id;
}

/** Entity tags of If-Match / If-None-Match, unquoted (weak tags compare as strong: versions are exact). */
export function entityTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1'))
    .filter(Boolean);
}

export const etag = (version: string) => `"${version}"`;

export function idempotencyKey(req: Request): string {
  const key = req.get('idempotency-key');
  if (key === undefined) return '';
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw new HttpError(400, 'Idempotency-Key must be 1 to 255 visible characters.');
  return key;
}

function requireUserForPost(req: Request): void {
  const caller = req.caller!;
  if (!caller.userId && !caller.mayPostAnonymously) {
    throw new HttpError(400, { 'sample:created_by_id': 'Cannot POST without user authentication.' });
  }
}

/** Query parameters that are not field filters of a list. */
export const LIST_CONTROLS = new Set(['limit', 'offset', 'scope', 'format', 'proj_id', 'user', 'user_id', 'website_id', 'secret']);

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
export function nextPage(req: Request, limit: number, offset: number): string {
  const url = new URL(`${req.protocol}://${req.get('host')}${req.originalUrl}`);
  url.searchParams.set('offset', String(offset + limit));
  url.searchParams.set('limit', String(limit));
  return url.toString();
}

/** /samples and /samples/:id, forwarded to the records service. */
export function sampleRoutes(records: RecordsClient): Route[] {
  return [
    {
      resource: 'samples',
      method: 'get',
      path: '/samples',
      summary:
        "List the authenticated user's samples (in this website, or in every website with scope=user), oldest first; " +
        'any sample field given as a parameter filters by equality.',
      parameters: [
        { name: 'limit', in: 'query', type: 'integer', description: 'Rows per page, 1–1000 (default 100)' },
        { name: 'offset', in: 'query', type: 'integer', description: 'Rows to skip (default 0)' },
        { name: 'survey_id', in: 'query', type: 'integer', description: 'Only samples of this survey (any sample field works the same way)' },
      ],
      responses: { 200: 'A JSON array of {"values": {...}}; a Link header with rel="next" when more rows follow', 400: 'A bad filter or paging value' },
      handler: async (req, res) => {
        const { limit, offset } = paging(req.query);
        const filters: Record<string, string> = {};
        for (const [key, value] of Object.entries(req.query)) {
          if (!LIST_CONTROLS.has(key) && typeof value === 'string') filters[key] = value;
        }
        const page = await backend('records', records.listSamples(toAuthContext(req.caller!), filters, limit, offset));
        if (page.more) res.set('Link', `<${nextPage(req, limit, offset)}>; rel="next"`);
        res.json(page.samples.map((sample) => ({ values: fromFieldValues(sample.values) })));
      },
    },
    {
      resource: 'samples',
      method: 'post',
      path: '/samples',
      summary: 'Create a sample with nested occurrences, child samples and custom attribute values, in one transaction.',
      submission: true,
      responses: {
        201: 'Created; Location names the new sample, ETag its version. With an Idempotency-Key header, a retry of the same submission answers the same (Idempotent-Replayed: true) and writes nothing',
        400: 'Validation failed; message maps <entity>:<field> to the problem',
        409: 'external_key is already used by another sample of the website (duplicate_of names it), or the Idempotency-Key was used for a different submission',
      },
      handler: async (req, res) => {
        requireUserForPost(req);
        const { saved } = await backend('records', records.createSample(toAuthContext(req.caller!), toSubmission('sample', req.body), idempotencyKey(req)));
        const body = envelope(saved!, servicesUrl(req));
        if (saved!.replayed) res.set('Idempotent-Replayed', 'true');
        res.status(201).location(body.href as string).set('ETag', etag(saved!.version)).json(body);
      },
    },
    {
      resource: 'samples',
      method: 'get',
      path: '/samples/:id',
      summary: "Read one of the authenticated user's samples.",
      parameters: [ID_PARAMETER],
      responses: { 200: 'The sample: values holds every field as a string or null; ETag its version', 304: 'Not modified (If-None-Match)', 403: "Another user's sample", 404: 'No such sample' },
      handler: async (req, res) => {
        const { values, version } = await backend('records', records.getSample(toAuthContext(req.caller!), sampleId(req)));
        res.set('ETag', etag(version));
        const held = entityTags(req.get('if-none-match'));
        if (held.includes(version) || held.includes('*')) {
          res.status(304).end();
          return;
        }
        res.json({ values: fromFieldValues(values) });
      },
    },
    {
      resource: 'samples',
      method: 'put',
      path: '/samples/:id',
      summary: "Update one of the authenticated user's samples; send only the values that change.",
      parameters: [ID_PARAMETER],
      submission: true,
      responses: { 200: 'Updated: values and href; ETag the new version', 400: 'Validation failed', 403: "Another user's sample", 404: 'No such sample', 409: 'Duplicate external_key', 412: 'If-Match does not hold the current version' },
      handler: async (req, res) => {
        const id = sampleId(req);
        const { saved } = await backend(
          'records',
          records.updateSample(toAuthContext(req.caller!), id, toSubmission('sample', req.body), entityTags(req.get('if-match'))),
        );
        res.set('ETag', etag(saved!.version)).json(envelope(saved!, servicesUrl(req)));
      },
    },
    {
      resource: 'samples',
      method: 'delete',
      path: '/samples/:id',
      summary: "Delete one of the authenticated user's samples with its child samples and occurrences.",
      parameters: [ID_PARAMETER],
      responses: { 204: 'Deleted; no body', 403: "Another user's sample", 404: 'No such sample', 412: 'If-Match does not hold the current version' },
      handler: async (req, res) => {
        await backend('records', records.deleteSample(toAuthContext(req.caller!), sampleId(req), entityTags(req.get('if-match'))));
        res.status(204).end();
      },
    },
  ];
}
