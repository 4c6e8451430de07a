import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '@rex/admin';
import { startGateway, type ExtraGateway } from './support/gateway.ts';
import {
  addToWorld,
  api,
  clientToken,
  DB_CLIENT,
  keyPair,
  NO_ROLE_USER,
  sampleSubmission,
  SECOND_WEBSITE,
  setUpWorld,
  token,
  WEBSITE_PASSWORD,
} from './support/world.ts';

const NOT_A_USER = 'Records are read and changed by the users who created them; websites and clients use reports.';
const LEGACY = { key: 'LEGACY', secret: 'legacy-secret' };
const ALL_METHODS = Object.fromEntries(
  ['jwtUser', 'jwtClient', 'directClient', 'directUser', 'directWebsite', 'hmacClient', 'hmacWebsite'].map((name) => [name, { allow_http: true }]),
);
const LEGACY_CLIENTS = {
  [LEGACY.key]: {
    shared_secret: LEGACY.secret,
    projects: {
      LP1: { website_id: DEMO.websiteId, title: 'Samples project', resources: ['samples'] },
      LP2: { website_id: DEMO.websiteId, title: 'Reports project', resources: ['reports'] },
    },
  },
};

let gateway: ExtraGateway;
let sampleId: string;

const directUserHeader = (userId: number | string = DEMO.userId, secret = WEBSITE_PASSWORD, extra = '') =>
  `USER_ID:${userId}:WEBSITE_ID:${DEMO.websiteId}:SECRET:${secret}${extra}`;
const signed = (url: string, secret: string) => createHmac('sha1', secret).update(url).digest('hex');

/** A request to the extra gateway that runs every method. */
const call = (method: string, path: string, authorization?: string, body?: unknown) =>
  api(method, `${gateway.services}${path}`, { headers: authorization ? { Authorization: authorization } : {}, body });

beforeAll(async () => {
  await setUpWorld();
  gateway = await startGateway({ allow_auth_tokens_in_url: true, authentication_methods: ALL_METHODS, clients: LEGACY_CLIENTS });
  const created = await call('POST', '/samples', `Bearer ${await token()}`, sampleSubmission());
  expect(created.status).toBe(201);
  sampleId = created.body.values.id;
});

afterAll(() => gateway?.stop());

describe('directUser', () => {
  it('when the header names a user of the website and its password, then the user creates and reads samples', async () => {
    const created = await call('POST', '/samples', directUserHeader(), sampleSubmission());
    expect(created.status).toBe(201);
    const read = await call('GET', `/samples/${created.body.values.id}`, directUserHeader());
    expect(read.status).toBe(200);
    expect(read.body.values.created_by_id).toBe(String(DEMO.userId));
  });

  it.each([
    ['the ids are not numbers', directUserHeader('x'), 'User ID or website ID incorrect format.'],
    ['the password is wrong', directUserHeader(DEMO.userId, 'wrong'), 'Incorrect password for user.'],
    ['the user has no role on the website', directUserHeader(NO_ROLE_USER), 'Unrecognised user ID or password.'],
  ])('when %s, then 401', async (_case, header, message) => {
    const response = await call('GET', `/samples/${sampleId}`, header);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 401, status: 'Unauthorized', message });
  });

  it('when the header names an unknown scope, then 403', async () => {
    const response = await call('GET', `/samples/${sampleId}`, directUserHeader(DEMO.userId, WEBSITE_PASSWORD, ':SCOPE:everything'));
    expect(response.status).toBe(403);
  });
});

describe('directWebsite', () => {
  const header = (secret = WEBSITE_PASSWORD, extra = '') => `WEBSITE_ID:${DEMO.websiteId}:SECRET:${secret}${extra}`;

  it('when the website authenticates, then it is a website: records refuse it and posting needs anonymous posting', async () => {
    const read = await call('GET', `/samples/${sampleId}`, header());
    expect(read.status).toBe(403);
    expect(read.body.message).toBe(NOT_A_USER);
    const posted = await call('POST', '/samples', header(), sampleSubmission());
    expect(posted.status).toBe(400);
    expect(posted.body.message).toEqual({ 'sample:created_by_id': 'Cannot POST without user authentication.' });
  });

  it('when the website allows anonymous posts, then it creates samples', async () => {
    const posted = await call('POST', '/samples', `WEBSITE_ID:${SECOND_WEBSITE.id}:SECRET:second-password`, sampleSubmission({ survey_id: SECOND_WEBSITE.surveyId }));
    expect(posted.status, posted.text).toBe(201);
  });

  it('when the header names a user of the website, then the website acts as that user', async () => {
    const read = await call('GET', `/samples/${sampleId}`, header(WEBSITE_PASSWORD, `:SCOPE:userWithinWebsite:USER_ID:${DEMO.userId}`));
    expect(read.status).toBe(200);
  });

  it.each([
    ['the password is wrong', `WEBSITE_ID:${DEMO.websiteId}:SECRET:nope`, 'Unrecognised website ID or password.'],
    ['the website does not exist', 'WEBSITE_ID:999:SECRET:x', 'Unrecognised website ID or password.'],
    ['the id is not a number', 'WEBSITE_ID:one:SECRET:x', 'Website ID incorrect format.'],
  ])('when %s, then 401', async (_case, authorization, message) => {
    const response = await call('GET', `/samples/${sampleId}`, authorization);
    expect(response.status).toBe(401);
    expect(response.body.message).toBe(message);
  });
});

