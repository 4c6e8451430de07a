import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { status } from '@grpc/grpc-js';
import { followNotifications, type Pool } from '@rex/db';
import type { Logger } from '@rex/logger';
import type { Caller } from '../auth/caller.ts';
import type { Directory } from '../auth/directory.ts';
import type { ReportsClient } from '../clients/reports.ts';
import { feedChange } from '../routes/changes.ts';
import { backoffMs, type Backoff } from './backoff.ts';
import { entitiesOf, messageOf, wanted } from './messages.ts';
import { deliveries } from './metrics.ts';
import { ownerAuthority } from './owner.ts';
import { sendMessage, type Sent } from './send.ts';
import { messageId } from './signing.ts';
import { addDeadLetter, endReplay, endStep, leaseDue, nextReplay, ownerOf, wakeCaughtUp, type Leased, type StepEnd } from './subscriptions-repo.ts';

/** The channel the reports projector notifies each time the change feed moves on (decision 15). */
const FEED_CHANNEL = 'rex_changes';
/** Feed entries read per step. */
const BATCH = 100;
/** When the feed itself cannot be read (reports or the database is down): not the receiver's failure. */
const OWN_FAILURE_RETRY_MS = 5_000;

export type DeliveryOptions = {
  allowHttp: boolean;
  allowPrivate: boolean;
  timeoutMs: number;
  backoff: Backoff;
  retryForS: number;
  disableAfterS: number;
  leaseS: number;
  idleS: number;
  pollMs: number;
  feedDeadlineMs: number;
};

export type DeliveryDeps = {
  db: Pool;
  databaseUrl: string;
  directory: Directory;
  /** Completes a caller as a request's would be (the websites sharing with it). */
  completeCaller: (caller: Caller) => Promise<Caller>;
  reports: ReportsClient;
  logger: Logger;
};

/**
 * The delivery loop of one gateway replica: it leases one due subscription at
 * a time (any number of replicas share the queue; SKIP LOCKED keeps them
 * apart), reads its owner's change feed from its cursor and POSTs each change
 * it asked for, in feed order, moving the cursor past each one delivered.
 * Nothing is held open across a delivery but the lease: a replica killed
 * meanwhile leaves the subscription to another once the lease runs out, which
 * sends the same messages (same webhook-id) again.
 */
