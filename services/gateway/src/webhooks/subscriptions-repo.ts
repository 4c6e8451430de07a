import { randomBytes } from 'node:crypto';
import type { Pool } from '@rex/db';
import { newSecret } from './signing.ts';

/** Whose a subscription is: a website, or one connection (client and project) of a client. */
export type Owner = { websiteId: string; clientId: string | null; projId: string | null };

export type Filter = { surveyId: string | null; taxonGroup: string | null };

export type Subscription = {
  id: string;
  website_id: string;
  client_id: string | null;
  proj_id: string | null;
  url: string;
  event_types: string[];
  survey_id: string | null;
  taxon_group: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  cursor: string | null;
  state: 'active' | 'disabled';
  disabled_reason: string | null;
  failing_since: Date | null;
  last_error: string | null;
  last_error_on: Date | null;
  head_message_id: string | null;
  attempts: number;
  head_failing_since: Date | null;
  next_attempt_at: Date;
  delivered: number;
  last_delivered_on: Date | null;
  created_on: Date;
  /** Dead letters not replayed (listing queries only). */
  dead_letters?: string;
};

export type DeadLetter = {
  id: string;
  subscription_id: string;
  message_id: string;
  payload: unknown;
  last_error: string;
  attempts: number;
  first_attempt_on: Date;
  last_attempt_on: Date;
  replay_requested_on: Date | null;
  replayed_on: Date | null;
};

export const ownerOf = (row: Subscription): Owner => ({ websiteId: row.website_id, clientId: row.client_id, projId: row.proj_id });

/**
 * `AND` conditions limiting a query to one owner's subscriptions (none for an
 * operator), with its values appended to `values`.
 */
function ownedBy(owner: Owner | undefined, values: unknown[], alias = ''): string {
  if (!owner) return '';
  values.push(owner.websiteId, owner.clientId, owner.projId);
  const n = values.length;
  return ` AND ${alias}website_id = $${n - 2} AND ${alias}client_id IS NOT DISTINCT FROM $${n - 1}::bigint AND ${alias}proj_id IS NOT DISTINCT FROM $${n}::text`;
}

const DEAD_LETTER_COUNT = `(SELECT count(*) FROM auth.webhook_dead_letters d WHERE d.subscription_id = s.id AND d.replayed_on IS NULL)::text AS dead_letters`;

