import { createHmac, generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { SignJWT, importPKCS8 } from 'jose';
import { DEMO } from '@rex/admin';
import { BANNED_USER, NO_ROLE_USER, SECOND_WEBSITE, addToWorld, api, dbQuery, sampleSubmission, setUpWorld, token } from './support/world.ts';

const UNAUTHORISED = { code: 401, status: 'Unauthorized', message: 'Unable to authorise' };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeAll(setUpWorld);

async function getWith(authorization: string | undefined) {
  return api('POST', '/samples', { body: sampleSubmission(), headers: authorization === undefined ? {} : { Authorization: authorization } });
}

describe('jwtUser', () => {
  it('when the token is valid, then the request is served', async () => {
    expect((await getWith(`Bearer ${await token()}`)).status).toBe(201);
  });

  it('when the Bearer prefix is in another case, then it is still accepted', async () => {
    expect((await getWith(`bEaReR ${await token()}`)).status).toBe(201);
  });

  it('when there is no Authorization header, then 401 Unable to authorise as JSON', async () => {
    const response = await getWith(undefined);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(UNAUTHORISED);
  });

  it.each([
    ['an unknown scheme', 'Basic dXNlcjpwYXNz'],
    ['a token that is not a JWT', 'Bearer not-a-token'],
    ['a token with four parts', 'Bearer a.b.c.d'],
  ])('when the header has %s, then 401', async (_case, header) => {
    const response = await getWith(header);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(401);
  });

  it('when the token has expired, then 401', async () => {
    const response = await getWith(`Bearer ${await token({ expiresIn: '-5m' })}`);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(UNAUTHORISED);
  });

  it('when the token names a website that does not exist, then 401', async () => {
    expect((await getWith(`Bearer ${await token({ issuer: 'http://nowhere.example' })}`)).status).toBe(401);
  });

  it("when the token is signed with another website's key, then 401", async () => {
    expect((await getWith(`Bearer ${await token({ key: 'second', issuer: DEMO.websiteUrl })}`)).status).toBe(401);
  });

  it('when the token is signed with an unknown key, then 401', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const forged = await new SignJWT({ 'http://indicia.org.uk/user:id': DEMO.userId })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(DEMO.websiteUrl)
      .setExpirationTime('1h')
      .sign(await importPKCS8(privateKey, 'RS256'));
    expect((await getWith(`Bearer ${forged}`)).status).toBe(401);
  });

  it('when the token is unsigned (alg none), then 401', async () => {
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: DEMO.websiteUrl, 'http://indicia.org.uk/user:id': DEMO.userId })}.`;
    expect((await getWith(`Bearer ${unsigned}`)).status).toBe(401);
  });

  it('when the token is HS256-signed with the public key as the secret, then 401', async () => {
    const client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    const { rows } = await client.query('SELECT public_key FROM auth.websites WHERE id = $1', [DEMO.websiteId]);
    await client.end();
    const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ iss: DEMO.websiteUrl, 'http://indicia.org.uk/user:id': DEMO.userId, exp: Math.floor(Date.now() / 1000) + 600 })}`;
    const signature = createHmac('sha256', rows[0].public_key).update(head).digest('base64url');
    expect((await getWith(`Bearer ${head}.${signature}`)).status).toBe(401);
  });

  it('when the token has been tampered with, then 401', async () => {
    const [header, , signature] = (await token()).split('.');
    const payload = b64({ iss: DEMO.websiteUrl, 'http://indicia.org.uk/user:id': 3, exp: Math.floor(Date.now() / 1000) + 600 });
    expect((await getWith(`Bearer ${header}.${payload}.${signature}`)).status).toBe(401);
  });

  it('when the payload cannot be decoded, then 400', async () => {
    const response = await getWith(`Bearer ${b64({ alg: 'RS256' })}.bm90IGpzb24.sig`);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(400);
  });

  it('when email_verified is false, then 401', async () => {
    const response = await getWith(`Bearer ${await token({ claims: { email_verified: false } })}`);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(401);
  });

  it('when email_verified is the string "false" (or 0), then 401 too', async () => {
    for (const claim of ['false', 0, '0']) {
      const response = await getWith(`Bearer ${await token({ claims: { email_verified: claim } })}`);
      expect(response.status, String(claim)).toBe(401);
      expect(response.body.message).toBe('The email address of the user is not verified.');
    }
  });

  it('when email_verified is true, then the request is served', async () => {
    expect((await getWith(`Bearer ${await token({ claims: { email_verified: true } })}`)).status).toBe(201);
  });

  it('when the user has no role on the website, then 403', async () => {
    const response = await getWith(`Bearer ${await token({ userId: NO_ROLE_USER })}`);
    expect(response.status).toBe(403);
    expect(response.body.code).toBe(403);
  });

  it('when the user is banned from the website, then 403', async () => {
    expect((await getWith(`Bearer ${await token({ userId: BANNED_USER })}`)).status).toBe(403);
  });

  it('when a scope is asked for that the token does not grant, then 403', async () => {
    const scoped = await token({ claims: { scope: 'userWithinWebsite' } });
    const response = await api('POST', '/samples?scope=reporting', { token: scoped, body: sampleSubmission() });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 403, message: 'Attempt to access disallowed scope' });
  });

  it('when a scope is asked for that the token grants, then the request is served', async () => {
    const scoped = await token({ claims: { scope: ['user', 'userWithinWebsite'] } });
    expect((await api('POST', '/samples?scope=userWithinWebsite', { token: scoped, body: sampleSubmission() })).status).toBe(201);
  });
});