describe('hmacWebsite', () => {
  const hmacHeader = (url: string, secret = WEBSITE_PASSWORD, websiteId: number | string = DEMO.websiteId) =>
    `WEBSITE_ID:${websiteId}:HMAC:${signed(url, secret)}`;

  it('when the URL is signed with the website password, then the website is admitted; user_id in the signed URL makes it that user', async () => {
    const url = `${gateway.services}/samples/${sampleId}`;
    const asWebsite = await api('GET', url, { headers: { Authorization: hmacHeader(url) } });
    expect(asWebsite.status).toBe(403);
    expect(asWebsite.body.message).toBe(NOT_A_USER);
    const userUrl = `${gateway.services}/samples/${sampleId}?user_id=${DEMO.userId}`;
    const asUser = await api('GET', userUrl, { headers: { Authorization: hmacHeader(userUrl) } });
    expect(asUser.status).toBe(200);
  });

  it('when the signature is of another URL, then 401', async () => {
    const url = `${gateway.services}/samples/${sampleId}?user_id=${DEMO.userId}`;
    const response = await api('GET', `${url}&extra=1`, { headers: { Authorization: hmacHeader(url) } });
    expect(response.status).toBe(401);
    expect(response.body.message).toBe('Supplied HMAC authorization incorrect.');
  });

  it('when the signing key is wrong, then 401', async () => {
    const url = `${gateway.services}/samples/${sampleId}`;
    expect((await api('GET', url, { headers: { Authorization: hmacHeader(url, 'guess') } })).status).toBe(401);
  });

  it('when the website is unknown or its id malformed, then 401', async () => {
    const url = `${gateway.services}/samples/${sampleId}`;
    expect((await api('GET', url, { headers: { Authorization: hmacHeader(url, 'x', 999) } })).body.message).toBe('Unrecognised website ID.');
    expect((await api('GET', url, { headers: { Authorization: hmacHeader(url, 'x', 'abc') } })).body.message).toBe('Website ID incorrect format.');
  });
});

describe('hmacClient (legacy configuration clients)', () => {
  const hmacHeader = (url: string, secret = LEGACY.secret, key = LEGACY.key) => `USER:${key}:HMAC:${signed(url, secret)}`;

  it('when a project lists the resource, then the client is admitted (and, without a user, cannot read records)', async () => {
    const url = `${gateway.services}/samples/${sampleId}?proj_id=LP1`;
    const response = await api('GET', url, { headers: { Authorization: hmacHeader(url) } });
    expect(response.status).toBe(403);
    expect(response.body.message).toBe(NOT_A_USER);
  });

  it('when the project does not list the resource, then 403 naming it', async () => {
    const url = `${gateway.services}/samples/${sampleId}?proj_id=LP2`;
    const response = await api('GET', url, { headers: { Authorization: hmacHeader(url) } });
    expect(response.status).toBe(403);
    expect(response.body.message).toBe('Resource samples is not available to project LP2.');
  });

  it('when proj_id is missing or unknown, then 400', async () => {
    for (const query of ['', '?proj_id=NOPE']) {
      const url = `${gateway.services}/samples/${sampleId}${query}`;
      const response = await api('GET', url, { headers: { Authorization: hmacHeader(url) } });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('Project ID missing or invalid.');
    }
  });

  it('when the signature is wrong, or the client is a database client, then 401', async () => {
    const url = `${gateway.services}/samples/${sampleId}?proj_id=LP1`;
    expect((await api('GET', url, { headers: { Authorization: hmacHeader(url, 'wrong') } })).status).toBe(401);
    expect((await api('GET', `${gateway.services}/samples/${sampleId}?proj_id=P1`, { headers: { Authorization: hmacHeader(url, DB_CLIENT.secret, DB_CLIENT.username) } })).status).toBe(401);
  });
});

