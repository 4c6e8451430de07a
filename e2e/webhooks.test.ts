// Webhooks as a receiving system sees them: an HTTP server on loopback gets
// each change of its owner's change feed, signed per Standard Webhooks, in
// order, at least once, and nothing the owner may not see. Deliveries come
// from gateways each test starts with its own settings (the suite's gateway
// serves the API but delivers nothing).
import { spawnSync } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO } from '@rex/admin';
import { startGateway, type ExtraGateway } from './support/gateway.ts';
import {
  DB_CLIENT,
  EDITOR_USER,
  SECOND_WEBSITE,
  WEBSITE_PASSWORD,
  addToWorld,
  api,
  dbQuery,
  eventually,
  sampleSubmission,
  setUpWorld,
  token,
} from './support/world.ts';

type Message = { type: string; timestamp: string; data: { entity: string; id: string; operation: string; at: string; values?: Record<string, string | null> } };
type Request = { id: string; timestamp: string; signature: string; body: string; message: Message; status: number | 'hung' };
type Answer = (request: Request, index: number) => number | 'hang';

const ADMIN_USER = 71;
const HOOKS = { id: 71, username: 'hookclient', secret: 'hook-client-secret', projId: 'HOOK', revokedProjId: 'HOOKR' };
const asWebsite = { Authorization: `WEBSITE_ID:${DEMO.websiteId}:SECRET:${WEBSITE_PASSWORD}` };
const asConnection = (projId: string) => ({ headers: { Authorization: `USER:${HOOKS.username}:SECRET:${HOOKS.secret}` }, query: `proj_id=${projId}` });

let demoToken: string;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  await setUpWorld();
  await addToWorld({
    users: [{ id: ADMIN_USER, username: 'hook-admin', websites: [{ website_id: DEMO.websiteId, role: 'admin' }] }],
    clients: [
      {
        id: HOOKS.id,
        username: HOOKS.username,
        secret: HOOKS.secret,
        connections: [
          { proj_id: HOOKS.projId, website_id: DEMO.websiteId, title: 'Hooks', sharing: 'reporting', allow_change_feed: true },
          { proj_id: HOOKS.revokedProjId, website_id: DEMO.websiteId, title: 'Hooks, revoked later', sharing: 'reporting', allow_change_feed: true },
        ],
      },
    ],
  });
  demoToken = await token();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  // A later test's gateways must not deliver this test's subscriptions.
  await dbQuery('DELETE FROM auth.webhook_subscriptions');
});

/** A receiving HTTP server on loopback: `answer` decides each request's status, or leaves it hanging. */
async function receiver(answer: Answer = () => 204) {
  const requests: Request[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const request: Request = {
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        body,
        message: JSON.parse(body) as Message,
        status: 'hung',
      };
      const status = answer(request, requests.length);
      requests.push(request);
      if (status === 'hang') {
        hanging.push(res);
        return;
      }
      request.status = status;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? 'the receiver is down' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    server.close();
  };
  cleanups.push(close);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    requests,
    /** Each message answered 2xx, once, in the order first delivered. */
    delivered: () => {
      const seen = new Set<string>();
      return requests.filter((r) => typeof r.status === 'number' && r.status < 300 && !seen.has(r.id) && seen.add(r.id));
    },
  };
}

/** A gateway that delivers webhooks, with a quick retry schedule unless `env` says otherwise. */
async function deliverer(env: Record<string, string> = {}): Promise<ExtraGateway> {
  const gateway = await startGateway(
    { authentication_methods: { jwtUser: { allow_http: true } } },
    { WEBHOOKS_ENABLED: 'true', WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_BACKOFF_BASE_MS: '100', WEBHOOK_BACKOFF_MAX_MS: '400', WEBHOOK_POLL_MS: '50', ...env },
  );
  cleanups.push(() => gateway.stop());
  return gateway;
}

