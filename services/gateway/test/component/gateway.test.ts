// The gateway in this process, in front of a RecordsService in this process too,
// on a database of the file's own: each authentication method admits and
// refuses as it should, and the REST answers clients rely on (status, JSON,
// Location, ETag) come out of the records service's answers and errors.
import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { importPKCS8, SignJWT } from 'jose';
import { z } from '@rex/config';
import { createPool, freePort, withTransaction } from '@rex/db';
import { httpDuration } from '@rex/telemetry';
import { RECORDS_FIXTURES, importRecordsFixtures } from '../../../records/src/admin/index.ts';
import { RecordsEnv } from '../../../records/src/config.ts';
import { startRecordsServer } from '../../../records/src/server.ts';
import { AUTH_FIXTURES, importAuthFixtures } from '../../src/admin/index.ts';
import { GatewayEnv } from '../../src/config.ts';
import { startGateway } from '../../src/server.ts';
import { freshDatabase, serve, settings, silentLogger } from '../../../../component/support/served.ts';

const WEBSITE = { id: 1, url: 'http://component.example.org', password: 'component-website-password' };
const OTHER_WEBSITE = { id: 2, url: 'http://other.example.org', password: 'other-website-password' };
const USER = 5;
const OTHER_USER = 6;
const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const otherKeys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

let rest: string;
const gatewayLogger = silentLogger('gateway');

async function jwt(options: { userId?: number; issuer?: string; pem?: string; expiresIn?: string | number } = {}): Promise<string> {
  return new SignJWT({ 'http://indicia.org.uk/user:id': options.userId ?? USER })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(options.issuer ?? WEBSITE.url)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(await importPKCS8(options.pem ?? keys.privateKey, 'RS256'));
}

async function call(method: string, path: string, options: { authorization?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.authorization) headers.Authorization = options.authorization;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${rest}${path}`, { method, headers, body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined };
}

const sample = (values: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  values: { survey_id: 1, date: '2026-05-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB', ...values },
  ...extra,
});

beforeAll(async () => {
  const databaseUrl = await freshDatabase('gateway');
  const records = await serve('records.v1.RecordsService', () =>
    startRecordsServer(settings(RecordsEnv, { DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'true', REFERENCE_CACHE_TTL_MS: '0' }), silentLogger('records')),
  );
  // Nothing listens where reports, search and media would be: their routes answer 503.
  const nowhere = `127.0.0.1:${await freePort()}`;
  const config = settings(GatewayEnv, {
    DATABASE_URL: databaseUrl,
    GATEWAY_PORT: '0',
    MIGRATE_ON_START: 'true',
    AUTH_CACHE_TTL_MS: '0',
    RECORDS_ADDR: `127.0.0.1:${records.port}`,
    REPORTS_ADDR: nowhere,
    SEARCH_ADDR: nowhere,
    MEDIA_ADDR: nowhere,
    WEBHOOKS_ENABLED: 'false',
  });
  const gateway = await serve('', async () => {
    const started = await startGateway(config, gatewayLogger);
    return { port: started.port, stop: started.stop };
  }, (port) => fetch(`http://127.0.0.1:${port}/readyz`).then((response) => response.ok, () => false));
  rest = `http://127.0.0.1:${gateway.port}/index.php/services/rest`;

  const pool = createPool(databaseUrl, { max: 1, applicationName: 'component-seed' });
  const auth = z.object(AUTH_FIXTURES).parse({
    websites: [
      { id: WEBSITE.id, title: 'Component', url: WEBSITE.url, password: WEBSITE.password, public_key: keys.publicKey },
      { id: OTHER_WEBSITE.id, title: 'Other', url: OTHER_WEBSITE.url, password: OTHER_WEBSITE.password, public_key: otherKeys.publicKey },
    ],
    users: [
      { id: USER, username: 'recorder', websites: [{ website_id: WEBSITE.id, role: 'user' }] },
      { id: OTHER_USER, username: 'elsewhere', websites: [{ website_id: OTHER_WEBSITE.id, role: 'user' }] },
      { id: 7, username: 'banned', websites: [{ website_id: WEBSITE.id, role: 'user', banned: true }] },
    ],
  });
  const reference = z.object(RECORDS_FIXTURES).parse({
    surveys: [{ id: 1, website_id: WEBSITE.id, title: 'Garden birds' }],
    taxa: [{ id: 1, taxon: 'Erithacus rubecula', default_common_name: 'Robin' }],
  });
  await withTransaction(pool, async (client) => {
    await importAuthFixtures(client, auth, () => undefined);
    await importRecordsFixtures(client, reference, new Set([WEBSITE.id, OTHER_WEBSITE.id]), () => undefined);
  });
  await pool.end();
});

