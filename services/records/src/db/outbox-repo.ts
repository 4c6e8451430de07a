import type { PoolClient } from '@rex/db';

// The outbox: one row per change of a record, in commit order, for the
// reports projector (docs/decisions/0005). Every write to it is made here.

/**
 * The one INSERT of outbox rows from a SELECT of entity, entity id, operation,
 * website id, survey id and user id; for a statement that writes the records
 * and their events together.
 */
export const insertOutboxRows = (rows: string): string =>
  `INSERT INTO records.outbox (entity, entity_id, operation, website_id, survey_id, user_id) ${rows}`;

export type OutboxEvent = {
  entity: string;
  entityId: string;
  operation: 'create' | 'update' | 'delete';
  websiteId: string;
  surveyId: string | null;
  userId: string | null;
};

export async function writeOutbox(client: PoolClient, events: OutboxEvent[]): Promise<void> {
  if (!events.length) return;
  await client.query(
    insertOutboxRows('SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])'),
    [
      events.map((e) => e.entity),
      events.map((e) => e.entityId),
      events.map((e) => e.operation),
      events.map((e) => e.websiteId),
      events.map((e) => e.surveyId),
      events.map((e) => e.userId),
    ],
  );
}
