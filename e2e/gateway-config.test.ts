import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { exportJWK, importSPKI } from 'jose';
import { DEMO } from '@rex/admin';
import { freePort } from '@rex/db';
import { startGateway, type ExtraGateway } from './support/gateway.ts';
import { WEBSITE_PASSWORD, api, demoPublicKey, keyPair, sampleSubmission, setUpWorld, token, dbQuery } from './support/world.ts';

const gateways: ExtraGateway[] = [];
async function gatewayWith(config: Record<string, unknown>, env: Record<string, string> = {}): Promise<ExtraGateway> {
  const gateway = await startGateway(config, env);
  gateways.push(gateway);
  return gateway;
}

let sampleId: string;

beforeAll(async () => {
  await setUpWorld();
  const created = await api('POST', '/samples', { token: await token(), body: sampleSubmission() });
  sampleId = created.body.values.id;
});

afterAll(() => {
  for (const gateway of gateways) gateway.stop();
});

describe('HTTPS only unless allow_http', () => {
  let gateway: ExtraGateway;
  let untrusting: ExtraGateway;
  beforeAll(async () => {
    const methods = { authentication_methods: { jwtUser: {}, directUser: { allow_http: true } } };
    gateway = await gatewayWith(methods, { TRUSTED_PROXIES: 'loopback' });
    untrusting = await gatewayWith(methods);
  });

  it('when no proxy is configured as trusted, then X-Forwarded-Proto is not believed, not even from loopback', async () => {
    const response = await api('GET', `${untrusting.services}/samples/${sampleId}`, { token: await token(), headers: { 'X-Forwarded-Proto': 'https' } });
    expect(response.status).toBe(401);
  });

  it('when a method without allow_http is used over plain HTTP, then 401 and nothing is served', async () => {
    const response = await api('GET', `${gateway.services}/samples/${sampleId}`, { token: await token() });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 401, status: 'Unauthorized', message: 'Unable to authorise' });
  });

  it('when the same request arrives as HTTPS through a trusted proxy, then it is served', async () => {
    const response = await api('GET', `${gateway.services}/samples/${sampleId}`, { token: await token(), headers: { 'X-Forwarded-Proto': 'https' } });
    expect(response.status).toBe(200);
  });

  it('when a method allows HTTP, then it is served over plain HTTP', async () => {
    const response = await api('GET', `${gateway.services}/samples/${sampleId}`, {
      headers: { Authorization: `USER_ID:${DEMO.userId}:WEBSITE_ID:${DEMO.websiteId}:SECRET:${WEBSITE_PASSWORD}` },
    });
    expect(response.status).toBe(200);
  });
});