describe('authentication', () => {
  it("when each method is given good credentials, then it is admitted to what it may use: users to their records, websites to their surveys", async () => {
    for (const authorization of [`Bearer ${await jwt()}`, `USER_ID:${USER}:WEBSITE_ID:${WEBSITE.id}:SECRET:${WEBSITE.password}`]) {
      const answer = await call('GET', '/samples', { authorization });
      expect(answer.status, `${authorization.slice(0, 20)}: ${answer.text}`).toBe(200);
      expect(answer.body).toEqual([]);
    }
    const website = `WEBSITE_ID:${WEBSITE.id}:SECRET:${WEBSITE.password}`;
    const survey = await call('GET', '/surveys/1', { authorization: website });
    expect(survey.status, survey.text).toBe(200);
    const samples = await call('GET', '/samples', { authorization: website });
    expect(samples.status).toBe(403);
    expect(samples.body.message).toMatch(/websites and clients use reports/);
  });

  it('when a banned user presents a good token, then 403: the user is known but has no role', async () => {
    const answer = await call('GET', '/samples', { authorization: `Bearer ${await jwt({ userId: 7 })}` });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ code: 403, status: 'Forbidden', message: 'The user has no role on this website.' });
  });

  it.each([
    ['no credentials', undefined],
    ['a token signed by another key', async () => `Bearer ${await jwt({ pem: otherKeys.privateKey })}`],
    ['an expired token', async () => `Bearer ${await jwt({ expiresIn: Math.floor(Date.now() / 1000) - 60 })}`],
    ['a token of an unknown website', async () => `Bearer ${await jwt({ issuer: 'http://nowhere.example.org' })}`],
    ['a wrong website password', async () => `WEBSITE_ID:${WEBSITE.id}:SECRET:not-the-password`],
    ['a user without a role on the website', async () => `USER_ID:${OTHER_USER}:WEBSITE_ID:${WEBSITE.id}:SECRET:${WEBSITE.password}`],
    ['a header no method reads', async () => 'Basic dXNlcjpwYXNz'],
  ])('when a request carries %s, then 401 with a JSON body and nothing of the records', async (_case, authorization) => {
    const answer = await call('GET', '/samples', { authorization: typeof authorization === 'function' ? await authorization() : authorization });
    expect(answer.status, answer.text).toBe(401);
    expect(answer.body).toMatchObject({ code: 401, status: 'Unauthorized' });
    expect(answer.body.message).toEqual(expect.any(String));
  });
});

