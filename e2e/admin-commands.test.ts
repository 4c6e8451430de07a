import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, inject } from 'vitest';
import { DEMO } from '@rex/admin';
import { startGateway, type ExtraGateway } from './support/gateway.ts';
import { api, dbQuery, eventually, keyPair, sampleSubmission, setUpWorld, token } from './support/world.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'rex-admin-commands-'));

/** `pnpm admin <args>` as an operator runs it. */
function admin(...args: string[]): { status: number; out: string; err: string } {
  return adminWithInput(undefined, ...args);
}

/** The same, with `input` on its standard input. */
function adminWithInput(input: string | undefined, ...args: string[]): { status: number; out: string; err: string } {
  const result = spawnSync(process.execPath, ['scripts/bootstrap.mjs', 'admin', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: inject('databaseUrl') },
    encoding: 'utf8',
    input,
  });
  return { status: result.status ?? -1, out: result.stdout, err: result.stderr };
}

let gateway: ExtraGateway;
const suffix = Date.now().toString(36);

beforeAll(async () => {
  await setUpWorld();
  gateway = await startGateway({
    authentication_methods: { jwtUser: { allow_http: true }, directClient: { allow_http: true }, directUser: { allow_http: true } },
  });
  return () => gateway.stop();
});

describe('pnpm admin: websites and users', () => {
  it('when a website is added with a key and a user given a role, then a token of that website works for that user', async () => {
    const keys = keyPair();
    const keyFile = join(dir, 'key.pem');
    writeFileSync(keyFile, keys.publicKey);
    const url = `https://site-${suffix}.example.org`;
    const added = admin('websites', 'add', '--title', 'Added', '--url', url, '--public-key-file', keyFile);
    expect(added.status, added.err).toBe(0);
    const websiteId = /website (\d+) added; password: (\S+)/.exec(added.out)![1];
    const user = admin('users', 'add', '--username', `someone-${suffix}`);
    const userId = /user (\d+) added/.exec(user.out)![1];
    expect(admin('users', 'role', '--id', userId, '--website-id', websiteId, '--role', 'user').status).toBe(0);
    expect(admin('users', 'list', '--website-id', websiteId).out).toContain(`${websiteId}:user`);

    const bearer = await token({ issuer: url, pem: keys.privateKey, userId: Number(userId) });
    const list = await api('GET', `${gateway.services}/samples`, { token: bearer });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);

    expect(admin('users', 'role', '--id', userId, '--website-id', websiteId, '--role', 'none').status).toBe(0);
    expect((await api('GET', `${gateway.services}/samples`, { token: bearer })).status).toBe(403);
    expect(admin('websites', 'disable', '--id', websiteId).status).toBe(0);
    expect((await api('GET', `${gateway.services}/samples`, { token: bearer })).status).toBe(401);
  });

  it("when a website's password is rotated, then the old one stops working and the new one works", async () => {
    const onCommandLine = admin('websites', 'rotate-password', '--id', String(DEMO.websiteId), '--password', 'rotated-password');
    expect(onCommandLine.status).not.toBe(0);
    expect(onCommandLine.err).toMatch(/--password-file <file> or --password -/);
    const rotated = adminWithInput('rotated-password\n', 'websites', 'rotate-password', '--id', String(DEMO.websiteId), '--password', '-');
    expect(rotated.status, rotated.err).toBe(0);
    const header = (secret: string) => ({ Authorization: `USER_ID:${DEMO.userId}:WEBSITE_ID:${DEMO.websiteId}:SECRET:${secret}` });
    try {
      expect((await api('GET', `${gateway.services}/samples`, { headers: header('demo-website-password') })).status).toBe(401);
      expect((await api('GET', `${gateway.services}/samples`, { headers: header('rotated-password') })).status).toBe(200);
    } finally {
      const file = join(dir, 'password');
      writeFileSync(file, 'demo-website-password\n', { mode: 0o600 });
      expect(admin('websites', 'rotate-password', '--id', String(DEMO.websiteId), '--password-file', file).status).toBe(0);
    }
  });

  it('when a user is disabled, then their tokens are refused', async () => {
    const user = admin('users', 'add', '--username', `leaver-${suffix}`);
    const userId = /user (\d+) added/.exec(user.out)![1];
    admin('users', 'role', '--id', userId, '--website-id', String(DEMO.websiteId), '--role', 'user');
    const bearer = await token({ userId: Number(userId) });
    expect((await api('POST', `${gateway.services}/samples`, { token: bearer, body: sampleSubmission() })).status).toBe(201);
    expect(admin('users', 'disable', '--id', userId).status).toBe(0);
    expect((await api('POST', `${gateway.services}/samples`, { token: bearer, body: sampleSubmission() })).status).toBe(403);
  });
});

