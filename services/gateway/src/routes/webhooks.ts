import type { Request } from 'express';
import type { Pool } from '@rex/db';
import type { Caller } from '../auth/caller.ts';
import type { Directory } from '../auth/directory.ts';
import type { ReportsClient } from '../clients/reports.ts';
import { HttpError } from '../http-error.ts';
import { ownerAuthority } from '../webhooks/owner.ts';
import {
  countOwned,
  createSubscription,
  deleteSubscription,
  enableSubscription,
  getSubscription,
  listDeadLetters,
  listSubscriptions,
  requestReplay,
  rotateSecret,
  type DeadLetter,
  type Owner,
  type Subscription,
} from '../webhooks/subscriptions-repo.ts';
import { parseSubscription } from '../webhooks/validation.ts';
import { backend, servicesUrl } from './context.ts';
import type { Route } from './route.ts';
import { isRecordId } from '@rex/protos';

export type WebhookSettings = { allowHttp: boolean; allowPrivate: boolean; maxPerOwner: number; secretOverlapS: number; deadlineMs: number };

const MAX_OVERLAP_S = 7 * 86_400;

/**
 * Whose subscriptions a caller manages: a website (its password or HMAC) and
 * the website's administrators manage the website's; a client connection
 * allowed the change feed manages its own. Others may not.
 */
