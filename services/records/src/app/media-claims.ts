import { createHash, randomUUID } from 'node:crypto';
import type { Pool } from '@rex/db';
import { invalid, isServiceError, unavailable } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import { prom, use } from '@rex/telemetry';
import type { AuthContext__Output } from '@rex/protos';
import type { MediaClient } from '../clients/media.ts';
import type { Errors } from '../domain/fields.ts';
import { MEDIA, queuedNames, type MediumPlan } from '../domain/media.ts';
import { isUniqueViolation } from '../db/sql.ts';

export type Claim = { id: string; names: string[]; mediaTypes: Map<string, string> };

/** The submission a claim is made for: with an Idempotency-Key, its retries make the same claim. */
export type ClaimOwner = { websiteId: string; userId: string; idempotencyKey: string };

/**
 * A claim id: random, or for a submission sent with an Idempotency-Key one
 * derived from the key (as a UUID), so that a retry of a failed attempt may
 * take over the files that attempt reserved instead of being refused them.
 */
export function claimIdFor(owner?: ClaimOwner): string {
  if (!owner?.idempotencyKey) return randomUUID();
  const hex = createHash('sha256').update(`${owner.websiteId}\u0000${owner.userId}\u0000${owner.idempotencyKey}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}


/**
 * Claims queued files for the media of a submission, across the two
 * services without a distributed transaction:
 *
 * 1. the media service reserves every named file for a new claim id (a name it
 *    cannot reserve is a 400 on that medium and nothing is written);
 * 2. records writes the submission with one `media_claims` row per file, in
 *    the same statement, so a file can belong to one record only;
 * 3. after the commit the media service is told to claim the files and move
 *    them into storage; if the write failed, to release them.
 *
 * A crash between 2 and 3 leaves a reservation that runs out (the files return
 * to the queue) or an unconfirmed claim that `confirmPending` completes.
 */
const unconfirmable = use(
  new prom.Gauge({
    name: 'rex_media_claims_unconfirmable',
    help: 'Media files of saved records that media would not confirm within the retry limit (the records show them, the files are not in storage)',
    registers: [],
  }),
);

export function createMediaClaims(db: Pool, media: MediaClient | undefined, logger: Logger) {
  async function reserve(auth: AuthContext__Output | null, plans: MediumPlan[], owner?: ClaimOwner): Promise<Claim | undefined> {
    const errors: Errors = {};
    const names = queuedNames(plans, errors);
    if (Object.keys(errors).length) throw invalid(errors);
    if (!names.length) return undefined;
    if (!media) throw unavailable('Media cannot be added: no media service is configured.');
    const id = claimIdFor(owner);
    let answer;
    try {
      answer = await media.reserve(auth, id, names);
    } catch (error) {
      logger.warn({ err: isServiceError(error) ? error.message : error }, 'media reservation failed');
      throw unavailable('The media service cannot be reached; try again shortly.');
    }
    for (const plan of plans) {
      const reason = plan.queued && answer.refused[plan.queued];
      if (reason && !(`${MEDIA[plan.kind].entity}:queued` in errors)) errors[`${MEDIA[plan.kind].entity}:queued`] = reason;
    }
    if (Object.keys(errors).length) throw invalid(errors);
    return { id, names, mediaTypes: new Map(answer.files.map((file) => [file.name, file.mediaType])) };
  }

  /** Tells media to claim the files; only those it reports claimed are marked confirmed here. */
  async function confirm(claimId: string, names: string[]): Promise<void> {
    const answer = await media!.confirm(claimId, names);
    if (answer.names.length) {
      await db.query('UPDATE records.media_claims SET confirmed = true WHERE claim_id = $1 AND path = ANY($2::text[])', [claimId, answer.names]);
    }
    if (answer.names.length < names.length) logger.warn({ claim: claimId, unconfirmed: names.filter((name) => !answer.names.includes(name)) }, 'media files not claimed yet');
  }

  /**
   * Tells media to forget the files of deleted media (no longer served,
   * removed after its grace period), then drops their claims; a failure is
   * retried on the next round.
   */
  async function forgetReleased(batch = 100): Promise<number> {
    if (!media) return 0;
    const { rows } = await db.query<{ path: string }>(
      'SELECT path FROM records.media_claims WHERE released_on IS NOT NULL ORDER BY released_on LIMIT $1',
      [batch],
    );
    if (!rows.length) return 0;
    const answer = await media.forget(rows.map((row) => row.path));
    if (answer.names.length) await db.query('DELETE FROM records.media_claims WHERE path = ANY($1::text[]) AND released_on IS NOT NULL', [answer.names]);
    return answer.names.length;
  }

  return {
    /**
     * Runs `write` holding the files the media plans name: `columnsOf` gives
     * each medium's columns with its file's path and media type. `owner`
     * names a submission sent with an Idempotency-Key (see claimIdFor).
     */
    async withClaim<T>(
      auth: AuthContext__Output | null,
      plans: MediumPlan[],
      write: (claim: { claimId?: string; columnsOf: (plan: MediumPlan) => Record<string, unknown> }) => Promise<T>,
      owner?: ClaimOwner,
    ): Promise<T> {
      const claim = await reserve(auth, plans, owner);
      const columnsOf = (plan: MediumPlan) =>
        plan.queued && claim ? { ...plan.columns, path: plan.queued, media_type: claim.mediaTypes.get(plan.queued) } : plan.columns;
      let result: T;
      try {
        result = await write({ claimId: claim?.id, columnsOf });
      } catch (error) {
        if (claim) media!.release(claim.id).catch((failure: unknown) => logger.warn({ err: failure }, 'releasing a media claim failed'));
        if (isUniqueViolation(error, 'media_claims_pkey')) {
          const entity = MEDIA[plans.find((plan) => plan.queued)!.kind].entity;
          throw invalid({ [`${entity}:queued`]: 'Requested file has already been used by another record.' });
        }
        throw error;
      }
      // The answer does not wait for the files to move into storage; `confirmPending` retries failures.
      if (claim) confirm(claim.id, claim.names).catch((error: unknown) => logger.warn({ err: error, claim: claim.id }, 'media claim left to confirm later'));
      return result;
    },

    /**
     * Confirms claims whose confirmation did not get through (the media
     * service was down, or records stopped), each at most `maxAttempts`
     * times; what is still unconfirmed then is counted in
     * rex_media_claims_unconfirmable for an operator.
     */
    async confirmPending(olderThanSeconds = 5, maxAttempts = 50): Promise<number> {
      if (!media) return 0;
      // Each retry is counted as it is taken, so a claim media never confirms stops being retried.
      const { rows: taken } = await db.query<{ claim_id: string; path: string }>(
        `WITH due AS (
           SELECT claim_id FROM records.media_claims
            WHERE NOT confirmed AND created_on < now() - make_interval(secs => $1) AND confirm_attempts < $2
            GROUP BY claim_id ORDER BY min(created_on) LIMIT 50)
         UPDATE records.media_claims c SET confirm_attempts = c.confirm_attempts + 1
           FROM due WHERE c.claim_id = due.claim_id AND NOT c.confirmed
         RETURNING c.claim_id, c.path`,
        [olderThanSeconds, maxAttempts],
      );
      const byClaim = new Map<string, string[]>();
      for (const row of taken) byClaim.set(row.claim_id, [...(byClaim.get(row.claim_id) ?? []), row.path]);
      const rows = [...byClaim].map(([claim_id, paths]) => ({ claim_id, paths }));
      const { rows: stuck } = await db.query<{ n: string }>('SELECT count(*) AS n FROM records.media_claims WHERE NOT confirmed AND confirm_attempts >= $1', [maxAttempts]);
      unconfirmable.set(Number(stuck[0].n));
      for (const row of rows) {
        await confirm(row.claim_id, row.paths).catch((error: unknown) => logger.warn({ err: error, claim: row.claim_id }, 'confirming a media claim failed'));
      }
      return rows.length;
    },

    forgetReleased,

    /** forgetReleased at once, without waiting for it: the file of a deleted medium stops being served now. */
    forgetSoon(): void {
      forgetReleased().catch((error: unknown) => logger.warn({ err: error }, 'releasing files of deleted media failed; retried later'));
    },
  };
}

export type MediaClaims = ReturnType<typeof createMediaClaims>;