describe('directClient', () => {
  const header = (username = DB_CLIENT.username, secret = DB_CLIENT.secret) => `USER:${username}:SECRET:${secret}`;

  it('when a client is sent more than ten wrong secrets in a minute, then further attempts are refused with 429 without being checked', async () => {
    await addToWorld({ clients: [{ id: 30, username: 'guessed', secret: 'the-right-secret', connections: [{ proj_id: 'G1', website_id: DEMO.websiteId, title: 'Guessed' }] }] });
    for (let i = 0; i < 10; i++) {
      const response = await call('GET', '/samples?proj_id=G1', header('guessed', `guess-${i}`));
      expect(response.body).toMatchObject({ code: 401, message: 'Unable to authorise' });
    }
    const throttled = await call('GET', '/samples?proj_id=G1', header('guessed', 'the-right-secret'));
    expect(throttled.status).toBe(429);
    expect(throttled.body.code).toBe(429);
    // Other clients are not affected: this one is admitted (and then, not being a user, refused the record).
    const other = await call('GET', `/samples/${sampleId}?proj_id=${DB_CLIENT.projId}`, header());
    expect(other.body).toMatchObject({ code: 403, message: NOT_A_USER });
  });

  it('when a name no client has is tried, then it is answered exactly as a real client\'s name is: ten 401s, then 429', async () => {
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push((await call('GET', '/samples?proj_id=G1', header('made-up-client', `guess-${i}`))).body);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(expect.objectContaining({ code: 401, message: 'Unable to authorise' })));
    expect(answers[10]).toMatchObject({ code: 429 });
  });

  it('when a database client names a connection, then it is admitted read-only: writes are 405', async () => {
    const read = await call('GET', `/samples/${sampleId}?proj_id=${DB_CLIENT.projId}`, header());
    expect(read.status).toBe(403);
    expect(read.body.message).toBe(NOT_A_USER);
    for (const [method, path] of [['POST', '/samples'], ['PUT', `/samples/${sampleId}`], ['DELETE', `/samples/${sampleId}`]] as const) {
      const response = await call(method, `${path}?proj_id=${DB_CLIENT.projId}`, header(), method === 'DELETE' ? undefined : sampleSubmission());
      expect(response.status, method).toBe(405);
      expect(response.body).toEqual({ code: 405, status: 'Method Not Allowed', message: 'Connection is read only.' });
    }
  });

  it.each([
    ['the secret is wrong (the same answer as for an unknown client)', `?proj_id=${DB_CLIENT.projId}`, header(DB_CLIENT.username, 'wrong'), 401, 'Unable to authorise'],
    ['proj_id is missing', '', header(), 401, 'Missing proj_id parameter.'],
    ['proj_id names no connection', '?proj_id=NOPE', header(), 401, 'Invalid client system ID'],
    ['the client is unknown', `?proj_id=${DB_CLIENT.projId}`, header('nobody'), 401, 'Unable to authorise'],
    ['the connection may not use data resources', `?proj_id=${DB_CLIENT.noDataProjId}`, header(), 401, 'Access to data resources unauthorised'],
    ['the connection is limited to other resources', `?proj_id=${DB_CLIENT.limitedProjId}`, header(), 403, 'Unauthorised data resource samples requested - limited to occurrences'],
  ])('when %s, then refused', async (_case, query, authorization, status, message) => {
    const response = await call('GET', `/samples/${sampleId}${query}`, authorization);
    expect(response.status).toBe(status);
    expect(response.body.message).toBe(message);
  });

  it('when a legacy configuration client gives its shared secret, then it is admitted for its project', async () => {
    const response = await call('GET', `/samples/${sampleId}?proj_id=LP1`, header(LEGACY.key, LEGACY.secret));
    expect(response.status).toBe(403);
    expect(response.body.message).toBe(NOT_A_USER);
    expect((await call('GET', `/samples/${sampleId}?proj_id=LP1`, header(LEGACY.key, 'nope'))).status).toBe(401);
    expect((await call('GET', `/samples/${sampleId}?proj_id=XX`, header(LEGACY.key, LEGACY.secret))).body.message).toBe('Invalid proj_id parameter.');
  });
});

