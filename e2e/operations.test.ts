import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { freePort } from '@rex/db';
import { startGateway, type ExtraGateway } from './support/gateway.ts';
import { queuedPhoto } from './support/media.ts';
import { api, sampleSubmission, setUpWorld, token } from './support/world.ts';

beforeAll(setUpWorld);

describe('health', () => {
  it('when the gateway is up, then /healthz and /readyz answer 200', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const response = await fetch(`${inject('gatewayUrl')}${path}`);
      expect(response.status, path).toBe(200);
    }
  });
});

describe('metrics', () => {
  it('when requests have been served, then the gateway and records expose RED metrics by route and method', async () => {
    await api('POST', '/samples', { token: await token(), body: sampleSubmission() });
    const gateway = await (await fetch(inject('gatewayMetricsUrl'))).text();
    expect(gateway).toMatch(/http_server_request_duration_seconds_count\{method="POST",route="\/index.php\/services\/samples",status_code="201"\} \d+/);
    expect(gateway).toMatch(/grpc_client_handling_seconds_count\{grpc_service="records.v1.RecordsService",grpc_method="CreateSample",grpc_code="OK"\}/);
    const records = await (await fetch(inject('recordsMetricsUrl'))).text();
    expect(records).toMatch(/grpc_server_handled_total\{grpc_service="records.v1.RecordsService",grpc_method="CreateSample",grpc_code="OK"\} \d+/);
    expect(records).toMatch(/process_cpu_seconds_total/);
  });

  it('when a report is streamed, then both sides count the streaming call; pools, requests in flight and the build are exposed', async () => {
    expect((await api('GET', '/reports/library/occurrences/filterable_explore_list.xml?limit=1', { token: await token() })).status).toBe(200);
    const gateway = await (await fetch(inject('gatewayMetricsUrl'))).text();
    expect(gateway).toMatch(/grpc_client_handling_seconds_count\{grpc_service="reports.v1.ReportsService",grpc_method="RunReport",grpc_code="OK"\} \d+/);
    expect(gateway).toMatch(/^http_server_requests_in_flight \d+/m);
    expect(gateway).toMatch(/rex_db_pool_connections\{pool="rex-gateway",state="in_use"\} \d+/);
    expect(gateway).toMatch(/rex_build_info\{service="gateway",version="[^"]+",nodejs="v24[^"]*"\} 1/);
    const reports = await (await fetch(inject('reportsMetricsUrl'))).text();
    expect(reports).toMatch(/grpc_server_handled_total\{grpc_service="reports.v1.ReportsService",grpc_method="RunReport",grpc_code="OK"\} \d+/);
    expect(reports).toMatch(/rex_db_pool_max\{pool="rex-reports-read"\} \d+/);
    expect(reports).toMatch(/rex_db_pool_waiting\{pool="rex-reports-read"\} \d+/);
    expect(reports).toMatch(/rex_db_pool_connections\{pool="rex-reports-read",state="idle"\} \d+/);
  });

  it('when a file is uploaded and read back and the search index is asked, then both sides count Upload, Download and Forward', async () => {
    const bearer = await token();
    const name = await queuedPhoto(bearer);
    expect((await api('GET', `/media-queue/${name}`, { token: bearer })).status).toBe(200);
    // No index server runs beside the e2e suite: the call fails, and is counted with its code.
    expect((await api('GET', '/es/_search', { token: bearer })).status).toBe(503);
    const gateway = await (await fetch(inject('gatewayMetricsUrl'))).text();
    const media = await (await fetch(inject('mediaMetricsUrl'))).text();
    const search = await (await fetch(inject('searchMetricsUrl'))).text();
    for (const method of ['Upload', 'Download']) {
      expect(gateway).toMatch(new RegExp(`grpc_client_handling_seconds_count\\{grpc_service="media.v1.MediaService",grpc_method="${method}",grpc_code="OK"\\} [1-9]`));
      expect(media).toMatch(new RegExp(`grpc_server_handled_total\\{grpc_service="media.v1.MediaService",grpc_method="${method}",grpc_code="OK"\\} [1-9]`));
    }
    expect(gateway).toMatch(/grpc_client_handling_seconds_count\{grpc_service="search.v1.SearchService",grpc_method="Forward",grpc_code="UNAVAILABLE"\} [1-9]/);
    expect(search).toMatch(/grpc_server_handled_total\{grpc_service="search.v1.SearchService",grpc_method="Forward",grpc_code="UNAVAILABLE"\} [1-9]/);
    expect(search).toMatch(/grpc_server_calls_in_flight\{grpc_service="search.v1.SearchService",grpc_method="Forward"\} 0/);
  });
});