function ownerFor(caller: Caller): Owner {
  const website = { websiteId: caller.websiteId, clientId: null, projId: null };
  if (caller.entity === 'website' && (caller.method === 'directWebsite' || caller.method === 'hmacWebsite')) return website;
  if (caller.entity === 'user' && caller.role === 1) return website;
  if (caller.entity === 'client' && caller.client && !caller.client.resources) {
    if (!caller.client.allowChangeFeed) throw new HttpError(403, 'This connection may not use webhooks: it may not read the change feed (allow_change_feed).');
    return { websiteId: caller.websiteId, clientId: caller.client.clientId, projId: caller.client.projId };
  }
  throw new HttpError(403, "Webhooks are managed by a website (directWebsite or hmacWebsite), the website's administrators, or a client connection allowed the change feed.");
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function subscriptionView(row: Subscription, req: Request) {
  const overlap = row.previous_secret_until && row.previous_secret_until > new Date() ? row.previous_secret_until : null;
  return {
    id: row.id,
    href: `${servicesUrl(req)}/rest/webhooks/${row.id}`,
    url: row.url,
    event_types: row.event_types,
    filter: { ...(row.survey_id ? { survey_id: row.survey_id } : {}), ...(row.taxon_group ? { taxon_group: row.taxon_group } : {}) },
    owner: { website_id: row.website_id, ...(row.proj_id ? { client_id: row.client_id, proj_id: row.proj_id } : {}) },
    state: row.state,
    disabled_reason: row.disabled_reason,
    failing_since: iso(row.failing_since),
    last_error: row.last_error,
    last_error_on: iso(row.last_error_on),
    attempts: row.attempts,
    next_attempt_at: row.state === 'active' ? iso(row.next_attempt_at) : null,
    delivered: row.delivered,
    last_delivered_on: iso(row.last_delivered_on),
    dead_letters: Number(row.dead_letters ?? 0),
    previous_secret_valid_until: iso(overlap),
    created_on: iso(row.created_on),
  };
}

function deadLetterView(letter: DeadLetter) {
  return {
    id: letter.id,
    message_id: letter.message_id,
    type: (letter.payload as { type?: string }).type,
    payload: letter.payload,
    last_error: letter.last_error,
    attempts: letter.attempts,
    first_attempt_on: iso(letter.first_attempt_on),
    last_attempt_on: iso(letter.last_attempt_on),
    state: letter.replayed_on ? 'replayed' : letter.replay_requested_on ? 'queued' : 'dead',
    replay_requested_on: iso(letter.replay_requested_on),
    replayed_on: iso(letter.replayed_on),
  };
}

function whole(req: Request, name: string, min: number, max: number, fallback: number): number {
  const value = req.query[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d{1,7}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new HttpError(400, `Invalid ${name} parameter: a whole number from ${min} to ${max} is expected`);
  }
  return Number(value);
}

const ID_PARAMETER = { name: 'id', in: 'path' as const, type: 'string' as const, description: 'The subscription id (wh_...)' };

/**
 * Webhook subscriptions: each POSTs the changes of its owner's change feed
 * (the same records and values the feed gives the owner) to a URL, signed per
 * Standard Webhooks; the gateway's replicas deliver them.
 */
export function webhookRoutes(deps: { db: Pool; reports: ReportsClient; directory: Directory; completeCaller: (caller: Caller) => Promise<Caller>; settings: WebhookSettings }): Route[] {
  const { db, settings } = deps;

  /** The subscription named in the path, when it is the caller's: another owner's is not found. */
  async function owned(req: Request): Promise<{ owner: Owner; subscription: Subscription }> {
    const owner = ownerFor(req.caller!);
    const id = String(req.params.id);
    const subscription = id.length <= 100 ? await getSubscription(db, id, owner) : undefined;
    if (!subscription) throw new HttpError(404, `Webhook subscription ${id.slice(0, 100)} not found`);
    return { owner, subscription };
  }

  return [
    {
      resource: 'webhooks',
      method: 'post',
      path: '/webhooks',
      json: true,
      summary:
        'Subscribes a URL to changes: {url, event_types: ["occurrence.created", ...], filter?: {survey_id, taxon_group}}. Each change of the owner\'s change feed of those types is POSTed as it happens, signed per Standard Webhooks; the answer holds the secret, shown this once.',
      responses: {
        201: 'The subscription with its secret (whsec_...)',
        400: 'A field that is not valid (named), or too many subscriptions',
        403: 'A caller that may not manage webhooks',
      },
      handler: async (req, res) => {
        const owner = ownerFor(req.caller!);
        const parsed = parseSubscription(req.body, settings);
        if ('violations' in parsed) throw new HttpError(400, parsed.violations);
        if ((await countOwned(db, owner)) >= settings.maxPerOwner) {
          throw new HttpError(400, `This owner has ${settings.maxPerOwner} webhook subscriptions, the most allowed: delete one first.`);
        }
        // Deliveries start from now: the feed's position at this moment.
        const authority = await ownerAuthority(deps.directory, deps.completeCaller, owner);
        if ('refused' in authority) throw new HttpError(403, authority.refused);
        const start = await backend(
          'reports',
          deps.reports.listChanges({ auth: authority.auth, cursor: '', fromBeginning: false, limit: 1, entities: [], waitMs: 0, ownOnly: false }, settings.deadlineMs),
        );
        const created = await createSubscription(db, { owner, ...parsed.input, cursor: start.nextCursor });
        const view = subscriptionView(created, req);
        res.status(201).location(view.href).json({ ...view, secret: created.secret });
      },
    },
    {
      resource: 'webhooks',
      method: 'get',
      path: '/webhooks',
      summary: "The caller's webhook subscriptions (a website's, or a connection's own), with their state and failures.",
      responses: { 200: '{webhooks: [subscription, ...]}', 403: 'A caller that may not manage webhooks' },
      handler: async (req, res) => {
        const rows = await listSubscriptions(db, ownerFor(req.caller!));
        res.json({ webhooks: rows.map((row) => subscriptionView(row, req)) });
      },
    },
    {
      resource: 'webhooks',
      method: 'get',
      path: '/webhooks/:id',
      summary: 'One webhook subscription: state (active or disabled, and why), failing_since, last_error, attempts, delivered and dead-letter counts.',
      parameters: [ID_PARAMETER],
      responses: { 200: 'The subscription', 403: 'A caller that may not manage webhooks', 404: 'No such subscription of the caller' },
      handler: async (req, res) => {
        res.json(subscriptionView((await owned(req)).subscription, req));
      },
    },
    {
      resource: 'webhooks',
      method: 'delete',
      path: '/webhooks/:id',
      summary: 'Ends a webhook subscription and forgets its dead letters.',
      parameters: [ID_PARAMETER],
      responses: { 204: 'Deleted', 403: 'A caller that may not manage webhooks', 404: 'No such subscription of the caller' },
      handler: async (req, res) => {
        const { owner, subscription } = await owned(req);
        await deleteSubscription(db, subscription.id, owner);
        res.status(204).end();
      },
    },
    {
      resource: 'webhooks',
      method: 'post',
      path: '/webhooks/:id/rotate-secret',
      summary: 'A new signing secret, shown this once; messages carry a signature with the old one too for the overlap (default 24 h), so receivers can switch without losing any.',
      parameters: [ID_PARAMETER, { name: 'overlap_s', in: 'query', type: 'integer', description: `Seconds the old secret still signs (0–${MAX_OVERLAP_S}; default ${settings.secretOverlapS})` }],
      responses: { 200: 'The subscription with its new secret', 400: 'A bad overlap_s', 403: 'A caller that may not manage webhooks', 404: 'No such subscription of the caller' },
      handler: async (req, res) => {
        const overlap = whole(req, 'overlap_s', 0, MAX_OVERLAP_S, settings.secretOverlapS);
        const { owner, subscription } = await owned(req);
        const rotated = await rotateSecret(db, subscription.id, overlap, owner);
        if (!rotated) throw new HttpError(404, `Webhook subscription ${subscription.id} not found`);
        res.json({ ...subscriptionView({ ...rotated, dead_letters: subscription.dead_letters }, req), secret: rotated.secret });
      },
    },
    {
      resource: 'webhooks',
      method: 'post',
      path: '/webhooks/:id/enable',
      summary: 'Activates a disabled subscription again: delivery goes on from where it stopped, its failures forgotten.',
      parameters: [ID_PARAMETER],
      responses: { 200: 'The subscription', 403: 'A caller that may not manage webhooks', 404: 'No such subscription of the caller' },
      handler: async (req, res) => {
        const { owner, subscription } = await owned(req);
        await enableSubscription(db, subscription.id, owner);
        res.json(subscriptionView((await getSubscription(db, subscription.id, owner))!, req));
      },
    },
    {
      resource: 'webhooks',
      method: 'get',
      path: '/webhooks/:id/dead-letters',
      summary: 'Messages of the subscription that failed for the whole retry window, newest first, with their last error; each can be replayed.',
      parameters: [ID_PARAMETER, { name: 'limit', in: 'query', type: 'integer', description: 'At most this many, 1–1000 (default 100)' }],
      responses: { 200: '{dead_letters: [...]}', 403: 'A caller that may not manage webhooks', 404: 'No such subscription of the caller' },
      handler: async (req, res) => {
        const limit = whole(req, 'limit', 1, 1000, 100);
        const { subscription } = await owned(req);
        res.json({ dead_letters: (await listDeadLetters(db, subscription.id, limit)).map(deadLetterView) });
      },
    },
    {
      resource: 'webhooks',
      method: 'post',
      path: '/webhooks/:id/dead-letters/:letterId/replay',
      summary: 'Queues a dead letter for delivery again (as it was first sent, same webhook-id), ahead of new changes.',
      parameters: [ID_PARAMETER, { name: 'letterId', in: 'path', type: 'integer', description: 'The dead letter id' }],
      responses: { 202: 'The dead letter, queued', 403: 'A caller that may not manage webhooks', 404: 'No such subscription of the caller, or no such dead letter' },
      handler: async (req, res) => {
        const { subscription } = await owned(req);
        const letterId = String(req.params.letterId);
        const letter = isRecordId(letterId) ? await requestReplay(db, subscription.id, letterId) : undefined;
        if (!letter) throw new HttpError(404, `Dead letter ${letterId.slice(0, 30)} of ${subscription.id} not found`);
        res.status(202).json(deadLetterView(letter));
      },
    },
  ];
}