export function startDelivery(deps: DeliveryDeps, options: DeliveryOptions): { stop: () => Promise<void> } {
  const { db, logger } = deps;
  const replica = `${hostname()}/${process.pid}`;
  const stopping = new AbortController();
  let sleeping: (() => void) | undefined;
  // A step stops taking new messages while one more could still finish within the lease.
  const stepBudgetMs = Math.max(options.leaseS * 1000 - options.timeoutMs, 0);
  if (options.leaseS * 1000 < 2 * options.timeoutMs) {
    logger.warn({ leaseS: options.leaseS, timeoutMs: options.timeoutMs }, 'WEBHOOK_LEASE_S is short for WEBHOOK_TIMEOUT_MS: a slow receiver may get a message from two replicas');
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleeping = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleeping = done;
    });

  // Each projector batch wakes the caught-up subscriptions (one statement at a time per replica).
  let waking = false;
  let wakeAgain = false;
  const onFeedMoved = async () => {
    if (waking) {
      wakeAgain = true;
      return;
    }
    waking = true;
    try {
      do {
        wakeAgain = false;
        await wakeCaughtUp(db);
      } while (wakeAgain && !stopping.signal.aborted);
      sleeping?.();
    } catch (error) {
      logger.warn({ err: error }, 'cannot wake webhook subscriptions; they look again within WEBHOOK_IDLE_S');
    } finally {
      waking = false;
    }
  };
  const feed = followNotifications({ url: deps.databaseUrl, channel: FEED_CHANNEL, onChange: () => void onFeedMoved(), logger });

  async function step(subscription: Leased, holder: string): Promise<void> {
    const leasedAt = subscription.leased_at.getTime();
    const started = Date.now();
    // The database's clock, which the subscription's times come from.
    const now = () => new Date(leasedAt + Date.now() - started);
    const filter = { surveyId: subscription.survey_id, taxonGroup: subscription.taxon_group };
    const end: StepEnd = {
      cursor: subscription.cursor,
      delivered: 0,
      head: subscription.head_message_id ? { messageId: subscription.head_message_id, attempts: subscription.attempts, failingSince: subscription.head_failing_since! } : null,
      failingSince: subscription.failing_since,
      lastError: null,
      disabledReason: null,
      retryInMs: null,
      idleS: options.idleS,
    };
    const finish = (changes: Partial<StepEnd>) => endStep(db, subscription.id, holder, { ...end, ...changes });

    const authority = await ownerAuthority(deps.directory, deps.completeCaller, ownerOf(subscription));
    if ('refused' in authority) {
      logger.info({ subscription: subscription.id, reason: authority.refused }, 'webhook subscription disabled');
      return finish({ disabledReason: authority.refused, retryInMs: 0 });
    }
    const secrets = [subscription.secret];
    if (subscription.previous_secret && subscription.previous_secret_until && subscription.previous_secret_until > now()) secrets.push(subscription.previous_secret);

    const send = (id: string, payload: unknown): Promise<Sent> => {
      if (!options.allowHttp && subscription.url.startsWith('http:')) return Promise.resolve({ ok: false, error: 'This gateway sends to https:// only (WEBHOOKS_ALLOW_HTTP).' });
      return sendMessage({ url: subscription.url, secrets }, { id, body: JSON.stringify(payload) }, { timeoutMs: options.timeoutMs, stop: stopping.signal, allowPrivate: options.allowPrivate });
    };

    /** A failed attempt: retried later, or given up once the message has failed for the whole retry window. */
    const failed = async (id: string, error: string, progress: Partial<StepEnd>, giveUp: (attempts: number, since: Date) => Promise<Partial<StepEnd>>) => {
      deliveries.inc({ outcome: 'failed' });
      const at = now();
      const sameHead = end.head?.messageId === id;
      const attempts = (sameHead ? end.head!.attempts : 0) + 1;
      const headSince = sameHead ? end.head!.failingSince : at;
      const failingSince = progress.delivered ? at : (end.failingSince ?? at);
      let outcome: Partial<StepEnd>;
      if (at.getTime() - headSince.getTime() >= options.retryForS * 1000) {
        deliveries.inc({ outcome: 'dead_lettered' });
        logger.warn({ subscription: subscription.id, message: id, attempts, error }, 'webhook message dead-lettered');
        outcome = { head: null, retryInMs: 0, ...(await giveUp(attempts, headSince)) };
      } else {
        outcome = { head: { messageId: id, attempts, failingSince: headSince }, retryInMs: backoffMs(attempts, options.backoff) };
      }
      const disabledReason =
        at.getTime() - failingSince.getTime() >= options.disableAfterS * 1000 ? `Failing since ${failingSince.toISOString()}; last error: ${error}` : null;
      await finish({ ...progress, ...outcome, failingSince, lastError: error, disabledReason });
    };

    // A replayed dead letter goes first.
    const letter = await nextReplay(db, subscription.id);
    if (letter) {
      const sent = await send(letter.message_id, letter.payload);
      if (sent.ok) {
        deliveries.inc({ outcome: 'delivered' });
        await endReplay(db, letter.id, { delivered: true });
        return finish({ delivered: 1, head: null, failingSince: null, retryInMs: 0 });
      }
      if (sent.stopped) return finish({ retryInMs: 0 });
      return failed(letter.message_id, sent.error, {}, async (attempts) => {
        await endReplay(db, letter.id, { delivered: false, lastError: sent.error, attempts });
        return {};
      });
    }

    const read = (cursor: string, limit: number, entities: string[]) =>
      deps.reports.listChanges({ auth: authority.auth, cursor, fromBeginning: false, limit, entities, waitMs: 0, ownOnly: false }, options.feedDeadlineMs);
    let cursor = subscription.cursor;
    let page;
    try {
      // Added without a cursor (by an operator): from now.
      cursor ??= (await read('', 1, [])).nextCursor;
      page = await read(cursor, BATCH, entitiesOf(subscription.event_types));
    } catch (error) {
      const code = (error as { code?: number }).code;
      if (code === status.PERMISSION_DENIED || code === status.INVALID_ARGUMENT) {
        return finish({ cursor, disabledReason: `The change feed refuses this owner: ${(error as { details?: string }).details ?? 'refused'}`, retryInMs: 0 });
      }
      logger.warn({ err: error, subscription: subscription.id }, 'cannot read the change feed for a webhook; trying again soon');
      return finish({ cursor, retryInMs: OWN_FAILURE_RETRY_MS });
    }

    let delivered = 0;
    let whole = true;
    for (const change of page.changes.map(feedChange)) {
      if (stopping.signal.aborted || (delivered > 0 && Date.now() - started > stepBudgetMs)) {
        whole = false;
        break;
      }
      if (!wanted(change, subscription.event_types, filter)) {
        cursor = change.cursor;
        continue;
      }
      const id = messageId(subscription.id, change.cursor);
      const message = messageOf(change);
      const sent = await send(id, message);
      if (!sent.ok) {
        if (sent.stopped) return finish({ cursor, delivered, ...(delivered ? { head: null, failingSince: null } : {}), retryInMs: 0 });
        const skipTo = change.cursor;
        return failed(id, sent.error, { cursor, delivered }, async (attempts, since) => {
          await addDeadLetter(db, { subscriptionId: subscription.id, messageId: id, payload: message, lastError: sent.error, attempts, firstAttemptOn: since });
          return { cursor: skipTo };
        });
      }
      deliveries.inc({ outcome: 'delivered' });
      cursor = change.cursor;
      delivered += 1;
    }
    if (whole) cursor = page.nextCursor;
    await finish({ cursor, delivered, head: null, failingSince: null, retryInMs: page.hasMore || !whole ? 0 : null });
  }

  async function loop(): Promise<void> {
    while (!stopping.signal.aborted) {
      let leased: Leased | undefined;
      try {
        const holder = `${replica}/${randomBytes(6).toString('hex')}`;
        leased = await leaseDue(db, options.leaseS, holder);
        if (leased) await step(leased, holder);
      } catch (error) {
        // The lease stays until it runs out; the subscription is retried then.
        logger.warn({ err: error, subscription: leased?.id }, 'webhook delivery step failed');
      }
      if (!leased && !stopping.signal.aborted) await sleep(options.pollMs);
    }
  }
  const running = loop();

  return {
    async stop() {
      stopping.abort();
      sleeping?.();
      await running;
      await feed.stop();
    },
  };
}
