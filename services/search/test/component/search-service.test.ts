// SearchService in this process, over a real gRPC server (it keeps nothing, so it
// has no database), in front of a stand-in index on loopback: what reaches the index, filtered for the caller, and what
// never does.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchV1, type ForwardChunk__Output, type ForwardRequest, type SearchServiceClient } from '@rex/protos';
import { loadRestConfig } from '@rex/rest-config';
import { SearchEnv } from '../../src/config.ts';
import { startSearchServer } from '../../src/server.ts';
import { clientOf, serve, settings, silentLogger, temporaryDirectory, userOf } from '../../../../component/support/served.ts';

type Received = { method: string; url: string; body: string };

const user = userOf(1, 2);
const received: Received[] = [];
let index: Server;
let search: ReturnType<typeof clientOf<SearchServiceClient>>;

/** Answers like an index: a hit, or the failures an index gives for bodies that ask for them. */
function startIndex(): Promise<string> {
  index = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method!, url: req.url!, body });
      if (body.includes('"broken"')) res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { root_cause: [{ reason: 'Failed to parse query' }] } }));
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ hits: { total: { value: 1 }, hits: [{ _id: '1' }] } }));
    });
  });
  return new Promise((resolve) => index.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(index.address() as AddressInfo).port}`)));
}

/** A forwarded call read to its end: the index's status and type, and the body it answered. */
async function forward(request: Partial<ForwardRequest>) {
  const stream = search.raw.serverStream<ForwardChunk__Output>('Forward', { auth: user, endpoint: 'es', method: 'post', segments: ['_search'], options: { limitToWebsite: true, limitToOwnData: true }, ...request }, 10_000);
  let status = 0;
  let contentType = '';
  const parts: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<ForwardChunk__Output>) {
    if (chunk.head) ({ status, contentType } = chunk.head);
    if (chunk.data) parts.push(chunk.data);
  }
  return { status, contentType, body: Buffer.concat(parts).toString('utf8') };
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

beforeAll(async () => {
  const url = await startIndex();
  const configFile = join(temporaryDirectory('search'), 'rest.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      authentication_methods: { jwtUser: { allow_http: true, resource_options: { search_index: ['es'] } } },
      search_index: { es: { index: 'occurrence', url, allowed: { get: { '^_search': 'search', '^_mapping': 'mappings' }, post: { '^_search': 'search' } } } },
    }),
  );
  const served = await serve('search.v1.SearchService', () => startSearchServer(settings(SearchEnv, { REX_CONFIG: configFile }), loadRestConfig(configFile), silentLogger('search')));
  search = clientOf<SearchServiceClient>(searchV1.SearchService, served);
});

afterAll(() => index?.close());

describe('forwarding to the index', () => {
  it("when a user searches, then the index gets <index>/<path> with the user's own filter around the query, and its answer comes back", async () => {
    const answer = await forward({ query: 'size=5', body: json({ query: { match: { 'taxon.accepted_name': 'Erithacus rubecula' } } }) });
    expect(answer).toMatchObject({ status: 200, contentType: expect.stringMatching(/^application\/json/) });
    expect(JSON.parse(answer.body).hits.total.value).toBe(1);
    const sent = received.at(-1)!;
    expect(sent.url).toBe('/occurrence/_search?size=5');
    const bool = JSON.parse(sent.body).query.bool;
    expect(bool.must).toEqual([{ match: { 'taxon.accepted_name': 'Erithacus rubecula' } }]);
    expect(bool.filter).toEqual(expect.arrayContaining([{ term: { 'metadata.created_by_id': '2' } }, { term: { 'metadata.website.id': '1' } }]));
  });

  it('when a mapping is asked for, then it is forwarded as it is, without a filter', async () => {
    const answer = await forward({ method: 'get', segments: ['_mapping'] });
    expect(answer.status).toBe(200);
    expect(received.at(-1)).toMatchObject({ method: 'GET', url: '/occurrence/_mapping', body: '' });
  });

  it("when the index refuses the query, then the call fails with the index's reason (the gateway's 400)", async () => {
    await expect(forward({ body: json({ query: { match: { broken: 1 } } }) })).rejects.toMatchObject({ code: grpc.status.FAILED_PRECONDITION, details: 'Failed to parse query' });
  });
});

describe('what never reaches the index', () => {
  it.each<[string, Partial<ForwardRequest>, grpc.status, RegExp]>([
    ['a path outside the allow-list', { segments: ['_delete_by_query'] }, grpc.status.FAILED_PRECONDITION, /_delete_by_query .* disallowed/],
    ['a path that climbs out of the index', { segments: ['..', 'other', '_search'] }, grpc.status.FAILED_PRECONDITION, /not allowed: "\.\."/],
    ['a body reaching outside the filter', { body: json({ aggs: { all: { global: {} } } }) }, grpc.status.FAILED_PRECONDITION, /"global" is not allowed/],
    ['an end-point not configured', { endpoint: 'elsewhere' }, grpc.status.NOT_FOUND, /Unknown search end-point elsewhere/],
  ])('when %s is asked for, then the call is refused saying why and the index receives nothing', async (_case, request, code, why) => {
    const before = received.length;
    const refused = await forward(request).then(
      () => expect.unreachable('forwarded'),
      (error: grpc.ServiceError) => error,
    );
    expect(refused.code).toBe(code);
    expect(refused.details).toMatch(why);
    expect(received.length).toBe(before);
  });
});