describe('tracing', () => {
  type Span = { service: string; traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes: Record<string, unknown> };
  const spansOf = async (traceId: string) => (await (await fetch(`${inject('otlpUrl')}/spans?traceId=${traceId}`)).json()) as Span[];
  const SERVER = 2;
  const CLIENT = 3;

  /** Creates a sample under the client's traceparent and waits for its whole trace. */
  async function tracedSubmission(flags: '00' | '01'): Promise<{ traceId: string; trace: Span[] }> {
    // The client starts the trace itself (W3C traceparent), so its spans can be told from any other request's.
    const traceId = randomBytes(16).toString('hex');
    const response = await api('POST', '/samples', {
      token: await token(),
      body: sampleSubmission({ comment: 'traced-comment' }),
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-${flags}` },
    });
    expect(response.status).toBe(201);
    const complete = (trace: Span[]) =>
      trace.some((s) => s.service === 'gateway' && s.name.includes('CreateSample')) &&
      trace.some((s) => s.service === 'records' && s.name.includes('CreateSample')) &&
      trace.some((s) => s.service === 'records' && s.kind === CLIENT);
    let trace: Span[] = [];
    for (let attempt = 0; flags === '01' && attempt < 100 && !complete(trace); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      trace = await spansOf(traceId);
    }
    return { traceId, trace };
  }

  it('when a sample is created, then one trace spans gateway, records and the SQL it ran, each span the child of the one that led to it', async () => {
    const { trace } = await tracedSubmission('01');
    expect([...new Set(trace.map((s) => s.service))].sort()).toEqual(['gateway', 'records']);
    const request = trace.find((s) => s.service === 'gateway' && s.kind === SERVER);
    expect(request?.name).toMatch(/^POST \/.*samples$/);
    expect(request?.attributes['http.response.status_code']).toBe(201);
    const call = trace.find((s) => s.service === 'gateway' && s.kind === CLIENT && s.name.endsWith('/CreateSample'));
    expect(call?.parentSpanId).toBe(request?.spanId);
    const served = trace.find((s) => s.service === 'records' && s.kind === SERVER && s.name.endsWith('/CreateSample'));
    expect(served?.parentSpanId).toBe(call?.spanId);
    const statements = trace.filter((s) => s.service === 'records' && s.kind === CLIENT);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.every((s) => s.parentSpanId === served?.spanId && s.attributes['db.system.name'] === 'postgresql')).toBe(true);
    // A statement's text, with its values bound apart: the sample's comment is in none of them.
    expect(statements.some((s) => /INSERT INTO records\.samples/.test(String(s.attributes['db.query.text'])))).toBe(true);
    expect(JSON.stringify(statements)).not.toContain('traced-comment');
  });

  it('when the client says its trace is not sampled, then no service makes a span of it', async () => {
    const unsampled = await tracedSubmission('00');
    // Spans are exported in the order they end: once a later request's trace is whole, an earlier one's would have come.
    const later = await tracedSubmission('01');
    expect(later.trace.length).toBeGreaterThan(0);
    expect(await spansOf(unsampled.traceId)).toEqual([]);
  });
});

describe('credentials in URLs', () => {
  it('when a request carries a secret in its query string, then no span holds it', async () => {
    const traceId = randomBytes(16).toString('hex');
    const secret = `SEKRET${randomBytes(6).toString('hex')}`;
    await api('GET', `/samples?user=someone&secret=${secret}&limit=3`, { headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } });
    type Span = { service: string; traceId: string; kind: number; attributes: Record<string, unknown> };
    let trace: Span[] = [];
    for (let attempt = 0; attempt < 100 && !trace.some((s) => s.service === 'gateway' && s.kind === 2); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      trace = (await (await fetch(`${inject('otlpUrl')}/spans?traceId=${traceId}`)).json()) as Span[];
    }
    const server = trace.find((s) => s.service === 'gateway' && s.kind === 2);
    expect(server?.attributes['url.query'] ?? server?.attributes['http.target']).toMatch(/secret=REDACTED/);
    expect(JSON.stringify(trace)).not.toContain(secret);
    expect(JSON.stringify(trace)).not.toContain('someone');
  });
});

describe('when records is down', () => {
  let gateway: ExtraGateway;
  let url: string;

  beforeAll(async () => {
    gateway = await startGateway(
      { authentication_methods: { jwtUser: { allow_http: true } } },
      { RECORDS_ADDR: `127.0.0.1:${await freePort()}` },
    );
    url = gateway.url;
  });

  afterAll(() => gateway?.stop());

  it('then the gateway stays ready and its sample routes answer a JSON 503 at once', async () => {
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const started = Date.now();
    const response = await api('GET', `${url}/index.php/services/rest/samples/1`, { token: await token() });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: 503, status: 'Service Unavailable' });
    expect(response.body.message).toMatch(/records service is unavailable/);
  });
});
