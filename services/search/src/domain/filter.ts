/** Who is searching, as far as the built-in filter is concerned. */
export type Searcher = {
  websiteId: string;
  /** Websites sharing with the caller's for its scope, its own included. */
  sharingWebsiteIds?: string[];
  userId?: string;
  scope: string;
  /** Set for client connections. */
  connection?: { allowConfidential: boolean; allowSensitive: boolean; allowUnreleased: boolean; fullPrecisionSensitiveRecords: boolean };
  limitToWebsite: boolean;
  limitToOwnData: boolean;
  allowAnonymous: boolean;
};

export class FilterError extends Error {}

type Query = Record<string, unknown>;

const USER_SCOPES = new Set(['SCOPE_USER', 'SCOPE_USER_WITHIN_WEBSITE']);

/**
 * The clauses every search of this caller must satisfy: own records when
 * limited to them, the caller's website(s), and the confidential, private,
 * release and sensitivity rules, relaxed by the connection's permissions.
 */
export function builtInClauses(searcher: Searcher): Query[] {
  // A user scope relaxes the website and sensitivity rules only for an actual
  // user, limited to their own records; a caller without a user id (a website
  // asking for scope=user) keeps the website's clauses.
  const userScoped = USER_SCOPES.has(searcher.scope) && searcher.userId !== undefined;
  const clauses: Query[] = [];
  if (searcher.limitToOwnData || USER_SCOPES.has(searcher.scope)) {
    if (!searcher.userId) {
      if (!searcher.allowAnonymous && searcher.limitToOwnData) throw new FilterError('This search needs an authenticated user.');
    } else {
      clauses.push({ term: { 'metadata.created_by_id': searcher.userId } });
    }
  }
  if (searcher.scope === 'SCOPE_USER_WITHIN_WEBSITE' || searcher.limitToWebsite) {
    clauses.push({ term: { 'metadata.website.id': searcher.websiteId } });
  }
  if (!userScoped) {
    const websites = searcher.sharingWebsiteIds?.length ? searcher.sharingWebsiteIds : [searcher.websiteId];
    clauses.push({ terms: { 'metadata.website.id': websites } });
  }

  const conditions: string[] = [];
  const connection = searcher.connection;
  if (!connection?.allowConfidential) {
    conditions.push('metadata.confidential:false');
    if (!userScoped && searcher.scope !== 'SCOPE_VERIFICATION') conditions.push('NOT metadata.hide_sample_as_private:true');
  }
  if (!connection?.allowUnreleased) conditions.push('metadata.release_status:R');
  if (connection && !connection.allowSensitive) conditions.push('metadata.sensitive:false');
  const blur = connection
    ? connection.fullPrecisionSensitiveRecords
      ? 'F'
      : 'B'
    : userScoped || searcher.scope === 'SCOPE_VERIFICATION'
      ? 'F'
      : 'B';
  conditions.push(`((metadata.sensitivity_blur:${blur}) OR (!metadata.sensitivity_blur:*))`);
  clauses.push({ query_string: { query: conditions.join(' AND ') } });
  return clauses;
}

/**
 * Adds the built-in clauses to a search body: into `query.bool.filter`
 * (created if absent, a single object made a list); a query that is not a
 * bool query is wrapped as `bool.must`, so the client's own conditions still
 * hold alongside the filter.
 */
export function applyFilter(body: Query, clauses: Query[], options: { count?: boolean; alsoMust?: Query } = {}): Query {
  const out: Query = options.count ? { ...body } : { ...body, track_total_hits: true };
  const query = (body.query ?? undefined) as Query | undefined;
  let bool: Query;
  if (!query) bool = {};
  else if (query.bool && typeof query.bool === 'object' && !Array.isArray(query.bool)) bool = { ...(query.bool as Query) };
  else bool = { must: [query] };
  if (options.alsoMust) {
    const must = bool.must === undefined ? [] : Array.isArray(bool.must) ? bool.must : [bool.must];
    bool.must = [...must, options.alsoMust];
  }
  const existing = bool.filter === undefined ? [] : Array.isArray(bool.filter) ? bool.filter : [bool.filter];
  bool.filter = [...existing, ...clauses];
  out.query = { bool };
  return out;
}
