import type { Pool, PoolClient } from '@rex/db';
import type { Visibility } from '../library/types.ts';

export const FEED_ENTITIES = ['sample', 'occurrence', 'location'] as const;
export type FeedEntity = (typeof FEED_ENTITIES)[number];

/** What the feed keeps of an outbox event. */
export type FeedEvent = { entity: string; entity_id: string; operation: string; website_id: string; user_id: string | null; occurred_on: string };

/**
 * Appends the feed's entries for outbox events just applied to the read model, in their order,
 * from the events as the projector read them (not looked up in the outbox again).
 */
export async function appendChanges(client: PoolClient, events: FeedEvent[]): Promise<void> {
  const entries = events.filter((event) => (FEED_ENTITIES as readonly string[]).includes(event.entity));
  if (!entries.length) return;
  const column = <K extends keyof FeedEvent>(key: K) => entries.map((event) => event[key]);
  await client.query(
    `INSERT INTO reports.changes (entity, entity_id, operation, website_id, created_by_id, occurred_on)
     SELECT e.entity, e.entity_id, e.operation || 'd', e.website_id, e.user_id, e.occurred_on
       FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::timestamptz[]) WITH ORDINALITY
            AS e(entity, entity_id, operation, website_id, user_id, occurred_on, n)
      ORDER BY e.n`,
    [column('entity'), column('entity_id'), column('operation'), column('website_id'), column('user_id'), column('occurred_on')],
  );
}

export async function lastChange(db: Pool): Promise<string> {
  const { rows } = await db.query<{ seq: string }>('SELECT coalesce(max(seq), 0)::text AS seq FROM reports.changes');
  return rows[0].seq;
}

export type ChangeRow = { seq: string; entity: FeedEntity; entity_id: string; operation: string; at: string; record: Record<string, unknown> | null; tombstone_visible: boolean };

const TABLES: Record<FeedEntity, { table: string; alias: string }> = {
  occurrence: { table: 'reports.occurrences', alias: 'o' },
  sample: { table: 'reports.samples', alias: 's' },
  location: { table: 'reports.locations', alias: 'l' },
};

/** `$n` placeholders of a visibility moved past the parameters already bound. */
function shifted(visibility: Visibility, values: unknown[]): string {
  const offset = values.length;
  values.push(...visibility.values);
  return visibility.sql.trim() === '' ? 'TRUE' : visibility.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
}

/**
 * The feed after `after`, up to `limit + 1` entries, each with the record as
 * the caller may see it now (`record`, null when it is gone or hidden) and,
 * for a deletion, whether the caller could have seen the record: an
 * occurrence by its deleted row in the read model, a sample or location (gone
 * from it) by the website and writer the feed kept.
 */
export async function changesAfter(
  db: Pool,
  after: string,
  limit: number,
  entities: FeedEntity[],
  visibility: { live: Record<FeedEntity, Visibility>; deleted: Record<FeedEntity, Visibility> },
): Promise<ChangeRow[]> {
  const values: unknown[] = [after, entities, limit + 1];
  const record = (entity: FeedEntity) => {
    const { table, alias } = TABLES[entity];
    const deleted = entity === 'occurrence' ? ` AND NOT ${alias}.deleted` : '';
    return `(SELECT to_jsonb(${alias}) FROM ${table} ${alias} WHERE ${alias}.id = c.entity_id${deleted} AND (${shifted(visibility.live[entity], values)}))`;
  };
  const tombstone = (entity: FeedEntity) => {
    const { table, alias } = TABLES[entity];
    if (entity === 'occurrence') return `EXISTS (SELECT 1 FROM ${table} ${alias} WHERE ${alias}.id = c.entity_id AND (${shifted(visibility.deleted[entity], values)}))`;
    return `EXISTS (SELECT 1 FROM (SELECT c.website_id, c.created_by_id, false AS public) ${alias} WHERE ${shifted(visibility.deleted[entity], values)})`;
  };
  const { rows } = await db.query<ChangeRow>(
    `SELECT c.seq::text, c.entity, c.entity_id::text, c.operation, to_char(c.occurred_on AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
            CASE c.entity ${FEED_ENTITIES.map((entity) => `WHEN '${entity}' THEN ${record(entity)}`).join(' ')} END AS record,
            CASE WHEN c.operation <> 'deleted' THEN false ${FEED_ENTITIES.map((entity) => `WHEN c.entity = '${entity}' THEN ${tombstone(entity)}`).join(' ')} END AS tombstone_visible
       FROM reports.changes c
      WHERE c.seq > $1::bigint AND c.entity = ANY($2::text[])
      ORDER BY c.seq LIMIT $3`,
    values,
  );
  return rows;
}