describe('the public base URL', () => {
  it('when PUBLIC_BASE_URL is set, then every link uses it, whatever Host the request carries', async () => {
    const gateway = await gatewayWith({ authentication_methods: { jwtUser: { allow_http: true } } }, { PUBLIC_BASE_URL: 'https://records.example.org' });
    const created = await api('POST', `${gateway.services}/samples`, { token: await token(), body: sampleSubmission(), headers: { Host: 'evil.example.com', 'X-Forwarded-Host': 'evil.example.com' } });
    expect(created.status, created.text).toBe(201);
    const expected = `https://records.example.org/index.php/services/rest/samples/${created.body.values.id}`;
    expect(created.body.href).toBe(expected);
    expect(created.headers.get('location')).toBe(expected);
    const page = await api('GET', `${gateway.services}/samples?limit=1`, { token: await token(), headers: { Host: 'evil.example.com' } });
    expect(page.headers.get('link') ?? '').not.toContain('evil.example.com');
  });

  it('when it is not set, then links follow the request, and a forwarded host is believed only from a trusted proxy', async () => {
    const created = await api('POST', '/samples', { token: await token(), body: sampleSubmission(), headers: { 'X-Forwarded-Host': 'evil.example.com', 'X-Forwarded-Proto': 'https' } });
    expect(created.body.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/index\.php\/services\/rest\/samples\//);
  });
});

describe('CORS', () => {
  let gateway: ExtraGateway;
  let closed: ExtraGateway;
  beforeAll(async () => {
    gateway = await gatewayWith({
      authentication_methods: {
        jwtUser: { allow_http: true, allow_cors: ['^https://app\\.example\\.org$'] },
        directUser: { allow_http: true, allow_cors: false },
      },
    });
    closed = await gatewayWith({ authentication_methods: { jwtUser: { allow_http: true } } });
  });

  it('when the origin matches a pattern of the admitting method, then that origin is allowed', async () => {
    const response = await api('GET', `${gateway.services}/samples/${sampleId}`, { token: await token(), headers: { Origin: 'https://app.example.org' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    expect(response.headers.get('vary')).toMatch(/Origin/);
  });

  it('when the origin matches no pattern, then no CORS headers are sent', async () => {
    const response = await api('GET', `${gateway.services}/samples/${sampleId}`, { token: await token(), headers: { Origin: 'https://evil.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('when the admitting method has allow_cors false, then no CORS headers are sent', async () => {
    const response = await api('GET', `${gateway.services}/samples/${sampleId}`, {
      headers: { Origin: 'https://app.example.org', Authorization: `USER_ID:${DEMO.userId}:WEBSITE_ID:${DEMO.websiteId}:SECRET:${WEBSITE_PASSWORD}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('when authentication fails, then no CORS headers are sent', async () => {
    const response = await api('GET', `${gateway.services}/samples/${sampleId}`, { headers: { Origin: 'https://app.example.org' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('when a pre-flight comes from an allowed origin, then it is answered with the methods, headers and Allow', async () => {
    const response = await api('OPTIONS', `${gateway.services}/samples/${sampleId}`, {
      headers: { Origin: 'https://app.example.org', 'Access-Control-Request-Method': 'PUT' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('allow')).toBe('GET, PUT, DELETE, OPTIONS');
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    expect(response.headers.get('access-control-allow-methods')).toMatch(/PUT/);
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
  });

  it('when no method allows CORS, then a pre-flight gets no CORS headers', async () => {
    const response = await api('OPTIONS', `${closed.services}/samples`, { headers: { Origin: 'https://app.example.org' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('allow')).toBe('GET, POST, OPTIONS');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('when allow_cors is true, then any origin is allowed', async () => {
    const open = await gatewayWith({ authentication_methods: { jwtUser: { allow_http: true, allow_cors: true } } });
    const response = await api('GET', `${open.services}/samples/${sampleId}`, { token: await token(), headers: { Origin: 'https://anywhere.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('rate limits', () => {
  it('when a credential makes more requests than its limit, then 429 with Retry-After and a JSON body', async () => {
    const gateway = await gatewayWith({
      authentication_methods: { jwtUser: { allow_http: true } },
      rate_limit: { per_credential: { limit: 3, window_seconds: 60 } },
    });
    const bearer = await token();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await api('GET', `${gateway.services}/samples/${sampleId}`, { token: bearer })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await api('GET', `${gateway.services}/samples/${sampleId}`, { token: bearer });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ code: 429, status: 'Too Many Requests' });
    const otherUser = await api('GET', `${gateway.services}/samples/${sampleId}`, { token: await token({ userId: 3 }) });
    expect(otherUser.status).toBe(403);
  });

  it('when one address makes more requests than its limit, then it is refused before authentication', async () => {
    const gateway = await gatewayWith({
      authentication_methods: { jwtUser: { allow_http: true } },
      rate_limit: { per_address: { limit: 2, window_seconds: 60 } },
    });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api('GET', `${gateway.services}/samples/${sampleId}`)).status);
    expect(statuses).toEqual([401, 401, 429]);
  });
});

describe('key rotation', () => {
  it('when a website stores two PEM keys, then tokens signed with either are accepted and others refused', async () => {
    const [oldKey, newKey] = [keyPair(), keyPair()];
    await dbQuery('UPDATE auth.websites SET public_key = $1 WHERE id = $2', [`${oldKey.publicKey}\n${newKey.publicKey}`, DEMO.websiteId]);
    try {
      for (const pem of [oldKey.privateKey, newKey.privateKey]) {
        expect((await api('GET', `/samples/${sampleId}`, { token: await token({ pem }) })).status).toBe(200);
      }
      expect((await api('GET', `/samples/${sampleId}`, { token: await token({ pem: keyPair().privateKey }) })).status).toBe(401);
    } finally {
      await dbQuery('UPDATE auth.websites SET public_key = $1 WHERE id = $2', [demoPublicKey(), DEMO.websiteId]);
    }
  });

  it('when a website publishes its keys at a JWKS URL, then tokens signed with a published key are accepted', async () => {
    const published = keyPair();
    const jwk = { ...(await exportJWK(await importSPKI(published.publicKey, 'RS256'))), kid: 'k1', alg: 'RS256', use: 'sig' };
    const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    await dbQuery('UPDATE auth.websites SET jwks_url = $1 WHERE id = $2', [url, DEMO.websiteId]);
    try {
      expect((await api('GET', `/samples/${sampleId}`, { token: await token({ pem: published.privateKey, kid: 'k1' }) })).status).toBe(200);
      expect((await api('GET', `/samples/${sampleId}`, { token: await token({ pem: keyPair().privateKey, kid: 'k1' }) })).status).toBe(401);
    } finally {
      await dbQuery('UPDATE auth.websites SET jwks_url = NULL WHERE id = $1', [DEMO.websiteId]);
      server.close();
    }
  });

  it('when websites share a JWKS URL, then its keys are fetched once; when the JWKS host fails, the keys last fetched keep working', async () => {
    const published = keyPair();
    const jwk = { ...(await exportJWK(await importSPKI(published.publicKey, 'RS256'))), kid: 'k2', alg: 'RS256', use: 'sig' };
    let fetches = 0;
    let down = false;
    const server: Server = createServer((_req, res) => {
      fetches += 1;
      if (down) res.writeHead(503).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    await dbQuery('UPDATE auth.websites SET jwks_url = $1 WHERE id = $2', [url, DEMO.websiteId]);
    // Long enough for the five requests below on a busy machine; the wait after them is longer still.
    const gateway = await startGateway({ authentication_methods: { jwtUser: { allow_http: true } } }, { JWKS_CACHE_MS: '3000' });
    try {
      const bearer = await token({ pem: published.privateKey, kid: 'k2' });
      for (let i = 0; i < 5; i++) expect((await api('GET', `${gateway.services}/samples/${sampleId}`, { token: bearer })).status).toBe(200);
      expect(fetches).toBe(1);
      down = true;
      await new Promise((resolve) => setTimeout(resolve, 3_100));
      expect((await api('GET', `${gateway.services}/samples/${sampleId}`, { token: bearer })).status).toBe(200);
      expect(fetches).toBe(2);
      expect((await api('GET', `${gateway.services}/samples/${sampleId}`, { token: await token({ pem: keyPair().privateKey, kid: 'k2' }) })).status).toBe(401);
    } finally {
      gateway.stop();
      await dbQuery('UPDATE auth.websites SET jwks_url = NULL WHERE id = $1', [DEMO.websiteId]);
      server.close();
    }
  });
});

describe('the self-describing page and OpenAPI', () => {
  it('when openapi.json is fetched, then it is a valid OpenAPI 3.1 document of the routes the gateway serves', async () => {
    const response = await api('GET', '/openapi.json');
    expect(response.status).toBe(200);
    const validator = new Validator();
    const result = await validator.validate(response.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(response.body.openapi).toBe('3.1.0');
    expect(Object.keys(response.body.paths).sort()).toEqual([
      '/annotations',
      '/annotations/{id}',
      '/changes',
      '/es',
      '/es/{path}',
      '/location-attributes',
      '/location-attributes/{id}',
      '/location_media',
      '/location_media/{id}',
      '/location_media/{id}/file',
      '/locations',
      '/locations/{id}',
      '/media-queue',
      '/media-queue/{name}',
      '/occurrence-attributes',
      '/occurrence-attributes/{id}',
      '/occurrence_media',
      '/occurrence_media/{id}',
      '/occurrence_media/{id}/file',
      '/occurrences',
      '/occurrences/list',
      '/occurrences/{id}',
      '/projects',
      '/projects/{id}',
      '/reports',
      '/reports/{path}',
      '/sample-attributes',
      '/sample-attributes/{id}',
      '/sample_media',
      '/sample_media/{id}',
      '/sample_media/{id}/file',
      '/samples',
      '/samples/list',
      '/samples/{id}',
      '/surveys',
      '/surveys/{id}',
      '/surveys/{id}/attributes',
      '/surveys/{id}/attributes/{attributeId}',
      '/taxon-observations',
      '/taxon-observations/{id}',
      '/upload-queue/{name}',
      '/upload/{path}',
      '/webhooks',
      '/webhooks/{id}',
      '/webhooks/{id}/dead-letters',
      '/webhooks/{id}/dead-letters/{letterId}/replay',
      '/webhooks/{id}/enable',
      '/webhooks/{id}/rotate-secret',
    ]);
    // The files the apps build links to sit beside the service root: each names its own server.
    expect(response.body.paths['/upload/{path}'].servers).toEqual([{ url: inject('gatewayUrl') }]);
    expect(Object.keys(response.body.paths['/upload/{path}'])).toEqual(['servers', 'get', 'head']);
    expect(Object.keys(response.body.paths['/samples/{id}']).sort()).toEqual(['delete', 'get', 'put']);
    expect(Object.keys(response.body.components.securitySchemes)).toEqual(['jwtUser', 'jwtClient', 'directClient', 'directUser', 'directWebsite']);
  });

  it('when the page is read by a browser, then it lists the methods and resources with links', async () => {
    const response = await api('GET', '', { headers: { Accept: 'text/html,application/xhtml+xml' } });
    expect(response.status).toBe(200);
    expect(response.text).toContain('<h2>Authentication</h2>');
    expect(response.text).toContain('USER_ID:&lt;user id&gt;:WEBSITE_ID:&lt;website id&gt;');
    expect(response.text).toMatch(/<a href="http:\/\/127\.0\.0\.1:\d+\/index\.php\/services\/rest\/samples\/123">/);
    expect(response.text).toContain('openapi.json');
  });
});

describe('rate limits shared by gateway replicas', () => {
  let redis: ChildProcess | undefined;
  let redisPort: number;

  async function startRedis(): Promise<void> {
    redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = connect(redisPort, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (up) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('redis-server did not start');
  }

  afterAll(() => {
    redis?.kill('SIGKILL');
  });

  it('when two gateways count in one Redis, then the limit holds across both; when Redis goes, each still limits on its own and nothing fails', async () => {
    redisPort = await freePort();
    await startRedis();
    const config = { authentication_methods: { jwtUser: { allow_http: true } }, rate_limit: { per_credential: { limit: 4, window_seconds: 60 } } };
    const env = { RATE_LIMIT_REDIS_URL: `redis://127.0.0.1:${redisPort}` };
    const [a, b] = [await gatewayWith(config, env), await gatewayWith(config, env)];
    const bearer = await token();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await api('GET', `${(i % 2 ? b : a).services}/samples/${sampleId}`, { token: bearer })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);

    redis?.kill('SIGKILL');
    await once(redis!, 'exit');
    // Another credential: each replica now counts its own share, so each lets 4 through and refuses the 5th.
    const other = await token({ userId: 3 });
    const fallback = [];
    for (let i = 0; i < 5; i++) fallback.push((await api('GET', `${a.services}/surveys`, { token: other })).status);
    expect(fallback).toEqual([200, 200, 200, 200, 429]);
  });
});
