import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '@rex/admin';
import { startGateway, type ExtraGateway } from './support/gateway.ts';
import { DB_CLIENT, WEBSITE_PASSWORD, api, clientToken, eventually, setUpWorld, token } from './support/world.ts';

type Received = { method: string; url: string; body: string };

/** A stand-in for Elasticsearch on loopback: records what it receives and answers like an index. */
async function startIndex(): Promise<{ url: string; received: Received[]; server: Server; abandoned: string[] }> {
  const received: Received[] = [];
  const abandoned: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method!, url: req.url!, body });
      if (body.includes('"hang"')) {
        // Never answers; notes when the proxy gives the request up.
        res.on('close', () => abandoned.push(body));
      } else if (body.includes('"broken"')) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { root_cause: [{ reason: 'Failed to parse query [broken' }] } }));
      } else if (body.includes('"explode"')) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { reason: 'shard failure' } }));
      } else {
        res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify({ hits: { total: { value: 1 }, hits: [{ _id: '1' }] } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server, abandoned };
}

/** Sends a path exactly as written (fetch would resolve `..` and re-encode it). */
function rawRequest(method: string, url: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: unknown }> {
  const { host, pathname } = new URL(url.split('/index.php')[0]);
  const [hostname, port] = host.split(':');
  const path = `${pathname.replace(/\/$/, '')}/index.php${url.split('/index.php')[1]}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method, path, headers: { ...headers, ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
        resolve({ status: res.statusCode!, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

let index: Awaited<ReturnType<typeof startIndex>>;
let gateway: ExtraGateway;
const last = () => index.received.at(-1)!;
const jsonBody = () => JSON.parse(last().body);

beforeAll(async () => {
  await setUpWorld();
  index = await startIndex();
  const allowed = { get: { '/^_search/': 'search', '^_mapping': 'mappings' }, post: { '/^_search/': 'search' } };
  gateway = await startGateway(
    {
      authentication_methods: {
        jwtUser: { allow_http: true, resource_options: { search_index: { es: { limit_to_own_data: true } } } },
        jwtClient: { allow_http: true, resource_options: { search_index: ['es'] } },
        directClient: { allow_http: true, resource_options: { elasticsearch: ['es'] } },
        directWebsite: { allow_http: true },
      },
      clients: {
        LEGACY: {
          shared_secret: 'legacy-secret',
          projects: {
            A: { website_id: DEMO.websiteId, title: 'A', sharing: 'verification', search_index: ['es'] },
            B: { website_id: DEMO.websiteId, title: 'B', search_index: ['es', 'open'] },
          },
        },
        SPREAD: {
          shared_secret: 'spread-secret',
          projects: { A: { website_id: DEMO.websiteId, title: 'A', search_index: ['es'] }, B: { website_id: 2, title: 'B', search_index: ['es'] } },
        },
      },
      search_index: {
        es: { index: 'occurrence', url: index.url, allowed },
        open: { open: true, apply_filters: false, index: 'public_alias', url: index.url, allowed: { get: { '^_search': 'search' } } },
        down: { index: 'x', url: 'http://127.0.0.1:9', allowed: { get: { '^_search': 'search' } } },
      },
    },
    {},
    true,
  );
});

afterAll(() => {
  gateway?.stop();
  index?.server.close();
});

describe('search-index proxy', () => {
  it("when a user searches, then the request reaches <url>/<index>/<path> with the user's built-in filter and without API parameters", async () => {
    const response = await api('POST', `${gateway.services}/es/_search?size=5&user=x&secret=y&format=json`, {
      token: await token(),
      body: { query: { match: { 'taxon.accepted_name': 'Erithacus rubecula' } } },
    });
    expect(response.status).toBe(200);
    expect(response.body.hits.total.value).toBe(1);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(last().url).toBe('/occurrence/_search?size=5');
    const sent = jsonBody();
    expect(sent.track_total_hits).toBe(true);
    expect(sent.query.bool.must).toEqual([{ match: { 'taxon.accepted_name': 'Erithacus rubecula' } }]);
    expect(sent.query.bool.filter).toEqual([
      { term: { 'metadata.created_by_id': String(DEMO.userId) } },
      { term: { 'metadata.website.id': String(DEMO.websiteId) } },
      { query_string: { query: 'metadata.confidential:false AND metadata.release_status:R AND ((metadata.sensitivity_blur:F) OR (!metadata.sensitivity_blur:*))' } },
    ]);
  });

  it("when a client connection searches, then the connection's filter is merged into its own bool query", async () => {
    const response = await api('POST', `${gateway.services}/es/_search?proj_id=${DB_CLIENT.projId}`, {
      headers: { Authorization: `USER:${DB_CLIENT.username}:SECRET:${DB_CLIENT.secret}` },
      body: { query: { bool: { filter: { term: { 'taxon.group': 'birds' } } } } },
    });
    expect(response.status, response.text).toBe(200);
    expect(jsonBody().query.bool.filter).toEqual([
      { term: { 'taxon.group': 'birds' } },
      { terms: { 'metadata.website.id': [String(DEMO.websiteId)] } },
      {
        query_string: {
          query: 'metadata.confidential:false AND NOT metadata.hide_sample_as_private:true AND metadata.release_status:R AND ((metadata.sensitivity_blur:B) OR (!metadata.sensitivity_blur:*))',
        },
      },
    ]);
  });

  it('when a path is not in the allow-list, or the bare end-point is asked for, then 400 and nothing is forwarded', async () => {
    const before = index.received.length;
    for (const path of ['/es/_delete_by_query', '/es', '/es/doc/1']) {
      const response = await api('GET', `${gateway.services}${path}`, { token: await token() });
      expect(response.status, `${path} ${response.text}`).toBe(400);
      expect(response.body.code).toBe(400);
    }
    expect(index.received.length).toBe(before);
  });

  it('when a GET mapping is asked for, then it is forwarded without a filter', async () => {
    const response = await api('GET', `${gateway.services}/es/_mapping`, { token: await token() });
    expect(response.status).toBe(200);
    expect(last()).toMatchObject({ method: 'GET', url: '/occurrence/_mapping', body: '' });
  });

  it('when the method does not list search end-points, or not this one, then 403', async () => {
    const asWebsite = await api('GET', `${gateway.services}/es/_search`, { headers: { Authorization: `WEBSITE_ID:${DEMO.websiteId}:SECRET:${WEBSITE_PASSWORD}` } });
    expect(asWebsite.status).toBe(403);
    expect(asWebsite.body.message).toBe('Search index access is not enabled for directWebsite authentication');
    const otherEndpoint = await api('GET', `${gateway.services}/down/_search`, { token: await token() });
    expect(otherEndpoint.status).toBe(403);
    expect(otherEndpoint.body.message).toBe('Search request to down is not enabled for jwtUser authentication');
  });

  it('when a jwtClient connection POSTs a search, then 405; a GET search is served', async () => {
    const bearer = await clientToken();
    expect((await api('POST', `${gateway.services}/es/_search?proj_id=${DB_CLIENT.projId}`, { token: bearer, body: {} })).status).toBe(405);
    expect((await api('GET', `${gateway.services}/es/_search?proj_id=${DB_CLIENT.projId}`, { token: bearer })).status).toBe(200);
  });

  it("when a connection does not list the end-point, then 403", async () => {
    const response = await api('GET', `${gateway.services}/es/_search?proj_id=${DB_CLIENT.limitedProjId}`, {
      headers: { Authorization: `USER:${DB_CLIENT.username}:SECRET:${DB_CLIENT.secret}` },
    });
    expect(response.status).toBe(403);
    expect(response.body.message).toBe('Search request to es is not enabled for this client');
  });

  it('when an open end-point is asked without credentials, then it is forwarded without a filter', async () => {
    const response = await api('GET', `${gateway.services}/open/_search?q=robin`);
    expect(response.status).toBe(200);
    expect(last()).toMatchObject({ method: 'GET', url: '/public_alias/_search?q=robin' });
  });

  it('when unauthenticated callers try a closed end-point, then 401', async () => {
    expect((await api('GET', `${gateway.services}/es/_search`)).status).toBe(401);
  });

  it('when the index refuses the query, then 400 with its reason; when it fails, 503', async () => {
    const refused = await api('POST', `${gateway.services}/es/_search`, { token: await token(), body: { query: { match: { broken: 1 } } } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^Failed to parse query/);
    const failed = await api('POST', `${gateway.services}/es/_search`, { token: await token(), body: { query: { match: { explode: 1 } } } });
    expect(failed.status).toBe(503);
  });

  it('when the index cannot be reached, then a JSON 503 at once', async () => {
    const open = await startGateway(
      { authentication_methods: { jwtUser: { allow_http: true, resource_options: { search_index: ['down'] } } }, search_index: { down: { index: 'x', url: 'http://127.0.0.1:9' } } },
      {},
      true,
    );
    try {
      const response = await api('GET', `${open.services}/down/_search`, { token: await token() });
      expect(response.status).toBe(503);
      expect(response.body.message).toMatch(/cannot be reached/);
    } finally {
      open.stop();
    }
  });

  it('when debug=true is given, then the body that would be sent comes back and nothing is forwarded', async () => {
    const before = index.received.length;
    const response = await api('POST', `${gateway.services}/es/_search?debug=true`, { token: await token(), body: { size: 0 } });
    expect(response.status).toBe(200);
    expect(response.body.size).toBe(0);
    expect(response.body.query.bool.filter.length).toBe(3);
    expect(index.received.length).toBe(before);
  });

  it("when a legacy configuration client searches without proj_id, then its projects' one website is searched, with the strictest project's rules", async () => {
    const response = await api('POST', `${gateway.services}/es/_search`, { headers: { Authorization: 'USER:LEGACY:SECRET:legacy-secret' }, body: { size: 1 } });
    expect(response.status, response.text).toBe(200);
    expect(jsonBody().query.bool.filter).toEqual([
      { terms: { 'metadata.website.id': [String(DEMO.websiteId)] } },
      {
        query_string: {
          query: 'metadata.confidential:false AND NOT metadata.hide_sample_as_private:true AND metadata.release_status:R AND ((metadata.sensitivity_blur:B) OR (!metadata.sensitivity_blur:*))',
        },
      },
    ]);
    // The website helpers' own read parameters reach the index as they sent them.
    const helper = await api('POST', `${gateway.services}/es/_search?filter_path=hits.total,hits.hits._source&size=5&track_total_hits=true`, {
      headers: { Authorization: 'USER:LEGACY:SECRET:legacy-secret' },
      body: { query: { match_all: {} } },
    });
    expect(helper.status, helper.text).toBe(200);
    const forwarded = new URL(last().url, 'http://index');
    expect(Object.fromEntries(forwarded.searchParams)).toEqual({ filter_path: 'hits.total,hits.hits._source', size: '5', track_total_hits: 'true' });
    expect(jsonBody().query.bool.filter[0]).toEqual({ terms: { 'metadata.website.id': [String(DEMO.websiteId)] } });
    const spread = await api('GET', `${gateway.services}/es/_search`, { headers: { Authorization: 'USER:SPREAD:SECRET:spread-secret' } });
    expect(spread.status).toBe(400);
    expect(spread.body.message).toMatch(/more than one website/);
    const exchange = await api('GET', `${gateway.services}/taxon-observations?edited_date_from=2020-01-01`, { headers: { Authorization: 'USER:LEGACY:SECRET:legacy-secret' } });
    expect(exchange.body).toMatchObject({ code: 400, message: 'Missing proj_id parameter.' });
  });

  it('when OPTIONS is asked of an end-point, then GET, POST and OPTIONS are allowed', async () => {
    const response = await api('OPTIONS', `${gateway.services}/es/_search`);
    expect(response.headers.get('allow')).toBe('GET, POST, OPTIONS');
  });
});

describe('search-index proxy under attack', () => {
  const probes = [
    '_searchx/../_count',
    '_searchx%2F..%2F_async_search',
    '_searchx/../../other_index/_doc/1',
    '_search/../_delete_by_query',
    '_delete_by_query',
    '_mapping/../../_cat/indices',
    '_search%3F',
    '_search%23',
    '_search%252F..%252F_count',
    '_search/%2e%2e/_count',
    '%2e%2e/other_index/_search',
    '_search%5C..%5C_count',
    '_search%00',
    '_search//',
    '_doc/1',
    '_msearch',
  ];

  async function callers(): Promise<[string, string, Record<string, string>, string][]> {
    return [
      ['jwtUser', 'es', { Authorization: `Bearer ${await token()}` }, ''],
      ['jwtClient', 'es', { Authorization: `Bearer ${await clientToken()}` }, `?proj_id=${DB_CLIENT.projId}`],
      ['directClient', 'es', { Authorization: `USER:${DB_CLIENT.username}:SECRET:${DB_CLIENT.secret}` }, `?proj_id=${DB_CLIENT.projId}`],
      ['legacy configuration client without proj_id', 'es', { Authorization: 'USER:LEGACY:SECRET:legacy-secret' }, ''],
      ['directWebsite (search not enabled)', 'es', { Authorization: `WEBSITE_ID:${DEMO.websiteId}:SECRET:${WEBSITE_PASSWORD}` }, ''],
      ['anonymous, open end-point', 'open', {}, ''],
    ];
  }

  it('when a path tries to leave the filtered search or the index, then every caller gets a JSON 4xx and the index receives nothing', async () => {
    const before = index.received.length;
    for (const [who, endpoint, headers, query] of await callers()) {
      for (const probe of probes) {
        for (const method of ['GET', 'POST']) {
          const body = method === 'POST' || probe === '_doc/1' ? JSON.stringify({ query: { match_all: {} } }) : undefined;
          const response = await rawRequest(method, `${gateway.services}/${endpoint}/${probe}${query}`, headers, body);
          expect(response.status, `${who} ${method} ${probe}: ${JSON.stringify(response.body)}`).toBeGreaterThanOrEqual(400);
          expect(response.status, `${who} ${method} ${probe}`).toBeLessThan(500);
          expect((response.body as { code: number }).code, `${who} ${method} ${probe} ${JSON.stringify(response.body)}`).toBe(response.status);
        }
      }
    }
    expect(index.received.map((r) => `${r.method} ${r.url}`)).toEqual(index.received.slice(0, before).map((r) => `${r.method} ${r.url}`));
  });

  it('when a search carries q, then the index gets it inside the filtered body, never as a parameter', async () => {
    const response = await api('GET', `${gateway.services}/es/_search?q=taxon.name:quercus&df=taxon.name&size=2`, { token: await token() });
    expect(response.status, response.text).toBe(200);
    expect(last()).toMatchObject({ method: 'POST', url: '/occurrence/_search?size=2' });
    const bool = jsonBody().query.bool;
    expect(bool.must).toEqual([{ query_string: { query: 'taxon.name:quercus', default_field: 'taxon.name' } }]);
    expect(bool.filter).toContainEqual({ term: { 'metadata.created_by_id': String(DEMO.userId) } });
  });

  it('when a search body reaches for documents outside the filter, then 400 names the key and nothing is forwarded', async () => {
    const before = index.received.length;
    for (const [body, name] of [
      [{ aggs: { all: { global: {}, aggs: { top: { top_hits: {} } } } } }, 'global'],
      [{ suggest: { s: { text: 'quercus', term: { field: 'taxon.name' } } } }, 'suggest'],
      [{ knn: { field: 'v', query_vector: [1, 2], k: 5 } }, 'knn'],
      [{ size: 0, aggs: { species: { terms: { field: 'taxon.name', min_doc_count: 0, size: 10000 } } } }, 'min_doc_count'],
      [{ query: { has_child: { type: 'determination', query: { match_all: {} }, inner_hits: {} } } }, 'has_child'],
    ] as const) {
      const response = await api('POST', `${gateway.services}/es/_search`, { token: await token(), body });
      expect(response.status, name).toBe(400);
      expect(response.body.message).toContain(name);
    }
    const routing = await api('GET', `${gateway.services}/es/_search?routing=x`, { token: await token() });
    expect(routing.status).toBe(400);
    expect(routing.body.message).toContain('routing');
    expect(index.received.length).toBe(before);
  });

  it('when the client of a search goes away while the index is still answering, then the request to the index is given up too', async () => {
    const marker = `hang-${Date.now()}`;
    const controller = new AbortController();
    const pending = fetch(`${gateway.services}/es/_search`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await token()}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: { match: { hang: marker } } }),
      signal: controller.signal,
    }).catch(() => undefined);
    await eventually(async () => expect(index.received.some((r) => r.body.includes(marker))).toBe(true));
    controller.abort();
    await pending;
    await eventually(async () => expect(index.abandoned.some((body) => body.includes(marker))).toBe(true), 5_000);
  });

  it('when a GET with a body asks for a document of an unfiltered end-point, then it is refused, not turned into a write', async () => {
    const before = index.received.length;
    const response = await rawRequest('GET', `${gateway.services}/open/_search/x`, {}, JSON.stringify({ a: 1 }));
    expect(response.status).toBe(400);
    expect(index.received.length).toBe(before);
  });

  it('when a website asks for a user scope, then its search keeps the website clause and blurred records', async () => {
    const websiteGateway = await startGateway(
      {
        authentication_methods: { directWebsite: { allow_http: true, resource_options: { search_index: ['es'] } } },
        search_index: { es: { index: 'occurrence', url: index.url, allowed: { get: { '^_search': 'search' } } } },
      },
      {},
      true,
    );
    try {
      const response = await api('GET', `${websiteGateway.services}/es/_search?scope=user`, { headers: { Authorization: `WEBSITE_ID:${DEMO.websiteId}:SECRET:${WEBSITE_PASSWORD}` } });
      expect(response.status, response.text).toBe(200);
      const filter = JSON.stringify(jsonBody().query.bool.filter);
      expect(filter).toContain('metadata.website.id');
      expect(filter).toContain('sensitivity_blur:B');
      expect(filter).not.toContain('sensitivity_blur:F');
    } finally {
      websiteGateway.stop();
    }
  });
});

describe('the development configuration', () => {
  it('when no index server runs, then its search end-point answers a clear JSON 503', async () => {
    const response = await api('GET', '/es/_search', { token: await token() });
    expect(response.status).toBe(503);
    expect(response.body.message).toBe('The search index of es cannot be reached.');
  });
});