describe('pnpm admin: clients and connections', () => {
  it('when a client and connection are added, then the printed secret works; a rotated secret replaces it; disabling refuses it', async () => {
    const added = admin('clients', 'add', '--username', `client-${suffix}`);
    expect(added.status, added.err).toBe(0);
    const [, clientId, secret] = /client (\d+) added; secret: (\S+)/.exec(added.out)!;
    expect(admin('connections', 'add', '--client-id', clientId, '--proj-id', 'CP', '--website-id', String(DEMO.websiteId), '--title', 'Project').status).toBe(0);
    const get = (s: string) => api('GET', `${gateway.services}/samples/1?proj_id=CP`, { headers: { Authorization: `USER:client-${suffix}:SECRET:${s}` } });

    expect((await get(secret)).status).toBe(403);
    const rotated = admin('clients', 'rotate-secret', '--id', clientId);
    const newSecret = /secret: (\S+)/.exec(rotated.out)![1];
    expect((await get(secret)).status).toBe(401);
    expect((await get(newSecret)).status).toBe(403);

    expect(admin('connections', 'update', '--client-id', clientId, '--proj-id', 'CP', '--no-allow-data-resources').status).toBe(0);
    expect((await get(newSecret)).body.message).toBe('Access to data resources unauthorised');
    expect(admin('connections', 'disable', '--client-id', clientId, '--proj-id', 'CP').status).toBe(0);
    expect((await get(newSecret)).status).toBe(401);
    expect(admin('clients', 'disable', '--id', clientId).status).toBe(0);
    expect((await get(newSecret)).status).toBe(401);
    expect(admin('clients', 'list').out).toMatch(new RegExp(`${clientId}\\s+client-${suffix}`));
  });

  it('when a command is wrong, then it says what is wrong and exits non-zero', () => {
    expect(admin('websites', 'update', '--id', '987654').err).toMatch(/nothing to change/);
    expect(admin('websites', 'update', '--id', '987654', '--title', 'x').err).toMatch(/website 987654 not found/);
    expect(admin('users', 'role', '--id', '1', '--website-id', '1', '--role', 'king').err).toMatch(/unknown role king/);
    const unknown = admin('planets', 'list');
    expect(unknown.status).toBe(2);
    expect(unknown.err).toMatch(/unknown command planets list/);
    expect(admin('clients', 'add').err).toMatch(/needs --username/);
  });
});

describe('pnpm admin: groups, sample methods and licences', () => {
  it('when a group and a sample method are added, then samples may name them; once the group is disabled, they may not', async () => {
    const websiteId = String(DEMO.websiteId);
    const added = admin('groups', 'add', '--website-id', websiteId, '--title', `Watchers ${suffix}`, '--code', 'GW');
    expect(added.status, added.err).toBe(0);
    const groupId = /group (\d+) added to website/.exec(added.out)![1];
    expect(admin('groups', 'list', '--website-id', websiteId).out).toMatch(new RegExp(`${groupId}\\s+${websiteId}\\s+Watchers ${suffix}\\s+GW`));
    const method = admin('sample-methods', 'add', '--term', `Transect ${suffix}`);
    expect(method.status, method.err).toBe(0);
    const methodId = /sample method (\d+) added/.exec(method.out)![1];
    expect(admin('sample-methods', 'list').out).toMatch(new RegExp(`${methodId}\\s+Transect ${suffix}`));
    const licence = admin('licences', 'add', '--code', `CC-BY-SA-${suffix}`, '--title', 'Creative Commons Attribution-ShareAlike', '--version', '4.0');
    expect(licence.status, licence.err).toBe(0);
    const licenceId = /licence (\d+) added/.exec(licence.out)![1];
    expect(admin('licences', 'list').out).toMatch(/3\s+CC0/);

    const bearer = await token();
    const values = { group_id: groupId, sample_method_id: methodId, licence_id: licenceId };
    const saved = await api('POST', '/samples', { token: bearer, body: sampleSubmission(values) });
    expect(saved.status, saved.text).toBe(201);
    expect((await api('GET', `/samples/${saved.body.values.id}`, { token: bearer })).body.values).toMatchObject(values);

    expect(admin('groups', 'update', '--id', groupId, '--title', `Garden watchers ${suffix}`).status).toBe(0);
    expect(admin('groups', 'disable', '--id', groupId).status).toBe(0);
    const refused = await api('POST', '/samples', { token: bearer, body: sampleSubmission(values) });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toEqual({ 'sample:group_id': `The group ${groupId} is not a group of this website.` });
  });

  it('when a group is added to a website that does not exist, then it says so and exits non-zero', () => {
    const missing = admin('groups', 'add', '--website-id', '987654', '--title', 'Nowhere');
    expect(missing.status).not.toBe(0);
    expect(missing.err).toMatch(/website 987654 not found/);
    expect(admin('groups', 'disable', '--id', '987654').err).toMatch(/group 987654 not found/);
  });
});