describe('anonymous website tokens', () => {
  it('when the website does not allow anonymous posts, then a token without a user cannot create samples', async () => {
    const response = await getWith(`Bearer ${await token({ userId: null })}`);
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual({ 'sample:created_by_id': 'Cannot POST without user authentication.' });
  });

  it('when the website allows anonymous posts, then a token without a user creates a sample that no user owns, under keys of its own', async () => {
    const anonymous = await token({ key: 'second', userId: null });
    const key = `anonymous-${Date.now()}`;
    const body = sampleSubmission({ survey_id: SECOND_WEBSITE.surveyId });
    const response = await api('POST', '/samples', { token: anonymous, body, headers: { 'Idempotency-Key': key } });
    expect(response.status, response.text).toBe(201);
    const id = response.body.values.id;
    expect(await dbQuery('SELECT created_by_id::text AS owner FROM records.samples WHERE id = $1', [id])).toEqual([{ owner: '0' }]);
    expect(await dbQuery('SELECT user_id::text AS owner FROM records.idempotency_keys WHERE key = $1', [key])).toEqual([{ owner: '0' }]);
    const again = await api('POST', '/samples', { token: anonymous, body, headers: { 'Idempotency-Key': key } });
    expect(again.body.values.id).toBe(id);
  });

  it('when a token without a user reads, changes or deletes a sample, then it is refused', async () => {
    const created = await api('POST', '/samples', { token: await token(), body: sampleSubmission() });
    const anonymous = await token({ userId: null });
    const id = created.body.values.id;
    expect((await api('GET', `/samples/${id}`, { token: anonymous })).status).toBe(403);
    expect((await api('PUT', `/samples/${id}`, { token: anonymous, body: { values: { comment: 'x' } } })).status).toBe(400);
    expect((await api('DELETE', `/samples/${id}`, { token: anonymous })).status).toBe(400);
  });
});

describe('the service root', () => {
  it('when {services}/rest is asked for without credentials, then it describes the API as JSON', async () => {
    const response = await api('GET', '', { headers: { Accept: '*/*' } });
    expect(response.status).toBe(200);
    expect(response.body.resources.map((r: { resource: string }) => r.resource)).toContain('samples');
  });

  it('when HTML is asked for, then an HTML page is served', async () => {
    const response = await api('GET', '?format=html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.text).toMatch(/^<!DOCTYPE HTML>/);
  });
});

describe("a website's token rules", () => {
  const RULES = { id: 20, url: 'http://rules.rex.local', userId: 13 };
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

  beforeAll(async () => {
    await addToWorld({
      websites: [
        { id: RULES.id, title: 'Strict tokens', url: RULES.url, password: 'rules-password', public_key: keys.publicKey, jwt_require_exp: true, jwt_max_age_s: 600, jwt_audience: 'rex-api' },
      ],
      users: [{ id: RULES.userId, username: 'strict', websites: [{ website_id: RULES.id, role: 'user' }] }],
    });
  });

  const sign = async (claims: Record<string, unknown>, options: { exp?: boolean; iat?: number } = {}) => {
    let jwt = new SignJWT({ 'http://indicia.org.uk/user:id': RULES.userId, ...claims }).setProtectedHeader({ alg: 'RS256' }).setIssuer(RULES.url);
    jwt = options.iat === undefined ? jwt.setIssuedAt() : jwt.setIssuedAt(options.iat);
    if (options.exp !== false) jwt = jwt.setExpirationTime('2h');
    return `Bearer ${await jwt.sign(await importPKCS8(keys.privateKey, 'RS256'))}`;
  };

  it('when a token meets the rules (expiry, recent iat, audience), then it is authenticated (the website has no survey 1, so the submission itself is refused)', async () => {
    for (const aud of ['rex-api', ['other', 'rex-api']]) {
      const response = await getWith(await sign({ aud }));
      expect(response.status).toBe(400);
      expect(Object.keys(response.body.message)).toContain('sample:survey_id');
    }
  });

  it('when a token lacks an expiry, is older than the maximum age or names another audience, then 401 saying which', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string][] = [
      [await sign({ aud: 'rex-api' }, { exp: false }), 'The token must have an expiry (exp).'],
      [await sign({ aud: 'rex-api' }, { iat: now - 3_600 }), 'The token is older than this website allows.'],
      [await sign({ aud: 'rex-api' }, { iat: now + 86_400 }), 'The token says it was issued in the future (iat).'],
      [await sign({ aud: 'another-api' }), 'The token is not meant for this API (aud).'],
      [await sign({}), 'The token is not meant for this API (aud).'],
    ];
    for (const [authorization, message] of cases) {
      const response = await getWith(authorization);
      expect(response.status, message).toBe(401);
      expect(response.body).toMatchObject({ code: 401, message });
    }
  });
});
