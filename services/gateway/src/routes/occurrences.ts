import type { Request } from 'express';
import { toAuthContext } from '../auth/caller.ts';
import type { RecordsClient } from '../clients/records.ts';
import { envelope, fromFieldValues, toSubmission } from '../envelope.ts';
import { HttpError } from '../http-error.ts';
import { backend, servicesUrl } from './context.ts';
import type { Parameter, Route } from './route.ts';
import { LIST_CONTROLS, entityTags, etag, idempotencyKey, nextPage, paging } from './samples.ts';

const ID_PARAMETER: Parameter = { name: 'id', in: 'path', type: 'integer', description: 'Occurrence id', required: true };

function occurrenceId(req: Request): string {
  const id = String(req.params.id);
  if (!/^[1-9]\d{0,17}$/.test(id)) throw new HttpError(404);
  return id;
}

/** /occurrences and /occurrences/:id, forwarded to the records service. */
export function occurrenceRoutes(records: RecordsClient): Route[] {
  return [
    {
      resource: 'occurrences',
      method: 'get',
      path: '/occurrences',
      summary: "List the authenticated user's occurrences, oldest first; any occurrence field given as a parameter filters by equality.",
      parameters: [
        { name: 'limit', in: 'query', type: 'integer', description: 'Rows per page, 1–1000 (default 100)' },
        { name: 'offset', in: 'query', type: 'integer', description: 'Rows to skip (default 0)' },
        { name: 'sample_id', in: 'query', type: 'integer', description: 'Only occurrences of this sample (any field works the same way)' },
      ],
      responses: { 200: 'A JSON array of {"values": {...}}; a Link header with rel="next" when more rows follow', 400: 'A bad filter or paging value' },
      handler: async (req, res) => {
        const { limit, offset } = paging(req.query);
        const filters: Record<string, string> = {};
        for (const [key, value] of Object.entries(req.query)) if (!LIST_CONTROLS.has(key) && typeof value === 'string') filters[key] = value;
        const page = await backend('records', records.listOccurrences(toAuthContext(req.caller!), filters, limit, offset));
        if (page.more) res.set('Link', `<${nextPage(req, limit, offset)}>; rel="next"`);
        res.json(page.occurrences.map((occurrence) => ({ values: fromFieldValues(occurrence.values) })));
      },
    },
    {
      resource: 'occurrences',
      method: 'post',
      path: '/occurrences',
      summary: "Create an occurrence in one of the authenticated user's samples (values.sample_id).",
      submission: true,
      responses: { 201: 'Created; Location and ETag', 400: 'Validation failed, or the sample is not the caller’s', 409: 'The Idempotency-Key was used for a different submission' },
      handler: async (req, res) => {
        const { saved } = await backend('records', records.createOccurrence(toAuthContext(req.caller!), toSubmission('occurrence', req.body), idempotencyKey(req)));
        const body = envelope(saved!, servicesUrl(req));
        if (saved!.replayed) res.set('Idempotent-Replayed', 'true');
        res.status(201).location(body.href as string).set('ETag', etag(saved!.version)).json(body);
      },
    },
    {
      resource: 'occurrences',
      method: 'get',
      path: '/occurrences/:id',
      summary: "Read one of the authenticated user's occurrences.",
      parameters: [ID_PARAMETER],
      responses: { 200: 'The occurrence; ETag its version', 304: 'Not modified (If-None-Match)', 403: "Another user's occurrence", 404: 'No such occurrence' },
      handler: async (req, res) => {
        const { values, version } = await backend('records', records.getOccurrence(toAuthContext(req.caller!), occurrenceId(req)));
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
      resource: 'occurrences',
      method: 'put',
      path: '/occurrences/:id',
      summary: "Update one of the authenticated user's occurrences; send only the values that change.",
      parameters: [ID_PARAMETER],
      submission: true,
      responses: { 200: 'Updated: values and href; ETag the new version', 400: 'Validation failed', 403: "Another user's occurrence", 404: 'No such occurrence', 412: 'If-Match does not hold the current version' },
      handler: async (req, res) => {
        const id = occurrenceId(req);
        const { saved } = await backend(
          'records',
          records.updateOccurrence(toAuthContext(req.caller!), id, toSubmission('occurrence', req.body), entityTags(req.get('if-match'))),
        );
        res.set('ETag', etag(saved!.version)).json(envelope(saved!, servicesUrl(req)));
      },
    },
    {
      resource: 'occurrences',
      method: 'delete',
      path: '/occurrences/:id',
      summary: "Delete one of the authenticated user's occurrences.",
      parameters: [ID_PARAMETER],
      responses: { 204: 'Deleted; no body', 403: "Another user's occurrence", 404: 'No such occurrence', 412: 'If-Match does not hold the current version' },
      handler: async (req, res) => {
        await backend('records', records.deleteOccurrence(toAuthContext(req.caller!), occurrenceId(req), entityTags(req.get('if-match'))));
        res.status(204).end();
      },
    },
  ];
}
