import type { Pool } from '@rex/db';

// The idempotency keys: a saved submission under its client's key, found again
// on a retry, written only in the statement that saves the records (see
// insertIdempotencyKey), and swept after their time.

export type IdempotentSubmission = { requestHash: string; saved: unknown };

export async function findIdempotentSubmission(db: Pool, websiteId: string, userId: string, key: string): Promise<IdempotentSubmission | undefined> {
  const { rows } = await db.query<{ request_hash: string; saved: unknown }>(
    'SELECT request_hash, saved FROM records.idempotency_keys WHERE website_id = $1 AND user_id = $2 AND key = $3',
    [websiteId, userId, key],
  );
  return rows[0] && { requestHash: rows[0].request_hash, saved: rows[0].saved };
}

/**
 * The one INSERT of a key's row, from a SELECT (or VALUES) of its website id,
 * user id, key, request hash and saved answer; a part of the statement that
 * writes the records, so both are saved or neither.
 */
export const insertIdempotencyKey = (rows: string): string =>
  `INSERT INTO records.idempotency_keys (website_id, user_id, key, request_hash, saved) ${rows}`;

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