describe('records through the gateway', () => {
  it('when a sample is posted, read, changed and deleted, then Location, ETag, If-None-Match and If-Match behave as HTTP says', async () => {
    const authorization = `Bearer ${await jwt()}`;
    const created = await call('POST', '/samples', { authorization, body: sample({ comment: 'first' }, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }) });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toBe(created.body.href);
    const tag = created.headers.get('etag')!;
    expect(tag).toMatch(/^"\d+"$/);
    const path = `/samples/${created.body.values.id}`;
    const read = await call('GET', path, { authorization });
    expect(read.body.values).toMatchObject({ comment: 'first', survey_id: '1' });
    expect((await call('GET', path, { authorization, headers: { 'If-None-Match': tag } })).status).toBe(304);
    expect((await call('PUT', path, { authorization, body: { values: { comment: 'second' } } })).status).toBe(200);
    const stale = await call('PUT', path, { authorization, body: { values: { comment: 'lost' } }, headers: { 'If-Match': tag } });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ code: 412, status: 'Precondition Failed', message: 'If-Match condition not met. Record may have been updated by another user.' });
    expect((await call('DELETE', path, { authorization })).status).toBe(204);
    expect((await call('GET', path, { authorization })).status).toBe(404);
  });

  it("when another website's user asks for a sample, then 404; when the submission is invalid, then 400 naming the field", async () => {
    const created = await call('POST', '/samples', { authorization: `Bearer ${await jwt()}`, body: sample() });
    const stranger = `Bearer ${await jwt({ userId: OTHER_USER, issuer: OTHER_WEBSITE.url, pem: otherKeys.privateKey })}`;
    expect((await call('GET', `/samples/${created.body.values.id}`, { authorization: stranger })).status).toBe(404);
    const invalid = await call('POST', '/samples', { authorization: `Bearer ${await jwt()}`, body: sample({ survey_id: 999 }) });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toHaveProperty('sample:survey_id');
  });

  it('when a read is refused or finds nothing, or a method is not served, then its time is counted under its route and status, as an answered one is', async () => {
    const counted = async (method: string, status: number) =>
      (await httpDuration.get()).values
        .filter((value) => value.metricName === 'http_server_request_duration_seconds_count')
        .find((value) => value.labels.method === method && value.labels.route === '/index.php/services/samples/:id' && String(value.labels.status_code) === String(status))?.value ?? 0;
    const counts = async () => ({ found: await counted('GET', 200), missing: await counted('GET', 404), refused: await counted('GET', 401), other: await counted('PATCH', 405) });
    const before = await counts();
    const created = await call('POST', '/samples', { authorization: `Bearer ${await jwt()}`, body: sample() });
    expect((await call('GET', `/samples/${created.body.values.id}`, { authorization: `Bearer ${await jwt()}` })).status).toBe(200);
    expect((await call('GET', '/samples/999999', { authorization: `Bearer ${await jwt()}` })).status).toBe(404);
    expect((await call('GET', `/samples/${created.body.values.id}`)).status).toBe(401);
    expect((await call('PATCH', `/samples/${created.body.values.id}`)).status).toBe(405);
    // Each is counted once its response has closed, just after the client has read it.
    await vi.waitFor(async () => expect(await counts()).toEqual({ found: before.found + 1, missing: before.missing + 1, refused: before.refused + 1, other: before.other + 1 }));
    // No route is named by the list of every path.
    const routes = (await httpDuration.get()).values.map((value) => String(value.labels.route));
    expect(routes.filter((route) => route.includes(','))).toEqual([]);
  });

  it('when the body is not JSON, then 400 with a JSON body; when a service behind the gateway is down, then a JSON 503', async () => {
    const authorization = `Bearer ${await jwt()}`;
    const warned = vi.spyOn(gatewayLogger, 'warn');
    const broken = await call('POST', '/samples', { authorization, body: '{"values": ' });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe(400);
    const reports = await call('GET', '/reports/library/occurrences/filterable_explore_list.xml', { authorization });
    expect(reports.status).toBe(503);
    expect(reports.body.code).toBe(503);
    // The operator sees the outage in the gateway's log; the refused body above did not go there.
    expect(warned).toHaveBeenCalledTimes(1);
    expect(warned.mock.calls[0][0]).toMatchObject({ method: 'GET', status: 503, path: '/index.php/services/rest/reports/library/occurrences/filterable_explore_list.xml' });
    warned.mockRestore();
  });
});
