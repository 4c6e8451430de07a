import type { Pool, PoolClient } from '@rex/db';
import { MEDIA } from '../domain/media.ts';
import { sharedPerPool } from './shared-query.ts';

/** The sequences a write takes its new records' ids from, in the order of `IdCounts`. */
export const SEQUENCES = [
  'records.samples_id_seq',
  'records.occurrences_id_seq',
  'records.locations_id_seq',
  MEDIA.sample.sequence,
  MEDIA.occurrence.sequence,
  MEDIA.location.sequence,
  'records.occurrence_associations_id_seq',
] as const;

/** How many ids a write needs from each of SEQUENCES. */
export type IdCounts = number[];

/**
 * Each count is read in a subquery: given as a value, PostgreSQL plans generate_series for the
 * number of rows it asks, estimates a thousand in a plan made for any count, and so plans the
 * statement anew at every call (more time than it takes to run). As a subquery's value the count
 * is unknown to both plans, and the statement is planned once per connection.
 */
const ALLOCATE = {
  name: 'allocate-ids',
  text: `SELECT ${SEQUENCES.map((sequence, i) => `ARRAY(SELECT nextval('${sequence}')::text FROM generate_series(1, (SELECT $${i + 1}::int))) AS ids${i}`).join(', ')}`,
};

/** Takes `counts` ids from the sequences in one query; the ids of each sequence in ascending order. */
export async function takeIds(db: Pick<Pool, 'query'> | PoolClient, counts: IdCounts): Promise<string[][]> {
  const { rows } = await db.query<Record<string, string[]>>({ ...ALLOCATE, values: counts });
  return SEQUENCES.map((_, i) => rows[0][`ids${i}`]);
}

/**
 * Ids for a write on `pool`. A write asks for its ids before it inserts (a round trip to
 * PostgreSQL, then its statement); writes asking at about the same time share one query (see
 * SharedQuery), each getting ids of its own in the order the writes asked. No id is lost unless
 * the query fails.
 */
export const takeSharedIds = sharedPerPool<IdCounts, string[][]>(async (pool, writes) => {
  const ids = await takeIds(pool, SEQUENCES.map((_, i) => writes.reduce((sum, counts) => sum + counts[i], 0)));
  const offsets = SEQUENCES.map(() => 0);
  return writes.map((counts) => counts.map((count, i) => ids[i].slice(offsets[i], (offsets[i] += count))));
});
