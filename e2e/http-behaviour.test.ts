import { beforeAll, describe, expect, it } from 'vitest';
import { DB_CLIENT, api, sampleSubmission, services, setUpWorld, token } from './support/world.ts';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
const EXAMPLES: Record<string, string> = { id: '123', attributeId: '4', path: 'x', name: 'x' };
const clientHeader = { Authorization: `USER:${DB_CLIENT.username}:SECRET:${DB_CLIENT.secret}` };

let paths: Record<string, Record<string, unknown>>;

beforeAll(async () => {
  await setUpWorld();
  paths = (await api('GET', '/openapi.json')).body.paths;
});

/** A URL of an OpenAPI path, its parameters filled in. */
const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_m, name: string) => EXAMPLES[name]);

describe('methods a path does not serve', () => {
  it('when any path of the route table is asked with a method it does not serve, then 405 with the Allow of OPTIONS and a JSON body, before authentication', async () => {
    let refused = 0;
    for (const [path, { servers, ...operations }] of Object.entries(paths) as [string, { servers?: { url: string }[] }][]) {
      // A path beside the service root names its own server.
      const url = `${servers?.[0].url ?? services()}${concrete(path)}`;
      const options = await api('OPTIONS', url);
      expect(options.status, url).toBe(200);
      const allow = options.headers.get('allow')!.split(', ');
      for (const method of Object.keys(operations)) expect(allow, url).toContain(method.toUpperCase());
      expect(allow.at(-1)).toBe('OPTIONS');
      for (const method of METHODS.filter((m) => !allow.includes(m))) {
        const response = await api(method, url);
        expect(response.status, `${method} ${url}`).toBe(405);
        expect(response.headers.get('allow'), `${method} ${url}`).toBe(allow.join(', '));
        expect(response.body, `${method} ${url}`).toMatchObject({ code: 405, status: 'Method Not Allowed', message: expect.any(String) });
        refused += 1;
      }
    }
    expect(refused).toBeGreaterThan(50);
  });

  it('when a sample is PATCHed at each URL form, then 405 naming GET, PUT and DELETE; an unknown path stays 404', async () => {
    const base = services().replace(/\/rest$/, '');
    for (const url of [`${base}/rest/samples/1`, `${base}/samples/1`, `${base}/rest/v1.0/samples/1`]) {
      const response = await api('PATCH', url, { token: await token() });
      expect(response.status, url).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, PUT, DELETE, OPTIONS');
      expect(response.body.message).toMatch(/^PATCH is not allowed for \/index\.php\/services\/(rest\/(v1\.0\/)?)?samples\/1; it allows GET, PUT, DELETE, OPTIONS\.$/);
    }
    for (const method of ['PATCH', 'OPTIONS', 'POST']) {
      const response = await api(method, '/no-such-resource/1');
      expect(response.status, method).toBe(404);
      expect(response.body).toMatchObject({ code: 404 });
    }
  });

  it('when the service root or the OpenAPI document is written to, then 405 allowing GET', async () => {
    for (const path of ['', '/openapi.json']) {
      const response = await api('POST', path, { body: {} });
      expect(response.status, path).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, OPTIONS');
      expect(response.body.code).toBe(405);
      expect((await api('OPTIONS', path)).headers.get('allow')).toBe('GET, OPTIONS');
    }
  });

  it('when a path only takes POST, then HEAD is 405 without a body; where GET is served, HEAD answers as GET without a body', async () => {
    const upload = await api('HEAD', '/media-queue', { token: await token() });
    expect(upload.status).toBe(405);
    expect(upload.headers.get('allow')).toBe('POST, OPTIONS');
    expect(upload.text).toBe('');
    const bearer = await token();
    const created = await api('POST', '/samples', { token: bearer, body: sampleSubmission() });
    const get = await api('GET', `/samples/${created.body.values.id}`, { token: bearer });
    const head = await api('HEAD', `/samples/${created.body.values.id}`, { token: bearer });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
  });

  it('when a browser origin allowed by a method meets a 405 or a pre-flight, then CORS names the methods of that path', async () => {
    const origin = { Origin: 'https://app.example.org' };
    const refused = await api('PATCH', '/samples', { headers: origin });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    const preflight = await api('OPTIONS', '/samples/1', { headers: { ...origin, 'Access-Control-Request-Method': 'PUT' } });
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, PUT, DELETE, OPTIONS');
    expect(preflight.headers.get('allow')).toBe('GET, PUT, DELETE, OPTIONS');
  });
});

