import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ForwardRequest__Output } from '@rex/protos';
import { compileAllowList } from '../../src/domain/allow-list.ts';
import { upstreamUrl } from '../../src/domain/path.ts';
import { outgoingRequest, type Endpoint } from '../../src/handlers/forward.ts';

const allowed = compileAllowList({ get: { '/^_search/': 'search', '^_mapping': 'mappings', '.*': 'anything' }, post: { '.*': 'anything' } });
const filtered: Endpoint = { url: 'http://127.0.0.1:9200', index: 'occurrence', applyFilters: true, allowed };
const open: Endpoint = { ...filtered, applyFilters: false };

const auth = { entity: 'ENTITY_USER', websiteId: '1', userId: '7', scope: 'SCOPE_USER', method: 'jwtUser', sharingWebsiteIds: [], siteRole: 3, connection: null };
const request = (segments: string[], options: { method?: string; query?: string; body?: unknown } = {}): ForwardRequest__Output =>
  ({
    auth,
    endpoint: 'es',
    method: options.method ?? 'get',
    segments,
    query: options.query ?? '',
    body: Buffer.from(options.body === undefined ? '' : JSON.stringify(options.body)),
    options: { limitToWebsite: false, limitToOwnData: true, allowAnonymous: false },
  }) as unknown as ForwardRequest__Output;

const OWN = { term: { 'metadata.created_by_id': '7' } };

