import type { Pool } from '@rex/db';
import { findIdempotentSubmission, type IdempotentSubmission } from './db/samples-repo.ts';
import { isUniqueViolation } from './db/sql.ts';

/**
 * Runs a create under the client's Idempotency-Key (none: it just runs). A
 * submission already saved under the key answers again through `replay`,
 * whether found before writing or when a concurrent retry wins the race on
 * the key's row (written in the same statement as the records).
 */
export async function onceForKey<T>(
  db: Pool,
  owner: { websiteId: string; userId: string },
  key: string,
  replay: (earlier: IdempotentSubmission) => T,
  write: () => Promise<T>,
): Promise<T> {
  if (!key) return write();
  const earlier = await findIdempotentSubmission(db, owner.websiteId, owner.userId, key);
  if (earlier) return replay(earlier);
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error, 'idempotency_keys_pkey')) throw error;
    const winner = await findIdempotentSubmission(db, owner.websiteId, owner.userId, key);
    if (!winner) throw error;
    return replay(winner);
  }
}

/** Deletes Idempotency-Keys older than `ttlSeconds`, in batches; answers how many went. */
export async function deleteExpiredIdempotencyKeys(db: Pool, ttlSeconds: number, batch = 1_000): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await db.query(
      `DELETE FROM records.idempotency_keys WHERE ctid = ANY (ARRAY(
         SELECT ctid FROM records.idempotency_keys WHERE created_on < now() - make_interval(secs => $1) LIMIT $2))`,
      [ttlSeconds, batch],
    );
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < batch) return total;
  }
}