describe('admin changes apply at once', () => {
  // Caches that would keep every answer for an hour: only the auth schema's notifications can make a change show.
  const HOUR = { AUTH_CACHE_TTL_MS: '3600000' };
  let replicas: ExtraGateway[];

  beforeAll(async () => {
    const config = { authentication_methods: { jwtUser: { allow_http: true }, directClient: { allow_http: true } } };
    replicas = [await startGateway(config, HOUR), await startGateway(config, HOUR)];
    return () => replicas.forEach((replica) => replica.stop());
  });

  const statuses = (request: (replica: ExtraGateway) => Promise<{ status: number }>) => Promise.all(replicas.map(async (replica) => (await request(replica)).status));
  const soon = (check: () => Promise<void>) => eventually(check, 2_000);

  it("when a user's role is taken away and given back, then every gateway replica follows within moments, not after its cache's hour", async () => {
    const userId = /user (\d+) added/.exec(admin('users', 'add', '--username', `cached-${suffix}`).out)![1];
    expect(admin('users', 'role', '--id', userId, '--website-id', String(DEMO.websiteId), '--role', 'user').status).toBe(0);
    const bearer = await token({ userId: Number(userId) });
    const list = (replica: ExtraGateway) => api('GET', `${replica.services}/samples`, { token: bearer });
    await soon(async () => expect(await statuses(list)).toEqual([200, 200]));
    expect(await statuses(list)).toEqual([200, 200]);

    expect(admin('users', 'role', '--id', userId, '--website-id', String(DEMO.websiteId), '--role', 'none').status).toBe(0);
    await soon(async () => expect(await statuses(list)).toEqual([403, 403]));
    expect(admin('users', 'role', '--id', userId, '--website-id', String(DEMO.websiteId), '--role', 'user').status).toBe(0);
    await soon(async () => expect(await statuses(list)).toEqual([200, 200]));
  });

  it("when a client's secret is rotated, then the old secret is refused by every replica at once", async () => {
    const [, clientId, secret] = /client (\d+) added; secret: (\S+)/.exec(admin('clients', 'add', '--username', `cached-client-${suffix}`).out)!;
    expect(admin('connections', 'add', '--client-id', clientId, '--proj-id', 'CC', '--website-id', String(DEMO.websiteId), '--title', 'Cached').status).toBe(0);
    const get = (key: string) => (replica: ExtraGateway) =>
      api('GET', `${replica.services}/samples/1?proj_id=CC`, { headers: { Authorization: `USER:cached-client-${suffix}:SECRET:${key}` } });
    await soon(async () => expect(await statuses(get(secret))).toEqual([403, 403]));
    const rotated = /secret: (\S+)/.exec(admin('clients', 'rotate-secret', '--id', clientId).out)![1];
    await soon(async () => expect(await statuses(get(secret))).toEqual([401, 401]));
    expect(await statuses(get(rotated))).toEqual([403, 403]);
  });

  it('when the connection a replica listens on is cut, then it listens again and later changes still apply at once', async () => {
    const userId = /user (\d+) added/.exec(admin('users', 'add', '--username', `relisten-${suffix}`).out)![1];
    expect(admin('users', 'role', '--id', userId, '--website-id', String(DEMO.websiteId), '--role', 'user').status).toBe(0);
    const bearer = await token({ userId: Number(userId) });
    const list = (replica: ExtraGateway) => api('GET', `${replica.services}/samples`, { token: bearer });
    await soon(async () => expect(await statuses(list)).toEqual([200, 200]));
    const cut = await dbQuery<{ cut: boolean }>(
      `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE application_name = 'rex-listen-rex_auth_changed' AND datname = current_database()`,
    );
    expect(cut.length).toBeGreaterThanOrEqual(2);
    await eventually(async () => {
      const listening = await dbQuery(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'rex-listen-rex_auth_changed' AND datname = current_database()`);
      expect(listening.length).toBeGreaterThanOrEqual(2);
    });
    expect(admin('users', 'disable', '--id', userId).status).toBe(0);
    await soon(async () => expect(await statuses(list)).toEqual([403, 403]));
  });

  it('when any table of the auth schema changes, then a notification follows: every table carries the trigger', async () => {
    // The webhook tables are a delivery queue written on every delivery, not authentication data:
    // they have no trigger, so deliveries do not empty the authentication caches.
    const untriggered = await dbQuery<{ table: string }>(
      `SELECT t.tablename AS table FROM pg_tables t
        WHERE t.schemaname = 'auth' AND t.tablename <> 'schema_migrations' AND t.tablename NOT LIKE 'webhook\\_%'
          AND NOT EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = format('auth.%I', t.tablename)::regclass AND g.tgname = 'notify_change')`,
    );
    expect(untriggered).toEqual([]);
  });
});