/** What the index would receive, or the refusal's message. */
function attempt(endpoint: Endpoint, req: ForwardRequest__Output) {
  try {
    const out = outgoingRequest(endpoint, req);
    return { out, url: upstreamUrl(endpoint.url, endpoint.index, out.path, out.parameters) };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

describe('what a filtered end-point forwards', () => {
  it('when paths try to leave the search (traversal, encoded separators, look-alikes), then they are refused', () => {
    const probes = [
      ['_searchx', '..', '_count'],
      ['_searchx/../_async_search'],
      ['_searchx', '..', '..', 'other', '_doc', '1'],
      ['_search', '..', '_delete_by_query'],
      ['_mapping', '..', '..', '_cat', 'indices'],
      ['_search?'],
      ['_search#'],
      ['_search%2F..%2F_count'],
      ['_search\\..\\_count'],
      ['_search\u0000'],
      ['_search', ''],
      ['.'],
      ['_searchx'],
      ['_delete_by_query'],
      ['_doc', '1'],
      ['_msearch'],
      ['_async_search'],
    ];
    for (const segments of probes) {
      for (const method of ['get', 'post']) {
        const result = attempt(filtered, request(segments, { method, body: { query: { match_all: {} } } }));
        expect(result.refused, `${method} ${JSON.stringify(segments)}`).toBeDefined();
      }
    }
  });

  it('when q and its companions are given, then they become a query_string clause beside the filter and never a parameter', () => {
    const { out, url } = attempt(filtered, request(['_search'], { query: 'q=taxon.name:quercus&df=taxon.name&default_operator=AND&lenient=true&size=3' }));
    expect(url!.search).toBe('?size=3');
    expect(out!.method).toBe('POST');
    const bool = (out!.body!.query as { bool: { must: unknown[]; filter: unknown[] } }).bool;
    expect(bool.must).toEqual([{ query_string: { query: 'taxon.name:quercus', default_field: 'taxon.name', default_operator: 'AND', lenient: true } }]);
    expect(bool.filter).toContainEqual(OWN);
  });

  it('when a body key or aggregation could reach documents outside the filter, then 400 names it', () => {
    const bodies: [unknown, string][] = [
      [{ aggs: { all: { global: {}, aggs: { hits: { top_hits: {} } } } } }, 'global'],
      [{ aggregations: { a: { terms: { field: 'x' }, aggs: { b: { global: {} } } } } }, 'global'],
      [{ suggest: { s: { text: 'x', term: { field: 'y' } } } }, 'suggest'],
      [{ knn: { field: 'v', query_vector: [1] } }, 'knn'],
      [{ query: { terms: { user: { index: 'users', id: '2', path: 'x' } } } }, 'lookup'],
      [{ query: { more_like_this: { like: [{ _id: '1' }] } } }, 'more_like_this'],
      [{ aggs: { s: { significant_terms: { field: 'x' } } } }, 'significant_terms'],
      [{ script_fields: {} }, 'script_fields'],
      [{ aggs: { t: { terms: { field: 'taxon.name', min_doc_count: 0 } } } }, 'min_doc_count'],
      [{ aggs: { t: { terms: { field: 'x' }, aggs: { u: { terms: { field: 'y', min_doc_count: '0' } } } } } }, 'min_doc_count'],
      [{ aggs: { m: { multi_terms: { terms: [{ field: 'x' }, { field: 'y' }], min_doc_count: -1 } } } }, 'min_doc_count'],
      [{ query: { has_child: { type: 'c', query: { match_all: {} }, inner_hits: {} } } }, 'has_child'],
      [{ query: { bool: { should: [{ has_parent: { parent_type: 'p', query: { match_all: {} } } }] } } }, 'has_parent'],
      [{ runtime_mappings: {} }, 'runtime_mappings'],
    ];
    for (const [body, name] of bodies) expect(attempt(filtered, request(['_search'], { method: 'post', body })).refused, name).toMatch(new RegExp(name));
    expect(attempt(filtered, request(['_search'], { query: 'preference=x' })).refused).toMatch(/preference/);
    // Counts of one or more only list values of the documents the filter lets through.
    const kept = { aggs: { t: { terms: { field: 'taxon.name', min_doc_count: 2 } }, d: { date_histogram: { field: 'date', calendar_interval: 'month', min_doc_count: 0 } } } };
    expect(attempt(filtered, request(['_search'], { method: 'post', body: kept })).out).toBeDefined();
  });

  it('when a GET carries a body, then a search goes as POST with the filter and any other path is refused', () => {
    expect(attempt(filtered, request(['_search'], { body: { size: 1 } })).out).toMatchObject({ method: 'POST', path: '_search' });
    expect(attempt(open, request(['_doc', '1'], { body: { a: 1 } })).refused).toMatch(/takes no body/);
    expect(attempt(open, request(['_doc', '1'])).out).toMatchObject({ method: 'GET', body: undefined });
  });

  it('when an unfiltered end-point is asked to leave its index, then it is refused too', () => {
    for (const segments of [['..', 'other', '_search'], ['_search/../../other'], ['%2e%2e']]) expect(attempt(open, request(segments)).refused).toBeDefined();
  });

  it('property: whatever the path, method, parameters and body, a filtered end-point forwards only a filtered search or count, or a field list, below its index', () => {
    const segment = fc.oneof(
      fc.constantFrom('_search', '_count', '_mapping', 'field', '..', '.', '', '_doc', '%2F', '_search?', 'other', '_cat'),
      fc.string({ maxLength: 12 }),
    );
    const json = fc.jsonValue({ maxDepth: 4 });
    const body = fc.oneof(
      fc.dictionary(fc.constantFrom('query', 'aggs', 'size', 'suggest', 'knn', 'post_filter', 'highlight', 'collapse', 'global'), json, { maxKeys: 3 }),
      fc.record({ query: json }),
    );
    const query = fc.array(fc.tuple(fc.constantFrom('q', 'size', 'df', 'routing', 'preference', 'scope', 'sort', 'x'), fc.string({ maxLength: 8 })), { maxLength: 3 });
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.constantFrom('get', 'post', 'put', 'delete'), query, body, (segments, method, params, sent) => {
        const result = attempt(filtered, request(segments, { method, query: new URLSearchParams(params).toString(), body: sent }));
        if (result.refused !== undefined) return;
        const { out, url } = result;
        expect(url!.pathname.startsWith('/occurrence/')).toBe(true);
        expect(['/occurrence/_search', '/occurrence/_count', '/occurrence/_mapping', '/occurrence/_field_caps'].includes(url!.pathname) || /^\/occurrence\/_mapping\/field\/[^/]+$/.test(url!.pathname)).toBe(true);
        expect([...url!.searchParams.keys()].filter((k) => ['q', 'df', 'routing', 'preference', 'scope', 'x'].includes(k))).toEqual([]);
        if (url!.pathname === '/occurrence/_search' || url!.pathname === '/occurrence/_count') {
          expect(out!.method).toBe('POST');
          expect((out!.body!.query as { bool: { filter: unknown[] } }).bool.filter).toContainEqual(OWN);
          expect(JSON.stringify(out!.body)).not.toMatch(/"(global|suggest|knn)"/);
        } else {
          expect(out!.method).toBe('GET');
          expect(out!.body).toBeUndefined();
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe('search requests under adversarial input', () => {
  const K = 100_000;
  it('when the path or body is huge or deeply nested, then it is refused or forwarded filtered, at once', () => {
    expect(attempt(filtered, request(['_search' + '.'.repeat(K)])).refused).toBeDefined();
    expect(attempt(filtered, request(Array.from({ length: K / 10 }, () => '_search'))).refused).toBeDefined();
    expect(attempt(filtered, request(['_search', '..'.repeat(K)])).refused).toBeDefined();
    let deep: unknown = {};
    for (let i = 0; i < 1_000; i++) deep = { bool: { must: [deep] } };
    expect(attempt(filtered, request(['_search'], { method: 'post', body: { query: deep } })).refused).toMatch(/nested too deeply/);
    expect(attempt(filtered, request(['_search'], { query: `q=${'a'.repeat(K)}&${'x=1&'.repeat(10)}` })).refused).toMatch(/"x"/);
  });
});
