import { describe, expect, it } from 'vitest';
import { allowListVerdict, compileAllowList, compilePattern } from '../../src/domain/allow-list.ts';
import { FilterError, applyFilter, builtInClauses, type Searcher } from '../../src/domain/filter.ts';

const base: Searcher = { websiteId: '1', scope: 'SCOPE_REPORTING', limitToWebsite: false, limitToOwnData: false, allowAnonymous: false };
const connection = { allowConfidential: false, allowSensitive: true, allowUnreleased: false, fullPrecisionSensitiveRecords: false };

describe('builtInClauses', () => {
  it('when a connection with reporting sharing searches, then it gets the website list and the default query string', () => {
    expect(builtInClauses({ ...base, connection })).toEqual([
      { terms: { 'metadata.website.id': ['1'] } },
      {
        query_string: {
          query: 'metadata.confidential:false AND NOT metadata.hide_sample_as_private:true AND metadata.release_status:R AND ((metadata.sensitivity_blur:B) OR (!metadata.sensitivity_blur:*))',
        },
      },
    ]);
  });

  it('when websites share with the caller for its scope, then all of them are searched', () => {
    expect(builtInClauses({ ...base, sharingWebsiteIds: ['1', '2'], connection })[0]).toEqual({ terms: { 'metadata.website.id': ['1', '2'] } });
  });

  it('when the connection allows confidential, unreleased and full-precision records but not sensitive ones, then the query string says so', () => {
    const [, clause] = builtInClauses({ ...base, connection: { allowConfidential: true, allowSensitive: false, allowUnreleased: true, fullPrecisionSensitiveRecords: true } });
    expect(clause).toEqual({ query_string: { query: 'metadata.sensitive:false AND ((metadata.sensitivity_blur:F) OR (!metadata.sensitivity_blur:*))' } });
  });

  it('when a user searches within the website, then own records of the website only, full precision', () => {
    expect(builtInClauses({ ...base, userId: '7', scope: 'SCOPE_USER_WITHIN_WEBSITE' })).toEqual([
      { term: { 'metadata.created_by_id': '7' } },
      { term: { 'metadata.website.id': '1' } },
      { query_string: { query: 'metadata.confidential:false AND metadata.release_status:R AND ((metadata.sensitivity_blur:F) OR (!metadata.sensitivity_blur:*))' } },
    ]);
  });

  it('when own data is required but there is no user, then the search is refused unless anonymous searches are allowed', () => {
    expect(() => builtInClauses({ ...base, limitToOwnData: true })).toThrow(FilterError);
    expect(() => builtInClauses({ ...base, limitToOwnData: true, allowAnonymous: true })).not.toThrow();
  });

  it('when a caller without a user asks for a user scope, then it keeps the website clause and the blurred records', () => {
    for (const scope of ['SCOPE_USER', 'SCOPE_USER_WITHIN_WEBSITE']) {
      const clauses = builtInClauses({ ...base, scope, sharingWebsiteIds: ['1'] });
      expect(clauses).toContainEqual({ terms: { 'metadata.website.id': ['1'] } });
      expect(JSON.stringify(clauses)).toContain('metadata.sensitivity_blur:B');
      expect(JSON.stringify(clauses)).not.toContain('sensitivity_blur:F');
    }
  });
});

describe('applyFilter', () => {
  const clauses = [{ term: { a: 1 } }];

  it('when there is no query, then a bool filter is created', () => {
    expect(applyFilter({ size: 0 }, clauses)).toEqual({ size: 0, track_total_hits: true, query: { bool: { filter: clauses } } });
  });

  it('when the query is not a bool query, then it is kept as bool.must', () => {
    expect(applyFilter({ query: { match_all: {} } }, clauses).query).toEqual({ bool: { must: [{ match_all: {} }], filter: clauses } });
  });

  it('when the bool query has a single filter object, then it becomes a list with the clauses after it', () => {
    expect(applyFilter({ query: { bool: { filter: { term: { b: 2 } }, should: [1] } } }, clauses).query).toEqual({
      bool: { filter: [{ term: { b: 2 } }, ...clauses], should: [1] },
    });
  });
});

describe('allow-list', () => {
  it('when patterns use PHP delimiters or are bare, then both compile', () => {
    expect(compilePattern('/^_search/').test('_search')).toBe(true);
    expect(compilePattern('/^DOC/i').test('doc')).toBe(true);
    expect(compilePattern('^_mapping').test('_mapping')).toBe(true);
  });

  it('when a pattern is not anchored at the end, then it still matches the whole path only', () => {
    for (const path of ['_searchx', '_search/../_count', '_searchx/../../other/_doc/1', '_search?', '_search\n_count']) {
      expect(compilePattern('^_search').test(path), path).toBe(false);
      expect(compilePattern('/_search/').test(path), path).toBe(false);
    }
    expect(compilePattern('/^_mapping/m').test('x\n_mapping')).toBe(false);
  });

  it('when a method has no entry, then nothing is allowed for it (405 if another method takes the path); no list allows anything', () => {
    const list = compileAllowList({ get: { '^_search': 'search' } });
    expect(allowListVerdict(list, 'GET', '_search')).toBe('allowed');
    expect(allowListVerdict(list, 'post', '_search')).toBe('method');
    expect(allowListVerdict(list, 'get', '_delete_by_query')).toBe('path');
  });

  it('when an end-point has no allowed list, then it only reads: writes, deletions and administration never reach the index', () => {
    const list = compileAllowList(undefined);
    for (const path of ['_search', '_count', '_mapping', '_mapping/field/taxon.name', '_field_caps', '_doc/1', '_source/abc']) expect(allowListVerdict(list, 'get', path), path).toBe('allowed');
    for (const path of ['_search', '_count']) expect(allowListVerdict(list, 'post', path), path).toBe('allowed');
    expect(allowListVerdict(list, 'post', '_doc/1')).toBe('method');
    expect(allowListVerdict(list, 'delete', '_doc/1')).toBe('method');
    expect(allowListVerdict(list, 'put', '_mapping')).toBe('method');
    for (const path of ['_delete_by_query', '_update_by_query', '_bulk', '_doc', '_update/1', '_doc/1/_update', '_settings', '_async_search', '_searchx'])
      for (const method of ['get', 'post', 'put', 'delete']) expect(allowListVerdict(list, method, path), `${method} ${path}`).not.toBe('allowed');
  });
});