export async function countOwned(db: Pool, owner: Owner): Promise<number> {
  const values: unknown[] = [];
  const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM auth.webhook_subscriptions WHERE true${ownedBy(owner, values)}`, values);
  return Number(rows[0].n);
}

/** A new active subscription; its secret is in the row (shown to its creator once). */
export async function createSubscription(
  db: Pool,
  input: { owner: Owner; url: string; eventTypes: string[]; filter: Filter; cursor: string | null },
): Promise<Subscription> {
  const { rows } = await db.query<Subscription>(
    `INSERT INTO auth.webhook_subscriptions (id, website_id, client_id, proj_id, url, event_types, survey_id, taxon_group, secret, cursor)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *, '0' AS dead_letters`,
    [
      `wh_${randomBytes(12).toString('base64url')}`,
      input.owner.websiteId,
      input.owner.clientId,
      input.owner.projId,
      input.url,
      input.eventTypes,
      input.filter.surveyId,
      input.filter.taxonGroup,
      newSecret(),
      input.cursor,
    ],
  );
  return rows[0];
}

/** Every subscription of `owner` (of everyone for an operator), oldest first. */
export async function listSubscriptions(db: Pool, owner?: Owner): Promise<Subscription[]> {
  const values: unknown[] = [];
  const { rows } = await db.query<Subscription>(`SELECT s.*, ${DEAD_LETTER_COUNT} FROM auth.webhook_subscriptions s WHERE true${ownedBy(owner, values, 's.')} ORDER BY s.created_on, s.id`, values);
  return rows;
}

/** One subscription, when it is `owner`'s (anyone's for an operator). */
export async function getSubscription(db: Pool, id: string, owner?: Owner): Promise<Subscription | undefined> {
  const values: unknown[] = [id];
  const { rows } = await db.query<Subscription>(`SELECT s.*, ${DEAD_LETTER_COUNT} FROM auth.webhook_subscriptions s WHERE s.id = $1${ownedBy(owner, values, 's.')}`, values);
  return rows[0];
}

export async function deleteSubscription(db: Pool, id: string, owner?: Owner): Promise<boolean> {
  const values: unknown[] = [id];
  const { rowCount } = await db.query(`DELETE FROM auth.webhook_subscriptions WHERE id = $1${ownedBy(owner, values)}`, values);
  return rowCount === 1;
}

/** A new secret; the one it replaces still signs messages for `overlapS` seconds. */
export async function rotateSecret(db: Pool, id: string, overlapS: number, owner?: Owner): Promise<Subscription | undefined> {
  const values: unknown[] = [id, newSecret(), overlapS];
  const { rows } = await db.query<Subscription>(
    `UPDATE auth.webhook_subscriptions
        SET previous_secret = secret, previous_secret_until = now() + make_interval(secs => $3), secret = $2
      WHERE id = $1${ownedBy(owner, values)} RETURNING *`,
    values,
  );
  return rows[0];
}

/** Active again from where its cursor stands, with its failures forgotten. */
export async function enableSubscription(db: Pool, id: string, owner?: Owner): Promise<boolean> {
  const values: unknown[] = [id];
  const { rowCount } = await db.query(
    `UPDATE auth.webhook_subscriptions
        SET state = 'active', disabled_reason = NULL, failing_since = NULL, head_message_id = NULL, attempts = 0,
            head_failing_since = NULL, next_attempt_at = now()
      WHERE id = $1${ownedBy(owner, values)}`,
    values,
  );
  return rowCount === 1;
}

export async function disableSubscription(db: Pool, id: string, reason: string, owner?: Owner): Promise<boolean> {
  const values: unknown[] = [id, reason];
  const { rowCount } = await db.query(`UPDATE auth.webhook_subscriptions SET state = 'disabled', disabled_reason = $2 WHERE id = $1${ownedBy(owner, values)}`, values);
  return rowCount === 1;
}

/** A subscription's dead letters, newest first. */
export async function listDeadLetters(db: Pool, subscriptionId: string, limit: number): Promise<DeadLetter[]> {
  const { rows } = await db.query<DeadLetter>('SELECT * FROM auth.webhook_dead_letters WHERE subscription_id = $1 ORDER BY id DESC LIMIT $2', [subscriptionId, limit]);
  return rows;
}

/**
 * Queues a dead letter for delivery again, ahead of the feed; the
 * subscription is due at once unless it is waiting out a failure.
 */
export async function requestReplay(db: Pool, subscriptionId: string, letterId: string): Promise<DeadLetter | undefined> {
  const { rows } = await db.query<DeadLetter>(
    `WITH letter AS (
       UPDATE auth.webhook_dead_letters SET replay_requested_on = now(), replayed_on = NULL
        WHERE id = $2 AND subscription_id = $1 RETURNING *
     ), due AS (
       UPDATE auth.webhook_subscriptions SET next_attempt_at = now()
        WHERE id = $1 AND attempts = 0 AND EXISTS (SELECT 1 FROM letter) RETURNING id
     )
     SELECT * FROM letter`,
    [subscriptionId, letterId],
  );
  return rows[0];
}

// The delivery queue: what the replicas' workers do.

export type Leased = Subscription & { leased_at: Date };

/**
 * Takes the subscription due longest, if any, for `leaseS` seconds. The
 * statement commits at once: no transaction stays open while it is delivered.
 */
export async function leaseDue(db: Pool, leaseS: number, holder: string): Promise<Leased | undefined> {
  const { rows } = await db.query<Leased>(
    `UPDATE auth.webhook_subscriptions SET lease_until = now() + make_interval(secs => $1), leased_by = $2, wake_requested = false
      WHERE id = (SELECT id FROM auth.webhook_subscriptions
                   WHERE state = 'active' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
                   ORDER BY next_attempt_at FOR UPDATE SKIP LOCKED LIMIT 1)
      RETURNING *, now() AS leased_at`,
    [leaseS, holder],
  );
  return rows[0];
}

/** The oldest dead letter of a subscription queued for replay. */
export async function nextReplay(db: Pool, subscriptionId: string): Promise<DeadLetter | undefined> {
  const { rows } = await db.query<DeadLetter>(
    'SELECT * FROM auth.webhook_dead_letters WHERE subscription_id = $1 AND replay_requested_on IS NOT NULL AND replayed_on IS NULL ORDER BY id LIMIT 1',
    [subscriptionId],
  );
  return rows[0];
}

/** How a step leaves its subscription: written, and the lease released, in one statement. */
export type StepEnd = {
  cursor: string | null;
  delivered: number;
  /** The failing message at the head, or null when the head delivered (or there was none). */
  head: { messageId: string; attempts: number; failingSince: Date } | null;
  failingSince: Date | null;
  lastError: string | null;
  disabledReason: string | null;
  /** Due again in this many milliseconds; null: caught up, due after `idleS` unless the feed moves first. */
  retryInMs: number | null;
  idleS: number;
};

/**
 * Ends a step: only while `holder` still holds the lease, so a replica that
 * outlived its lease (another has taken over) changes nothing.
 */
export async function endStep(db: Pool, id: string, holder: string, end: StepEnd): Promise<void> {
  await db.query(
    `UPDATE auth.webhook_subscriptions
        SET cursor = $3, delivered = delivered + $4, last_delivered_on = CASE WHEN $4 > 0 THEN now() ELSE last_delivered_on END,
            head_message_id = $5, attempts = $6, head_failing_since = $7, failing_since = $8,
            last_error = coalesce($9, last_error), last_error_on = CASE WHEN $9::text IS NULL THEN last_error_on ELSE now() END,
            state = CASE WHEN $10::text IS NULL THEN state ELSE 'disabled' END, disabled_reason = coalesce($10, disabled_reason),
            next_attempt_at = CASE WHEN $11::float8 IS NOT NULL THEN now() + make_interval(secs => $11 / 1000.0)
                                   WHEN wake_requested THEN now() ELSE now() + make_interval(secs => $12) END,
            lease_until = NULL, leased_by = NULL
      WHERE id = $1 AND leased_by = $2`,
    [
      id,
      holder,
      end.cursor,
      end.delivered,
      end.head?.messageId ?? null,
      end.head?.attempts ?? 0,
      end.head?.failingSince ?? null,
      end.failingSince,
      end.lastError,
      end.disabledReason,
      end.retryInMs,
      end.idleS,
    ],
  );
}

/** A message that failed for the whole retry window, kept for its owner to see and replay. */
export async function addDeadLetter(
  db: Pool,
  letter: { subscriptionId: string; messageId: string; payload: unknown; lastError: string; attempts: number; firstAttemptOn: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO auth.webhook_dead_letters (subscription_id, message_id, payload, last_error, attempts, first_attempt_on, last_attempt_on)
     VALUES ($1, $2, $3, $4, $5, $6, now())`,
    [letter.subscriptionId, letter.messageId, JSON.stringify(letter.payload), letter.lastError, letter.attempts, letter.firstAttemptOn],
  );
}

