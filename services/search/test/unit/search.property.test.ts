import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '@rex/grpc';
import type { ForwardRequest__Output } from '@rex/protos';
import { RestConfigError, loadRestConfig } from '@rex/rest-config';
import { compileAllowList } from '../../src/domain/allow-list.ts';
import { RefusedRequest, normalisePath, upstreamUrl } from '../../src/domain/path.ts';
import { endpointsOf, outgoingRequest, type Endpoint } from '../../src/handlers/forward.ts';

// A fixed seed so CI runs the same cases; FUZZ_RUNS raises the runs and FUZZ_SEED picks other cases.
// (outgoing-request.test.ts holds the property that a filtered end-point forwards only filtered searches.)
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const runs = (ci: number) => ({ seed: SEED, numRuns: Number(process.env.FUZZ_RUNS ?? ci) });

const allowed = compileAllowList({ get: { '/^_search/': 'search', '^_mapping': 'mappings', '.*': 'anything' }, post: { '.*': 'anything' } });
const filtered: Endpoint = { url: 'http://127.0.0.1:9200/base', index: 'occurrence', applyFilters: true, allowed };
const open: Endpoint = { ...filtered, applyFilters: false, allowed: compileAllowList(undefined) };

const auth = { entity: 'ENTITY_USER', websiteId: '1', userId: '7', scope: 'SCOPE_USER', method: 'jwtUser', sharingWebsiteIds: [], siteRole: 3, connection: null };

const segment = fc.oneof(
  fc.constantFrom('_search', '_count', '_mapping', 'field', '_field_caps', '..', '.', '', '%2e%2e', '_doc', 'a/b', 'a\\b', '?', '#', '\u0000'),
  fc.webSegment(),
  fc.string({ maxLength: 10 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
);
const json = fc.jsonValue({ maxDepth: 4 });
const body = fc.oneof(
  fc.dictionary(fc.constantFrom('query', 'aggs', 'size', 'sort', 'global', 'index', 'id', '__proto__'), json, { maxKeys: 3 }).map((value) => Buffer.from(JSON.stringify(value))),
  json.map((value) => Buffer.from(JSON.stringify(value))),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes)),
  fc.constant(Buffer.alloc(0)),
);
const query = fc.oneof(
  fc.array(fc.tuple(fc.constantFrom('q', 'size', 'df', 'lenient', 'from', 'scope', 'debug', 'x', 'fields'), fc.string({ maxLength: 8 })), { maxLength: 4 }).map((pairs) => new URLSearchParams(pairs).toString()),
  fc.string({ maxLength: 30 }),
);

/** What the index would receive, or the refusal; any error other than a refusal fails the property. */
function attempt(endpoint: Endpoint, request: Partial<ForwardRequest__Output>): URL | 'refused' {
  try {
    const out = outgoingRequest(endpoint, { auth, endpoint: 'es', options: { limitToWebsite: false, limitToOwnData: true, allowAnonymous: false }, ...request } as ForwardRequest__Output);
    return upstreamUrl(endpoint.url, endpoint.index, out.path, out.parameters);
  } catch (error) {
    if (error instanceof RefusedRequest || error instanceof DomainError) return 'refused';
    throw error;
  }
}

describe('search paths and bodies, property-based', () => {
  it('when any path, method, query and body reach a filtered or an open end-point, then the request is refused as the caller\'s error or goes below the index', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(segment, { maxLength: 4 }), fc.constantFrom('get', 'post', 'put', 'delete', 'GET', 'head'), query, body, (isOpen, segments, method, raw, sent) => {
        const url = attempt(isOpen ? open : filtered, { segments, method, query: raw, body: sent });
        if (url === 'refused') return;
        expect(url.origin).toBe('http://127.0.0.1:9200');
        expect(url.pathname.startsWith('/base/occurrence/')).toBe(true);
      }),
      runs(1_500),
    );
  });

  it('when a path is accepted, then it is the segments joined, and the index URL reads back as those segments below the index', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (segments) => {
        let path: string;
        try {
          path = normalisePath(segments);
        } catch (error) {
          expect(error).toBeInstanceOf(RefusedRequest);
          return;
        }
        expect(path.split('/')).toEqual(segments);
        const url = upstreamUrl('http://127.0.0.1:9200/base', 'occurrence', path, new URLSearchParams());
        expect(url.pathname.split('/').slice(3).map(decodeURIComponent)).toEqual(segments);
      }),
      runs(1_500),
    );
  });
});

describe('search end-points of the configuration file, property-based', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rex-search-config-'));
  const pattern = fc.oneof(
    fc.constantFrom('^_search', '/^_search/', '/_search/i', '/x/ii', '/x/gimsuy', '(', '[a-', '*', '/(/', '\\', '(?<n>a)(?<n>b)', '/\\p{L}/u', '^_mapping/field/[^/]+$'),
    fc.string({ maxLength: 8 }),
  );

  it('when a configuration with any allow-list expressions loads, then the search service compiles every end-point from it', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('get', 'post', 'GET'), fc.dictionary(pattern, fc.constant('described'), { maxKeys: 3 }), { maxKeys: 2 }), (allowList) => {
        const file = join(dir, 'config.json');
        writeFileSync(file, JSON.stringify({ search_index: { es: { index: 'occurrence', url: 'http://127.0.0.1:9200', allowed: allowList } } }));
        let config;
        try {
          config = loadRestConfig(file);
        } catch (error) {
          expect(error).toBeInstanceOf(RestConfigError);
          expect((error as Error).message).toMatch(/search_index\.es\.allowed/);
          return;
        }
        expect(endpointsOf(config).get('es')?.index).toBe('occurrence');
      }),
      runs(300),
    );
  });
});

describe('search end-points of the configuration file, regressions found by the property', () => {
  // An expression that does not compile passed the loader and stopped the search service at start with a SyntaxError.
  it.each([['('], ['/x/ii'], ['[a-']])('when an allow-list expression is %j, then loading the configuration names it', (pattern) => {
    const file = join(mkdtempSync(join(tmpdir(), 'rex-search-config-')), 'config.json');
    writeFileSync(file, JSON.stringify({ search_index: { es: { index: 'occurrence', url: 'http://127.0.0.1:9200', allowed: { get: { [pattern]: 'x' } } } } }));
    expect(() => loadRestConfig(file)).toThrow(`search_index.es.allowed.get.${pattern}: not a regular expression`);
  });
});
