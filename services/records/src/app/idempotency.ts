import type { Pool } from '@rex/db';
import { findIdempotentSubmission, type IdempotentSubmission } from '../db/idempotency-repo.ts';
import { isUniqueViolation } from '../db/sql.ts';

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