describe('jwtClient', () => {
  it.each(['iss', 'claim'] as const)('when the token names the client by %s, then the connection is admitted read-only', async (form) => {
    const bearer = `Bearer ${await clientToken({ form })}`;
    const read = await call('GET', `/samples/${sampleId}?proj_id=${DB_CLIENT.projId}`, bearer);
    expect(read.status).toBe(403);
    expect(read.body.message).toBe(NOT_A_USER);
    const write = await call('POST', `/samples?proj_id=${DB_CLIENT.projId}`, bearer, sampleSubmission());
    expect(write.status).toBe(405);
  });

  it('when proj_id is missing, then nothing authenticates: 401', async () => {
    expect((await call('GET', `/samples/${sampleId}`, `Bearer ${await clientToken()}`)).status).toBe(401);
  });

  it('when proj_id names no connection of the client, then 401 Invalid client system ID', async () => {
    const response = await call('GET', `/samples/${sampleId}?proj_id=NOPE`, `Bearer ${await clientToken()}`);
    expect(response.status).toBe(401);
    expect(response.body.message).toBe('Invalid client system ID');
  });

  it('when the token is signed with another key, is expired or names an unknown client, then 401', async () => {
    const query = `/samples/${sampleId}?proj_id=${DB_CLIENT.projId}`;
    expect((await call('GET', query, `Bearer ${await clientToken({ key: keyPair().privateKey })}`)).status).toBe(401);
    expect((await call('GET', query, `Bearer ${await clientToken({ expiresIn: '-5m' })}`)).status).toBe(401);
    expect((await call('GET', query, `Bearer ${await clientToken({ username: 'nobody' })}`)).status).toBe(401);
  });

  it('when a token is not signed by the client it names, then the answer is the same whether the client, its connection or neither exists', async () => {
    const forged = keyPair().privateKey;
    const answers = [];
    for (const [username, projId] of [[DB_CLIENT.username, DB_CLIENT.projId], [DB_CLIENT.username, 'NOPE'], ['nobody', DB_CLIENT.projId], ['nobody', 'NOPE']]) {
      const response = await call('GET', `/samples/${sampleId}?proj_id=${projId}`, `Bearer ${await clientToken({ key: forged, username })}`);
      answers.push({ status: response.status, message: response.body.message });
    }
    expect(answers).toEqual(Array(4).fill({ status: 401, message: 'Unable to authorise' }));
  });
});

describe('credentials in the URL', () => {
  it('when allow_auth_tokens_in_url is on, then direct credentials may come as query parameters', async () => {
    const query = `user_id=${DEMO.userId}&website_id=${DEMO.websiteId}&secret=${WEBSITE_PASSWORD}`;
    expect((await call('GET', `/samples/${sampleId}?${query}`)).status).toBe(200);
    expect((await call('GET', `/samples/${sampleId}?user=${DB_CLIENT.username}&secret=${DB_CLIENT.secret}&proj_id=${DB_CLIENT.projId}`)).status).toBe(403);
  });

  it('when credentials come in the URL, then the links the API writes never repeat the secret', async () => {
    const query = `user_id=${DEMO.userId}&website_id=${DEMO.websiteId}&secret=${WEBSITE_PASSWORD}`;
    const page = await call('GET', `/samples?limit=1&${query}`);
    expect(page.status).toBe(200);
    const reports = await call('GET', `/reports/library?${query}`);
    expect(reports.status).toBe(200);
    const report = await call('GET', `/reports/library/occurrences/explore_list.xml?limit=1&${query}`);
    expect(report.status).toBe(200);
    for (const answer of [page, reports, report]) {
      const written = `${answer.headers.get('link') ?? ''} ${answer.text}`;
      expect(written).not.toContain(WEBSITE_PASSWORD);
    }
    expect(report.body.paging.self).toContain(`user_id=${DEMO.userId}`);
  });

  it('when allow_auth_tokens_in_url is off, then such parameters are ignored and the request is unauthenticated', async () => {
    const query = `user_id=${DEMO.userId}&website_id=${DEMO.websiteId}&secret=${WEBSITE_PASSWORD}`;
    const response = await api('GET', `/samples/${sampleId}?${query}`);
    expect(response.status).toBe(401);
    expect(response.body.message).toBe('Unable to authorise');
  });
});

describe('header matching', () => {
  it('when the Authorization header name is in another case, then it is still read', async () => {
    const response = await api('GET', `${gateway.services}/samples/${sampleId}`, { headers: { AUTHORIZATION: `Bearer ${await token()}` } });
    expect(response.status).toBe(200);
  });
});

describe('scopes', () => {
  it('when the same list is asked for with scope user and with userWithinWebsite, then the record sets differ by website', async () => {
    const inSecond = await call(
      'POST',
      '/samples',
      `Bearer ${await token({ key: 'second' })}`,
      sampleSubmission({ survey_id: SECOND_WEBSITE.surveyId, comment: 'scope-test' }),
    );
    expect(inSecond.status).toBe(201);
    const bearer = `Bearer ${await token({ claims: { scope: 'userWithinWebsite user' } })}`;
    const within = await call('GET', '/samples?comment=scope-test&limit=1000', bearer);
    const everywhere = await call('GET', '/samples?comment=scope-test&limit=1000&scope=user', bearer);
    expect(within.status).toBe(200);
    expect(everywhere.status).toBe(200);
    const ids = (list: { values: { id: string } }[]) => list.map((s) => s.values.id);
    expect(ids(within.body)).not.toContain(inSecond.body.values.id);
    expect(ids(everywhere.body)).toContain(inSecond.body.values.id);
  });
});
