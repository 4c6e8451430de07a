import { withTransaction, type Pool, type PoolClient } from '@rex/db';

export type FileRow = {
  name: string;
  website_id: string;
  user_id: string | null;
  content_type: string;
  media_type: string;
  size: string;
  state: 'queued' | 'claimed';
  expired: boolean;
  /** Held by a live reservation. */
  reserved: boolean;
  claim_id: string | null;
  /** The medium naming the file was deleted. */
  forgotten: boolean;
};

export type NewFile = {
  name: string;
  websiteId: string;
  userId: string | null;
  field: string;
  originalName: string;
  contentType: string;
  mediaType: string;
  size: number;
};

const FILE_COLUMNS = `name, website_id, user_id, content_type, media_type, size, state, expires_on < now() AS expired,
  coalesce(reserved_until > now(), false) AS reserved, claim_id, deleted_on IS NOT NULL AS forgotten`;

export async function insertFile(db: Pool, file: NewFile, ttlSeconds: number): Promise<void> {
  await db.query(
    `INSERT INTO media.files (name, website_id, user_id, field, original_name, content_type, media_type, size, expires_on)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9))`,
    [file.name, file.websiteId, file.userId, file.field, file.originalName, file.contentType, file.mediaType, file.size, ttlSeconds],
  );
}

/** Bytes the uploader (a website's user, or the website itself) has uploaded in the last hour. */
export async function bytesUploadedLastHour(db: Pool, websiteId: string, userId: string | null): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>(
    `SELECT coalesce(sum(size), 0)::text AS bytes FROM media.files
      WHERE website_id = $1 AND user_id IS NOT DISTINCT FROM $2 AND uploaded_on > now() - interval '1 hour'`,
    [websiteId, userId],
  );
  return Number(rows[0].bytes);
}

export async function findFile(db: Pool, name: string): Promise<FileRow | undefined> {
  const { rows } = await db.query<FileRow>(`SELECT ${FILE_COLUMNS} FROM media.files WHERE name = $1`, [name]);
  return rows[0];
}

export async function lockFiles(client: PoolClient, names: string[]): Promise<FileRow[]> {
  const { rows } = await client.query<FileRow>(`SELECT ${FILE_COLUMNS} FROM media.files WHERE name = ANY($1::text[]) ORDER BY name FOR UPDATE`, [names]);
  return rows;
}

/**
 * Holds files for a claim. Their expiry moves to a full queue lifetime from
 * now, so a file whose record is saved but not yet confirmed is not swept.
 */
export async function reserveFiles(client: PoolClient, names: string[], claimId: string, lifetimes: { reserveSeconds: number; queueSeconds: number }): Promise<void> {
  await client.query(
    `UPDATE media.files SET claim_id = $2, reserved_until = now() + make_interval(secs => $3),
            expires_on = greatest(expires_on, now() + make_interval(secs => $4))
      WHERE name = ANY($1::text[])`,
    [names, claimId, lifetimes.reserveSeconds, lifetimes.queueSeconds],
  );
}

/**
 * The named files a confirmation may claim: those the claim holds (queued, or
 * claimed by it before), and those still queued and free (its reservation ran
 * out before the confirmation came, and no one else took them).
 */
export async function lockClaimable(client: PoolClient, claimId: string, names: string[]): Promise<{ name: string; state: 'queued' | 'claimed'; content_type: string }[]> {
  const { rows } = await client.query<{ name: string; state: 'queued' | 'claimed'; content_type: string }>(
    `SELECT name, state, content_type FROM media.files
      WHERE name = ANY($2::text[])
        AND (claim_id = $1 OR (state = 'queued' AND (reserved_until IS NULL OR reserved_until < now())))
      ORDER BY name FOR UPDATE`,
    [claimId, names],
  );
  return rows;
}

export async function markClaimed(client: PoolClient, names: string[], claimId: string): Promise<void> {
  await client.query(
    `UPDATE media.files SET state = 'claimed', claimed_on = now(), claim_id = $2, reserved_until = NULL WHERE name = ANY($1::text[])`,
    [names, claimId],
  );
}

/** What became of the smaller images of a stored file. */
export async function markVariants(db: Pool, name: string, variants: 'made' | 'none'): Promise<void> {
  await db.query('UPDATE media.files SET variants = $2 WHERE name = $1', [name, variants]);
}

/**
 * Stored files whose smaller images were not made (the service stopped
 * first, storage failed, or they were claimed before variants existed),
 * claimed at least `olderThanSeconds` ago so a confirmation's own making goes first.
 */
export async function variantsDue(db: Pool, olderThanSeconds: number, limit: number): Promise<{ name: string; content_type: string }[]> {
  const { rows } = await db.query<{ name: string; content_type: string }>(
    `SELECT name, content_type FROM media.files
      WHERE state = 'claimed' AND variants IS NULL AND deleted_on IS NULL AND claimed_on < now() - make_interval(secs => $1)
      ORDER BY claimed_on LIMIT $2`,
    [olderThanSeconds, limit],
  );
  return rows;
}

export async function releaseClaim(db: Pool, claimId: string): Promise<number> {
  const { rowCount } = await db.query(`UPDATE media.files SET claim_id = NULL, reserved_until = NULL WHERE claim_id = $1 AND state = 'queued'`, [claimId]);
  return rowCount ?? 0;
}

/**
 * Deletes up to `limit` expired, unclaimed, unreserved uploads: the rows go in
 * a transaction that commits only after `removeFiles` has deleted the files,
 * so a row never outlives its file unnoticed. Replicas skip each other's rows.
 */
export async function deleteExpired(db: Pool, limit: number, removeFiles: (names: string[]) => Promise<void>): Promise<number> {
  return withTransaction(db, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `DELETE FROM media.files WHERE name IN (
         SELECT name FROM media.files
          WHERE state = 'queued' AND expires_on < now() AND (reserved_until IS NULL OR reserved_until < now())
          ORDER BY expires_on LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING name`,
      [limit],
    );
    await removeFiles(rows.map((row) => row.name));
    return rows.length;
  });
}

/**
 * Marks files as forgotten (their media were deleted), wherever they are:
 * claimed, or still being confirmed. A name already gone is forgotten too.
 */
export async function markForgotten(db: Pool, names: string[]): Promise<string[]> {
  if (!names.length) return [];
  await db.query('UPDATE media.files SET deleted_on = now() WHERE name = ANY($1::text[]) AND deleted_on IS NULL', [names]);
  return names;
}

/** Deletes files forgotten more than `graceSeconds` ago (rows and stored files); answers how many. */
export async function deleteForgotten(db: Pool, graceSeconds: number, limit: number, removeFiles: (names: string[]) => Promise<void>): Promise<number> {
  return withTransaction(db, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `DELETE FROM media.files WHERE name IN (
         SELECT name FROM media.files WHERE deleted_on < now() - make_interval(secs => $1)
          ORDER BY deleted_on LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING name`,
      [graceSeconds, limit],
    );
    await removeFiles(rows.map((row) => row.name));
    return rows.length;
  });
}

export { withTransaction };
