import type { Request } from 'express';
import { fromJsonValues, type Change__Output } from '@rex/protos';
import { toAuthContext } from '../auth/caller.ts';
import type { ReportsClient } from '../clients/reports.ts';
import { HttpError } from '../http-error.ts';
import { backend } from './context.ts';
import type { Route } from './route.ts';

const ENTITIES: Record<string, string> = { samples: 'sample', sample: 'sample', occurrences: 'occurrence', occurrence: 'occurrence', locations: 'location', location: 'location' };
const MAX_WAIT_S = 30;

function whole(req: Request, name: string, min: number, max: number, fallback: number): number {
  const value = req.query[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d{1,6}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new HttpError(400, `Invalid ${name} parameter: a whole number from ${min} to ${max} is expected`);
  }
  return Number(value);
}

function entitiesOf(req: Request): string[] {
  const value = req.query.entities;
  if (value === undefined || value === '') return [];
  if (typeof value !== 'string') throw new HttpError(400, 'Invalid entities parameter: a comma-separated list is expected');
  return [
    ...new Set(
      value.split(',').map((name) => {
        const entity = Object.hasOwn(ENTITIES, name.trim()) ? ENTITIES[name.trim()] : undefined;
        if (!entity) throw new HttpError(400, `Invalid entities parameter: ${name.trim().slice(0, 50)} is not one of samples, occurrences, locations`);
        return entity;
      }),
    ),
  ];
}

/** A change as the feed's clients see it (and webhooks deliver it): values as strings or null, none for a deletion. */
export type FeedChange = { cursor: string; entity: string; id: string; operation: string; at: string; values?: Record<string, string | null> };

export function feedChange(change: Change__Output): FeedChange {
  return {
    cursor: change.cursor,
    entity: change.entity,
    id: change.id,
    operation: change.operation,
    at: change.at,
    ...(change.operation === 'deleted' ? {} : { values: Object.fromEntries(Object.entries(fromJsonValues(change.values)).map(([key, value]) => [key, typeof value === 'string' ? value : null])) }),
  };
}

/**
 * GET /changes: the records a caller may see, as they change, in commit order
 * from an opaque cursor (served by reports from its read model). Users read
 * their own records, websites their records and those shared with them, client
 * connections only when their operator allows it (allow_change_feed).
 */
export function changeRoutes(reports: ReportsClient, deadlineMs: number): Route[] {
  return [
    {
      resource: 'changes',
      method: 'get',
      path: '/changes',
      summary:
        'The change feed: the records the caller may see, as they change, oldest first, from a cursor. Users read their own records, websites theirs and those shared with them, client connections when allowed (allow_change_feed).',
      parameters: [
        { name: 'cursor', in: 'query', type: 'string', description: 'Where to go on from: a cursor or next_cursor of an earlier answer (omitted: from now)' },
        { name: 'from', in: 'query', type: 'string', description: '"beginning": the whole visible history, paged (when no cursor is given)' },
        { name: 'limit', in: 'query', type: 'integer', description: 'Changes per answer, 1–1000 (default 100)' },
        { name: 'entities', in: 'query', type: 'string', description: 'samples, occurrences, locations, comma-separated (default all)' },
        { name: 'wait', in: 'query', type: 'integer', description: 'Long poll: seconds (≤ 30) to wait for a change when there is none yet' },
      ],
      responses: {
        200: '{changes: [{cursor, entity, id, operation: created|updated|deleted, at, values}], next_cursor, has_more}; values is the record as the caller may see it, absent for a deletion',
        400: 'A bad cursor, limit, entities, from or wait',
        403: 'A client connection not allowed the change feed',
      },
      handler: async (req, res) => {
        const caller = req.caller!;
        if (caller.client && !caller.client.allowChangeFeed) throw new HttpError(403, 'This connection may not read the change feed (allow_change_feed).');
        const from = req.query.from;
        if (from !== undefined && from !== 'beginning') throw new HttpError(400, 'Invalid from parameter: only "beginning" is known');
        const cursor = req.query.cursor;
        if (cursor !== undefined && typeof cursor !== 'string') throw new HttpError(400, 'Invalid cursor parameter');
        const wait = whole(req, 'wait', 0, MAX_WAIT_S, 0);
        const request = {
          auth: toAuthContext(caller),
          cursor: cursor ?? '',
          fromBeginning: from === 'beginning',
          limit: whole(req, 'limit', 1, 1000, 100),
          entities: entitiesOf(req),
          waitMs: wait * 1000,
          ownOnly: caller.entity === 'user',
        };
        const answer = await backend('reports', reports.listChanges(request, deadlineMs + wait * 1000));
        res.json({
          changes: answer.changes.map(feedChange),
          next_cursor: answer.nextCursor,
          has_more: answer.hasMore,
        });
      },
    },
  ];
}
