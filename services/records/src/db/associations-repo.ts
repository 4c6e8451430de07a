import type { Pool, PoolClient } from '@rex/db';
import type { Value } from '../domain/values.ts';

/** Which of `ids` are live occurrences the user created in the website. */
export async function ownOccurrences(db: Pool | PoolClient, ids: string[], websiteId: string, userId: string): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const { rows } = await db.query<{ id: string }>(
    'SELECT id::text FROM records.occurrences WHERE id = ANY($1::bigint[]) AND website_id = $2 AND created_by_id = $3 AND NOT deleted',
    [ids, websiteId, userId],
  );
  return new Set(rows.map((row) => row.id));
}

/** The live associations from or to an occurrence whose two ends are both live. */
export async function associationsOf(db: Pool, occurrenceId: string): Promise<Record<string, Value>[]> {
  const { rows } = await db.query<Record<string, Value>>(
    `SELECT a.id::text, a.from_occurrence_id::text, a.to_occurrence_id::text, a.association_type_id::text, a.comment
       FROM records.occurrence_associations a
       JOIN records.occurrences f ON f.id = a.from_occurrence_id AND NOT f.deleted
       JOIN records.occurrences t ON t.id = a.to_occurrence_id AND NOT t.deleted
      WHERE (a.from_occurrence_id = $1 OR a.to_occurrence_id = $1) AND NOT a.deleted
      ORDER BY a.id`,
    [occurrenceId],
  );
  return rows;
}