async function subscribe(body: Record<string, unknown>, headers: Record<string, string> = asWebsite, query = ''): Promise<{ id: string; secret: string }> {
  const created = await api('POST', `/webhooks${query ? `?${query}` : ''}`, { headers, body });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

const webhook = (id: string, headers: Record<string, string> = asWebsite, query = '') => api('GET', `/webhooks/${id}${query ? `?${query}` : ''}`, { headers });

const named = (requests: Request[]) => requests.map((r) => `${r.message.type} ${r.message.data.id}`);
const headersOf = (request: Request) => ({ 'webhook-id': request.id, 'webhook-timestamp': request.timestamp, 'webhook-signature': request.signature });

type Change = { cursor: string; entity: string; id: string; operation: string; values?: Record<string, string | null> };

/** The website's change feed from `cursor` to its end. */
async function feedAsWebsite(cursor: string): Promise<Change[]> {
  const changes: Change[] = [];
  for (let page = 0; page < 1_000; page++) {
    const answer = await api('GET', `/changes?cursor=${cursor}&limit=1000`, { headers: asWebsite });
    expect(answer.status, answer.text).toBe(200);
    changes.push(...answer.body.changes);
    if (!answer.body.has_more) return changes;
    cursor = answer.body.next_cursor;
  }
  throw new Error('the feed did not end');
}

const feedNow = async (): Promise<string> => (await api('GET', '/changes', { headers: asWebsite })).body.next_cursor;

async function createSample(occurrences: Record<string, unknown>[] = [], bearer = demoToken, values: Record<string, unknown> = {}) {
  const created = await api('POST', '/samples', { token: bearer, body: sampleSubmission(values, { occurrences: occurrences.map((v) => ({ values: { taxa_taxon_list_id: 1, ...v } })) }) });
  expect(created.status, created.text).toBe(201);
  const occurrenceIds: string[] = (created.body.occurrences ?? []).map((o: { values: { id: string } }) => String(o.values.id));
  return { sampleId: String(created.body.values.id), occurrenceIds };
}

describe('webhook deliveries', () => {
  it('when records are created, changed and deleted, then each change arrives signed, verifiable with a Standard Webhooks library, with the values the feed gives the owner', async () => {
    const hooks = await receiver();
    const { id, secret } = await subscribe({ url: hooks.url, event_types: ['sample.created', 'occurrence.created', 'occurrence.updated', 'occurrence.deleted'] });
    expect(id).toMatch(/^wh_/);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const start = await feedNow();
    await deliverer();

    const { sampleId, occurrenceIds } = await createSample([{ comment: 'first' }, { comment: 'second' }]);
    const [kept, removed] = occurrenceIds;
    await eventually(async () => expect(named(hooks.delivered())).toEqual([`sample.created ${sampleId}`, `occurrence.created ${kept}`, `occurrence.created ${removed}`]));
    expect((await api('PUT', `/occurrences/${kept}`, { token: demoToken, body: { values: { comment: 'seen again' } } })).status).toBe(200);
    await eventually(async () => expect(named(hooks.delivered())).toContain(`occurrence.updated ${kept}`));
    expect((await api('DELETE', `/occurrences/${removed}`, { token: demoToken })).status).toBe(204);
    await eventually(async () => expect(named(hooks.delivered())).toContain(`occurrence.deleted ${removed}`));

    const verifier = new Webhook(secret);
    for (const request of hooks.delivered()) {
      expect(verifier.verify(request.body, headersOf(request))).toEqual(request.message);
      expect(request.id).toMatch(/^msg_[A-Za-z0-9_-]{27}$/);
      expect(Math.abs(Number(request.timestamp) - Date.now() / 1000)).toBeLessThan(60);
    }
    // The signature covers the body: a changed one does not verify.
    const first = hooks.delivered()[0];
    expect(() => verifier.verify(first.body.replace(sampleId, `${sampleId}0`), headersOf(first))).toThrow();
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(first.body, headersOf(first))).toThrow();

    const [created, , , updated, deleted] = hooks.delivered().map((r) => r.message);
    expect(created).toMatchObject({ type: 'sample.created', data: { entity: 'sample', id: sampleId, operation: 'created', values: { id: sampleId } } });
    expect(created.timestamp).toBe(created.data.at);
    expect(updated.data.values).toMatchObject({ id: kept, comment: 'seen again', sample_id: sampleId });
    expect(deleted).toMatchObject({ type: 'occurrence.deleted', data: { entity: 'occurrence', id: removed, operation: 'deleted' } });
    expect(deleted.data).not.toHaveProperty('values');
    // The same values the change feed gives the website for that change.
    const feed = await feedAsWebsite(start);
    const fromFeed = feed.find((change) => change.entity === 'occurrence' && change.id === kept && change.operation === 'updated');
    expect(updated.data.values).toEqual(fromFeed!.values);
    expect(new Set(hooks.delivered().map((r) => r.id)).size).toBe(5);

    await eventually(async () => {
      const state = await webhook(id);
      expect(state.body).toMatchObject({ id, state: 'active', delivered: 5, failing_since: null, dead_letters: 0, event_types: ['sample.created', 'occurrence.created', 'occurrence.updated', 'occurrence.deleted'] });
      expect(state.body).not.toHaveProperty('secret');
    });
  });

  it('when the receiver fails five times and then recovers, then it gets every change of the feed once it recovers, in order, the failed message again with the same webhook-id', async () => {
    const start = await feedNow();
    const hooks = await receiver((_request, index) => (index < 5 ? 500 : 200));
    const types = ['sample.created', 'sample.updated', 'occurrence.created', 'occurrence.updated', 'occurrence.deleted'];
    const { id } = await subscribe({ url: hooks.url, event_types: types });
    const { sampleId, occurrenceIds } = await createSample([{ comment: 'a' }, { comment: 'b' }, { comment: 'c' }]);
    for (const occurrence of occurrenceIds) {
      for (const comment of ['once', 'twice']) expect((await api('PUT', `/occurrences/${occurrence}`, { token: demoToken, body: { values: { comment } } })).status).toBe(200);
    }
    expect((await api('DELETE', `/occurrences/${occurrenceIds[2]}`, { token: demoToken })).status).toBe(204);
    const mine = (change: { entity: string; id: string; operation: string }) =>
      types.includes(`${change.entity}.${change.operation}`) && (change.entity === 'sample' ? change.id === sampleId : occurrenceIds.includes(change.id));
    // Everything is in the feed before delivery starts.
    const feed = await eventually(async () => {
      const changes = (await feedAsWebsite(start)).filter(mine);
      expect(changes.some((change) => change.operation === 'deleted')).toBe(true);
      return changes;
    });
    await deliverer();

    const expected = feed.map((change) => `${change.entity}.${change.operation} ${change.id}`);
    const received = () => named(hooks.delivered().filter((r) => mine(r.message.data)));
    await eventually(async () => expect(received()).toEqual(expected), 20_000);
    const failures = hooks.requests.slice(0, 5);
    expect(failures.map((r) => r.status)).toEqual([500, 500, 500, 500, 500]);
    // The head message was retried and then delivered: the same id and body every time.
    expect(new Set(hooks.requests.slice(0, 6).map((r) => r.id)).size).toBe(1);
    expect(new Set(hooks.requests.slice(0, 6).map((r) => r.body)).size).toBe(1);
    // In order per record: each record's operations as the feed has them.
    for (const record of [sampleId, ...occurrenceIds]) {
      expect(received().filter((n) => n.endsWith(` ${record}`))).toEqual(expected.filter((n) => n.endsWith(` ${record}`)));
    }
    await eventually(async () => {
      const state = await webhook(id);
      expect(state.body).toMatchObject({ state: 'active', failing_since: null, attempts: 0, last_error: 'HTTP 500: the receiver is down', delivered: expected.length });
    });
  });

  it("when a client connection subscribes, then it never receives a record the connection may not see, its filter decides among the rest, and revoking its allow_change_feed disables delivery", async () => {
    const all = await receiver();
    const birdsOnly = await receiver();
    const connection = asConnection(HOOKS.revokedProjId);
    const types = ['sample.created', 'occurrence.created'];
    const { id } = await subscribe({ url: all.url, event_types: types }, connection.headers, connection.query);
    await subscribe({ url: birdsOnly.url, event_types: types, filter: { taxon_group: 'no such group', survey_id: DEMO.surveyId } }, connection.headers, connection.query);
    await deliverer();

    const hidden = await createSample([{ comment: 'open' }, { comment: 'confidential', confidential: true }, { comment: 'unreleased', release_status: 'U' }]);
    const [open, confidential, unreleased] = hidden.occurrenceIds;
    const second = await token({ key: 'second', userId: SECOND_WEBSITE.userId });
    const elsewhere = await createSample([{}], second, { survey_id: SECOND_WEBSITE.surveyId });
    const marker = await createSample([{ comment: 'marker' }]);
    await eventually(async () => expect(named(all.delivered())).toContain(`occurrence.created ${marker.occurrenceIds[0]}`));

    const ids = all.delivered().map((r) => `${r.message.data.entity} ${r.message.data.id}`);
    expect(ids).toContain(`occurrence ${open}`);
    for (const unseen of [`occurrence ${confidential}`, `occurrence ${unreleased}`, `sample ${elsewhere.sampleId}`, `occurrence ${elsewhere.occurrenceIds[0]}`]) expect(ids).not.toContain(unseen);
    // A record without the filter's field, or with another value, does not pass.
    expect(birdsOnly.requests).toEqual([]);

    await dbQuery('UPDATE auth.client_connections SET allow_change_feed = false WHERE client_id = $1 AND proj_id = $2', [HOOKS.id, HOOKS.revokedProjId]);
    const after = await createSample([{ comment: 'after the revocation' }]);
    await eventually(async () => {
      const [row] = await dbQuery<{ state: string; disabled_reason: string }>('SELECT state, disabled_reason FROM auth.webhook_subscriptions WHERE id = $1', [id]);
      expect(row).toEqual({ state: 'disabled', disabled_reason: `Connection ${HOOKS.revokedProjId} may no longer read the change feed (allow_change_feed).` });
    });
    // Give a delivery that should not happen the time to happen.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const everything = all.requests.map((r) => `${r.message.data.entity} ${r.message.data.id}`);
    expect(everything).not.toContain(`sample ${after.sampleId}`);
    expect(everything).not.toContain(`occurrence ${after.occurrenceIds[0]}`);
    const refused = await webhook(id, connection.headers, connection.query);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/allow_change_feed/);
  });

  it('when the delivering replica is killed in the middle of a batch, then the other finishes it once the lease runs out: nothing is lost, the interrupted message comes again with the same webhook-id', async () => {
    let interrupted: Request | undefined;
    const hooks = await receiver((request, index) => {
      if (index === 2 && !interrupted) {
        interrupted = request;
        return 'hang';
      }
      return 204;
    });
    await subscribe({ url: hooks.url, event_types: ['sample.created', 'occurrence.created'] });
    const env = { WEBHOOK_LEASE_S: '4', WEBHOOK_TIMEOUT_MS: '2000' };
    const replicas = [await deliverer(env), await deliverer(env)];
    const { sampleId, occurrenceIds } = await createSample([{}, {}, {}, {}, {}]);
    const expected = [`sample.created ${sampleId}`, ...occurrenceIds.map((o) => `occurrence.created ${o}`)];

    await eventually(async () => expect(interrupted).toBeDefined());
    const [{ leased_by: holder }] = await dbQuery<{ leased_by: string }>('SELECT leased_by FROM auth.webhook_subscriptions');
    const delivering = replicas.find((replica) => holder.includes(`/${replica.pid}/`))!;
    expect(delivering).toBeDefined();
    process.kill(delivering.pid, 'SIGKILL');

    await eventually(async () => expect(named(hooks.delivered())).toEqual(expected), 20_000);
    const again = hooks.requests.filter((r) => r.id === interrupted!.id);
    expect(again.map((r) => r.status)).toEqual(['hung', 204]);
    expect(again[1].body).toBe(interrupted!.body);
  });

  it('when a replica that sends to https:// only takes an http:// subscription, then it sends nothing and the subscription shows why its deliveries fail', async () => {
    const hooks = await receiver(() => 204);
    const { id } = await subscribe({ url: hooks.url, event_types: ['sample.created'] });
    await deliverer({ WEBHOOKS_ALLOW_HTTP: 'false' });
    await createSample();
    await eventually(async () => {
      const state = await webhook(id);
      expect(state.body).toMatchObject({ state: 'active', last_error: 'This gateway sends to https:// only (WEBHOOKS_ALLOW_HTTP).', delivered: 0 });
      expect(state.body.attempts).toBeGreaterThan(0);
    });
    expect(hooks.requests).toEqual([]);
  });

  it('when a replica that sends to public addresses only takes a subscription at loopback, then it connects to nothing and the subscription shows why its deliveries fail', async () => {
    const hooks = await receiver(() => 204);
    const { id } = await subscribe({ url: hooks.url, event_types: ['sample.created'] });
    await deliverer({ WEBHOOKS_ALLOW_PRIVATE: 'false' });
    await createSample();
    await eventually(async () => {
      const state = await webhook(id);
      expect(state.body).toMatchObject({
        state: 'active',
        last_error: 'The receiver is not at a public address; this gateway sends to public addresses only (WEBHOOKS_ALLOW_PRIVATE).',
        delivered: 0,
      });
      expect(state.body.attempts).toBeGreaterThan(0);
    });
    expect(hooks.requests).toEqual([]);
  });

  it('when a message fails for the whole retry window, then it becomes a dead letter and delivery goes on; failing for longer disables the subscription with the reason; enabled again it goes on, and a replayed dead letter arrives', async () => {
    let down = true;
    const hooks = await receiver(() => (down ? 503 : 204));
    const { id } = await subscribe({ url: hooks.url, event_types: ['sample.created'] });
    const samples = [];
    for (let i = 0; i < 4; i++) samples.push((await createSample()).sampleId);
    await deliverer({ WEBHOOK_RETRY_FOR_S: '1', WEBHOOK_DISABLE_AFTER_S: '3' });

    const disabled = await eventually(async () => {
      const state = await webhook(id);
      expect(state.body.state).toBe('disabled');
      return state.body;
    }, 20_000);
    expect(disabled.disabled_reason).toMatch(/^Failing since \d{4}-\d\d-\d\dT.*Z; last error: HTTP 503: the receiver is down$/);
    expect(disabled.failing_since).toEqual(expect.any(String));
    expect(disabled.last_error).toBe('HTTP 503: the receiver is down');
    const letters = await api('GET', `/webhooks/${id}/dead-letters`, { headers: asWebsite });
    expect(letters.status, letters.text).toBe(200);
    const dead = letters.body.dead_letters as { id: string; message_id: string; type: string; payload: Message; state: string; attempts: number; last_error: string }[];
    // Each message gets its own window: the first two (at least) died, in order.
    expect(dead.length).toBeGreaterThanOrEqual(2);
    expect(dead.map((letter) => letter.payload.data.id).reverse()).toEqual(samples.slice(0, dead.length));
    expect(dead.every((letter) => letter.state === 'dead' && letter.type === 'sample.created' && letter.attempts >= 2 && letter.last_error === 'HTTP 503: the receiver is down')).toBe(true);
    expect(disabled.dead_letters).toBe(dead.length);
    const firstLetter = dead.at(-1)!;
    const failedAttempts = hooks.requests.filter((r) => r.id === firstLetter.message_id);
    expect(failedAttempts.length).toBe(firstLetter.attempts);
    expect(failedAttempts[0].message).toEqual(firstLetter.payload);

    // Disabled: nothing is sent any more.
    const sent = hooks.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(hooks.requests.length).toBe(sent);

    down = false;
    const enabled = await api('POST', `/webhooks/${id}/enable`, { headers: asWebsite });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body).toMatchObject({ state: 'active', disabled_reason: null, failing_since: null });
    const rest = samples.slice(dead.length);
    await eventually(async () => expect(hooks.delivered().map((r) => r.message.data.id)).toEqual(rest));

    const replay = await api('POST', `/webhooks/${id}/dead-letters/${firstLetter.id}/replay`, { headers: asWebsite });
    expect(replay.status, replay.text).toBe(202);
    expect(replay.body).toMatchObject({ id: firstLetter.id, state: 'queued', replay_requested_on: expect.any(String) });
    await eventually(async () => expect(hooks.delivered().map((r) => r.id)).toContain(firstLetter.message_id));
    const redelivered = hooks.delivered().find((r) => r.id === firstLetter.message_id)!;
    expect(new Webhook((await dbQuery<{ secret: string }>('SELECT secret FROM auth.webhook_subscriptions WHERE id = $1', [id]))[0].secret).verify(redelivered.body, headersOf(redelivered))).toEqual(firstLetter.payload);
    await eventually(async () => {
      const after = await api('GET', `/webhooks/${id}/dead-letters`, { headers: asWebsite });
      expect(after.body.dead_letters.find((letter: { id: string }) => letter.id === firstLetter.id)).toMatchObject({ state: 'replayed', replayed_on: expect.any(String) });
      expect((await webhook(id)).body.dead_letters).toBe(dead.length - 1);
    });
    expect((await api('POST', `/webhooks/${id}/dead-letters/999999/replay`, { headers: asWebsite })).status).toBe(404);
  });

  it('when the secret is rotated, then messages carry both signatures during the overlap, each verifiable with its secret, and only the new one after it', async () => {
    const hooks = await receiver();
    const { id, secret: first } = await subscribe({ url: hooks.url, event_types: ['sample.created'] });
    await deliverer();
    const delivery = async () => {
      const { sampleId } = await createSample();
      return eventually(async () => {
        const found = hooks.delivered().find((r) => r.message.data.id === sampleId);
        expect(found).toBeDefined();
        return found!;
      });
    };

    const before = await delivery();
    expect(before.signature.split(' ')).toHaveLength(1);
    new Webhook(first).verify(before.body, headersOf(before));

    const rotated = await api('POST', `/webhooks/${id}/rotate-secret`, { headers: asWebsite });
    expect(rotated.status, rotated.text).toBe(200);
    const second = rotated.body.secret as string;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    expect(Date.parse(rotated.body.previous_secret_valid_until) - Date.now()).toBeGreaterThan(86_300_000);
    const during = await delivery();
    expect(during.signature.split(' ')).toHaveLength(2);
    expect(new Webhook(first).verify(during.body, headersOf(during))).toEqual(during.message);
    expect(new Webhook(second).verify(during.body, headersOf(during))).toEqual(during.message);

    const ended = await api('POST', `/webhooks/${id}/rotate-secret?overlap_s=0`, { headers: asWebsite });
    expect(ended.status, ended.text).toBe(200);
    expect(ended.body.previous_secret_valid_until).toBeNull();
    const after = await delivery();
    expect(after.signature.split(' ')).toHaveLength(1);
    expect(new Webhook(ended.body.secret).verify(after.body, headersOf(after))).toEqual(after.message);
    expect(() => new Webhook(second).verify(after.body, headersOf(after))).toThrow();
  });
});