describe('the service root and deprecated resources', () => {
  const deprecated = ['taxon-observations', 'annotations', 'projects'];
  const resourcesOf = (body: { resources: { resource: string; deprecated?: boolean }[] }) => body.resources;

  it('when the root is read, then the deprecated resources are left out; with ?deprecated they are listed and marked', async () => {
    const plain = resourcesOf((await api('GET', '')).body);
    expect(plain.map((r) => r.resource)).toContain('samples');
    for (const name of deprecated) expect(plain.map((r) => r.resource)).not.toContain(name);
    const all = resourcesOf((await api('GET', '?deprecated')).body);
    for (const name of deprecated) expect(all.filter((r) => r.resource === name).every((r) => r.deprecated === true), name).toBe(true);
    expect(all.filter((r) => deprecated.includes(r.resource))).toHaveLength(6);
    expect(all.find((r) => r.resource === 'samples')).not.toHaveProperty('deprecated');
  });

  it('when the root is read as HTML, then the deprecated resources show only with ?deprecated', async () => {
    expect((await api('GET', '?format=html')).text).not.toContain('taxon-observations');
    expect((await api('GET', '?format=html&deprecated')).text).toContain('taxon-observations');
  });

  it('when the OpenAPI document is read, then the deprecated operations are marked deprecated and no others are', async () => {
    for (const [path, { servers: _servers, ...operations }] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations as Record<string, { deprecated?: boolean; tags: string[] }>)) {
        expect(operation.deprecated === true, `${method} ${path}`).toBe(deprecated.includes(operation.tags[0]));
      }
    }
  });
});

describe('formats of the deprecated lists', () => {
  const observations = (query: string, headers: Record<string, string> = {}) =>
    api('GET', `/taxon-observations?proj_id=${DB_CLIENT.projId}&edited_date_from=2000-01-01&page_size=5&${query}`, { headers: { ...clientHeader, ...headers } });

  it('when a list is asked for as CSV, then its data rows come as CSV; as HTML, as a page', async () => {
    const bearer = await token();
    expect((await api('POST', '/samples', { token: bearer, body: sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }) })).status).toBe(201);
    const json = await observations('');
    expect(json.status, json.text).toBe(200);
    const csv = await observations('format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines).toHaveLength(json.body.data.length + 1);
    expect(lines[0].split(',')).toEqual(expect.arrayContaining(['id', 'taxonName']));
    const html = await observations('', { Accept: 'text/html' });
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.text).toMatch(/^<!DOCTYPE HTML>/);
    expect(html.headers.get('deprecation')).toBe('true');
  });

  it('when any answer is given (a report as CSV, NDJSON or HTML, JSON, an error, health), then it tells browsers not to sniff its type', async () => {
    const bearer = await token();
    const report = '/reports/library/occurrences/filterable_explore_list.xml?limit=1';
    const answers = [
      await api('GET', `${report}&format=csv`, { token: bearer }),
      await api('GET', `${report}&format=ndjson`, { token: bearer }),
      await api('GET', `${report}&format=html`, { token: bearer }),
      await api('GET', report, { token: bearer }),
      await api('GET', '/samples/1'),
      await api('GET', `${services().replace(/\/index\.php.*$/, '')}/healthz`),
    ];
    for (const answer of answers) expect(answer.headers.get('x-content-type-options'), answer.text.slice(0, 80)).toBe('nosniff');
    expect(answers.slice(0, 4).map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  });

  it('when an answer without a data list is asked for as CSV, then 400 naming the formats it comes in', async () => {
    const response = await api('GET', '/reports?format=csv', { token: await token() });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('format must be json or html');
  });
});
