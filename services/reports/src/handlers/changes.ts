import type { Pool } from '@rex/db';
import { currentCall, forbidden, invalid, type Handlers } from '@rex/grpc';
import { toJsonValues, type ReportsServiceHandlers } from '@rex/protos';
import { cellText } from '../domain/report-values.ts';
import { decodeCursor, encodeCursor } from '../domain/change-cursor.ts';
import type { ChangeSignal } from '../domain/change-signal.ts';
import { NotAllowedError, visibilityFor } from '../domain/visibility.ts';
import { FEED_ENTITIES, changesAfter, lastChange, type ChangeRow, type FeedEntity } from '../db/changes-repo.ts';
import type { ReportTable } from '../library/types.ts';
const MAX_LIMIT = 1000;
const MAX_WAIT_MS = 30_000;
const TABLE: Record<FeedEntity, ReportTable> = { sample: 'samples', occurrence: 'occurrences', location: 'locations' };
// Read-model columns that are not part of a record as others see it.
const INTERNAL = new Set(['deleted', 'bbox_xmin', 'bbox_ymin', 'bbox_xmax', 'bbox_ymax']);

/** A read-model row as the feed's values: every field as a string or null, as the rest of the API gives them. */
function fieldValues(record: Record<string, unknown>) {
  const values: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(record)) {
    if (!INTERNAL.has(key)) values[key] = cellText(value);
  }
  return toJsonValues(values);
}

function toChange(row: ChangeRow) {
  if (row.operation === 'deleted') return row.tombstone_visible ? { cursor: encodeCursor(row.seq), entity: row.entity, id: row.entity_id, operation: 'deleted', at: row.at, values: null } : undefined;
  // A record gone since, or hidden from the caller now, is left out; a later entry tells of its deletion.
  if (!row.record) return undefined;
  return { cursor: encodeCursor(row.seq), entity: row.entity, id: row.entity_id, operation: row.operation, at: row.at, values: fieldValues(row.record) };
}

/**
 * The change feed, read from the read model in the order the projector
 * applied the outbox: each change with the record as the caller may see it
 * (the reports' visibility rules), tombstones for deletions.
 */
export function changeHandlers(db: Pool, signal: ChangeSignal): Pick<Handlers<ReportsServiceHandlers>, 'ListChanges'> {
  return {
    ListChanges: async (request) => {
      const limit = Math.min(Math.max(request.limit || 100, 1), MAX_LIMIT);
      const unknown = request.entities.filter((entity) => !(FEED_ENTITIES as readonly string[]).includes(entity));
      if (unknown.length) throw invalid({ 'changes:entities': `Unknown entities ${unknown.join(', ')}: give samples, occurrences or locations.` });
      const entities = (request.entities.length ? request.entities : FEED_ENTITIES) as FeedEntity[];
      const visibility = { live: {} as Record<FeedEntity, ReturnType<typeof visibilityFor>>, deleted: {} as Record<FeedEntity, ReturnType<typeof visibilityFor>> };
      try {
        for (const entity of FEED_ENTITIES) {
          visibility.live[entity] = visibilityFor(TABLE[entity], request.auth, request.ownOnly);
          visibility.deleted[entity] = visibilityFor(TABLE[entity], request.auth, request.ownOnly, { includeDeleted: true });
        }
      } catch (error) {
        if (error instanceof NotAllowedError) throw forbidden(error.message);
        throw error;
      }
      let after: string;
      if (request.cursor) {
        const decoded = decodeCursor(request.cursor);
        if (decoded === undefined) throw invalid({ 'changes:cursor': 'Not a cursor of this feed: give back a cursor or next_cursor from an earlier answer.' });
        after = decoded;
      } else {
        after = request.fromBeginning ? '0' : await lastChange(db);
      }
      const call = currentCall();
      const deadline = Date.now() + Math.min(Math.max(request.waitMs, 0), MAX_WAIT_MS);
      for (;;) {
        const rows = await changesAfter(db, after, limit, entities, visibility);
        const page = rows.slice(0, limit);
        const hasMore = rows.length > limit;
        const changes = page.flatMap((row) => toChange(row) ?? []);
        if (page.length) after = page[page.length - 1].seq;
        if (changes.length || hasMore || Date.now() >= deadline || call?.ended || signal.closed) return { changes, nextCursor: encodeCursor(after), hasMore };
        await signal.wait(Math.min(deadline - Date.now(), 1_000), call && ((listener) => call.onEnd(listener)));
      }
    },
  };
}