describe('the webhooks API', () => {
  it('when a caller manages subscriptions, then websites, their administrators and connections allowed the change feed may, each seeing only its own; others are refused with JSON', async () => {
    const body = { url: 'https://receiver.example.org/hooks', event_types: ['occurrence.created'] };
    const admin = await token({ userId: ADMIN_USER });
    const byAdmin = await api('POST', '/webhooks', { token: admin, body });
    expect(byAdmin.status, byAdmin.text).toBe(201);
    expect(byAdmin.headers.get('location')).toBe(byAdmin.body.href);
    expect(byAdmin.body).toMatchObject({ url: body.url, owner: { website_id: String(DEMO.websiteId) }, state: 'active', filter: {} });
    // The administrator's subscription is the website's.
    expect((await api('GET', '/webhooks', { headers: asWebsite })).body.webhooks.map((w: { id: string }) => w.id)).toEqual([byAdmin.body.id]);

    const connection = asConnection(HOOKS.projId);
    const byConnection = await subscribe({ ...body, filter: { survey_id: String(DEMO.surveyId), taxon_group: 'birds' } }, connection.headers, connection.query);
    const listed = await api('GET', `/webhooks?${connection.query}`, { headers: connection.headers });
    expect(listed.body.webhooks).toEqual([expect.objectContaining({ id: byConnection.id, filter: { survey_id: String(DEMO.surveyId), taxon_group: 'birds' }, owner: { website_id: String(DEMO.websiteId), client_id: String(HOOKS.id), proj_id: HOOKS.projId } })]);
    // Another owner's subscription is not found.
    expect((await webhook(byConnection.id)).status).toBe(404);
    expect((await webhook(byAdmin.body.id, connection.headers, connection.query)).status).toBe(404);
    expect((await api('DELETE', `/webhooks/${byAdmin.body.id}?${connection.query}`, { headers: connection.headers })).status).toBe(404);
    const secondWebsite = { Authorization: `WEBSITE_ID:${SECOND_WEBSITE.id}:SECRET:second-password` };
    expect((await webhook(byAdmin.body.id, secondWebsite)).status).toBe(404);
    expect((await api('GET', '/webhooks', { headers: secondWebsite })).body.webhooks).toEqual([]);

    const refusals: [string, Parameters<typeof api>[2], RegExp][] = [
      ['a user', { token: demoToken }, /administrators/],
      ['an editor', { token: await token({ userId: EDITOR_USER }) }, /administrators/],
      ['a website without a user (jwtUser)', { token: await token({ userId: null }) }, /administrators/],
      ['a connection without allow_change_feed', { headers: { Authorization: `USER:${DB_CLIENT.username}:SECRET:${DB_CLIENT.secret}` } }, /allow_change_feed/],
    ];
    for (const [who, options, message] of refusals) {
      const query = who.startsWith('a connection') ? `?proj_id=${DB_CLIENT.projId}` : '';
      for (const [method, path] of [['GET', '/webhooks'], ['POST', '/webhooks'], ['GET', `/webhooks/${byAdmin.body.id}`]] as const) {
        const answer = await api(method, `${path}${query}`, { ...options, body: method === 'POST' ? body : undefined });
        expect(answer.status, `${who} ${method} ${path}`).toBe(403);
        expect(answer.body, who).toMatchObject({ code: 403, message: expect.stringMatching(message) });
      }
    }
    expect((await api('GET', '/webhooks')).status).toBe(401);

    expect((await api('DELETE', `/webhooks/${byAdmin.body.id}`, { headers: asWebsite })).status).toBe(204);
    expect((await webhook(byAdmin.body.id)).status).toBe(404);
    expect((await api('DELETE', `/webhooks/${byAdmin.body.id}`, { headers: asWebsite })).status).toBe(404);
  });

  it('when a subscription is not valid, then a JSON 400 names the field; too many are refused; http:// only where allowed', async () => {
    const valid = { url: 'https://receiver.example.org/hooks', event_types: ['sample.created'] };
    const cases: [unknown, string, RegExp][] = [
      [{ ...valid, url: 'ftp://receiver.example.org/' }, 'webhook:url', /https/],
      [{ ...valid, url: 'https://user:secret@receiver.example.org/' }, 'webhook:url', /credentials/],
      [{ ...valid, url: `https://receiver.example.org/${'a'.repeat(2_000)}` }, 'webhook:url', /2000/],
      [{ ...valid, url: 'not a url' }, 'webhook:url', /spaces|URL/],
      [{ ...valid, url: undefined }, 'webhook:url', /required/],
      [{ ...valid, event_types: [] }, 'webhook:event_types', /one or more/],
      [{ ...valid, event_types: ['sample.created', 'planet.created'] }, 'webhook:event_types', /planet\.created/],
      [{ ...valid, filter: { survey_id: 'three' } }, 'webhook:filter.survey_id', /survey id/],
      [{ ...valid, filter: { colour: 'red' } }, 'webhook:filter.colour', /Unknown filter/],
      [{ ...valid, filter: 'birds' }, 'webhook:filter', /object/],
      [{ ...valid, secret: 'mine' }, 'webhook:secret', /Unknown field/],
      [[valid], 'webhook:body', /object/],
    ];
    for (const [body, field, message] of cases) {
      const answer = await api('POST', '/webhooks', { headers: asWebsite, body });
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.message[field], field).toMatch(message);
    }
    const notJson = await api('POST', '/webhooks', { headers: { ...asWebsite, 'Content-Type': 'text/plain' }, body: 'url=x' });
    expect(notJson.status).toBe(415);
    const badJson = await api('POST', '/webhooks', { headers: asWebsite, body: '{"url":' });
    expect(badJson.status).toBe(400);
    expect(badJson.body.code).toBe(400);
    expect((await api('POST', '/webhooks/wh_x/rotate-secret?overlap_s=-1', { headers: asWebsite })).status).toBe(400);

    for (let i = 0; i < 10; i++) await subscribe(valid);
    const tooMany = await api('POST', '/webhooks', { headers: asWebsite, body: valid });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/10 webhook subscriptions, the most allowed/);

    // A gateway with the default settings takes https:// only.
    const strict = await startGateway({ authentication_methods: { directWebsite: { allow_http: true } } }, { WEBHOOKS_ENABLED: 'false' });
    cleanups.push(() => strict.stop());
    await dbQuery('DELETE FROM auth.webhook_subscriptions');
    const plain = await api('POST', `${strict.services}/webhooks`, { headers: asWebsite, body: { ...valid, url: 'http://127.0.0.1:9/hooks' } });
    expect(plain.status).toBe(400);
    expect(plain.body.message['webhook:url']).toBe('The URL must be https://.');
    // Nor an address inside the network, however it is written.
    for (const url of ['https://127.0.0.1:9/hooks', 'https://169.254.169.254/latest', 'https://[::1]/hooks', 'https://0x0a.1.2.3/', 'https://localhost/hooks']) {
      const inside = await api('POST', `${strict.services}/webhooks`, { headers: asWebsite, body: { ...valid, url } });
      expect(inside.status, url).toBe(400);
      expect(inside.body.message['webhook:url'], url).toMatch(/not at a public address/);
    }
    expect((await api('POST', `${strict.services}/webhooks`, { headers: asWebsite, body: valid })).status).toBe(201);
  });

  it('when an operator uses npm run admin -- webhooks, then subscriptions are added (with a secret), listed, disabled with a reason, enabled, rotated, and removed', async () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const admin = (...args: string[]) => {
      const result = spawnSync(process.execPath, ['scripts/bootstrap.mjs', 'admin', 'webhooks', ...args], { cwd: root, env: { ...process.env, DATABASE_URL: inject('databaseUrl') }, encoding: 'utf8' });
      return { status: result.status ?? -1, out: result.stdout, err: result.stderr };
    };
    const added = admin('add', '--website-id', String(DEMO.websiteId), '--client-id', String(HOOKS.id), '--proj-id', HOOKS.projId, '--url', 'https://receiver.example.org/cli', '--event-types', 'occurrence.created, occurrence.deleted', '--taxon-group', 'birds');
    expect(added.status, added.err).toBe(0);
    const [, id, secret] = /webhook (wh_\S+) added; secret: (whsec_\S+)/.exec(added.out)!;
    expect(secret).toBeDefined();
    const connection = asConnection(HOOKS.projId);
    expect((await webhook(id, connection.headers, connection.query)).body).toMatchObject({ event_types: ['occurrence.created', 'occurrence.deleted'], filter: { taxon_group: 'birds' } });

    expect(admin('list').out).toMatch(new RegExp(`${id}\\s+${DEMO.websiteId}\\s+${HOOKS.id}:${HOOKS.projId}\\s+https://receiver.example.org/cli`));
    expect(admin('disable', '--id', id, '--reason', 'The receiver moved.').status).toBe(0);
    expect((await webhook(id, connection.headers, connection.query)).body).toMatchObject({ state: 'disabled', disabled_reason: 'The receiver moved.' });
    expect(admin('enable', '--id', id).status).toBe(0);
    expect((await webhook(id, connection.headers, connection.query)).body).toMatchObject({ state: 'active', disabled_reason: null });
    const rotated = admin('rotate-secret', '--id', id, '--overlap-s', '60');
    expect(rotated.out).toMatch(/secret: whsec_\S+ \(the old one signs until/);
    expect(admin('dead-letters', '--id', id).out.trim()).toBe('(none)');

    const refused = admin('add', '--website-id', String(DEMO.websiteId), '--url', 'http://receiver.example.org/', '--event-types', 'sample.moved');
    expect(refused.status).toBe(1);
    expect(refused.err).toMatch(/webhook:url: The URL must be https:\/\//);
    expect(refused.err).toMatch(/webhook:event_types: Unknown event types "sample.moved"/);
    expect(admin('add', '--website-id', String(DEMO.websiteId), '--client-id', String(DB_CLIENT.id), '--proj-id', DB_CLIENT.projId, '--url', 'https://x.example.org/', '--event-types', 'sample.created').err).toMatch(/may not read the change feed/);

    expect(admin('remove', '--id', id).status).toBe(0);
    expect((await webhook(id, connection.headers, connection.query)).status).toBe(404);
    expect(admin('remove', '--id', id).err).toMatch(/not found/);
  }, 120_000);
});