/** A replayed dead letter either delivered, or back in the list after another failed retry window. */
export async function endReplay(db: Pool, letterId: string, outcome: { delivered: true } | { delivered: false; lastError: string; attempts: number }): Promise<void> {
  if (outcome.delivered) {
    await db.query('UPDATE auth.webhook_dead_letters SET replayed_on = now(), last_attempt_on = now() WHERE id = $1', [letterId]);
  } else {
    await db.query(
      'UPDATE auth.webhook_dead_letters SET replay_requested_on = NULL, last_error = $2, attempts = attempts + $3, last_attempt_on = now() WHERE id = $1',
      [letterId, outcome.lastError, outcome.attempts],
    );
  }
}

/**
 * The feed has moved on: caught-up subscriptions are due at once, and one
 * being served now is told so (its step ends due again). Subscriptions
 * waiting out a failure keep their schedule.
 */
export async function wakeCaughtUp(db: Pool): Promise<void> {
  await db.query(
    `UPDATE auth.webhook_subscriptions SET wake_requested = true, next_attempt_at = least(next_attempt_at, now())
      WHERE state = 'active' AND attempts = 0 AND NOT wake_requested`,
  );
}

/** Queue depth and age for the metrics: active subscriptions due and not being served, and how long the oldest has waited. */
export async function queueState(db: Pool): Promise<{ due: number; oldestS: number }> {
  const { rows } = await db.query<{ due: string; oldest: number | null }>(
    `SELECT count(*) AS due, extract(epoch FROM now() - min(next_attempt_at))::float8 AS oldest
       FROM auth.webhook_subscriptions
      WHERE state = 'active' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())`,
  );
  return { due: Number(rows[0].due), oldestS: rows[0].oldest ?? 0 };
}
