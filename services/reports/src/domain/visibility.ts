import type { AuthContext__Output } from '@rex/protos';
import type { ReportTable, Visibility } from '../library/types.ts';

const ALIAS: Record<ReportTable, string> = { occurrences: 'o', samples: 's', occurrence_comments: 'c', locations: 'l' };

export class NotAllowedError extends Error {}

/**
 * The rows of `table` the caller may see, as SQL on the report's alias:
 * users their own records (in the website, or everywhere with scope `user`)
 * or, with a sharing scope, the records of the websites sharing with theirs
 * for that task (their own included); websites and client connections
 * likewise, connections without confidential, sensitive or unreleased
 * records unless they allow them.
 */
export function visibilityFor(
  table: ReportTable,
  auth: AuthContext__Output | null,
  limitToOwnData: boolean,
  options: { includeDeleted?: boolean } = {},
): Visibility {
  if (!auth || auth.entity === 'ENTITY_UNSPECIFIED') throw new NotAllowedError('Reports need an authenticated caller.');
  const a = ALIAS[table];
  const values: unknown[] = [];
  const bind = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const conditions: string[] = [];
  const userId = auth.entity === 'ENTITY_USER' && auth.userId !== '0' ? auth.userId : undefined;
  const ownOnly = userId && (auth.scope === 'SCOPE_USER' || auth.scope === 'SCOPE_USER_WITHIN_WEBSITE' || limitToOwnData);
  if (limitToOwnData && !userId) throw new NotAllowedError('This report needs an authenticated user.');
  if (table === 'locations') {
    conditions.push(`(${a}.website_id = ${bind(auth.websiteId)} OR ${a}.public)`);
    if (ownOnly) conditions.push(`(${a}.created_by_id = ${bind(userId)} OR ${a}.public)`);
    return { sql: conditions.join(' AND '), values };
  }
  const sharing = auth.sharingWebsiteIds.length ? auth.sharingWebsiteIds : [auth.websiteId];
  if (auth.scope === 'SCOPE_USER_WITHIN_WEBSITE') conditions.push(`${a}.website_id = ${bind(auth.websiteId)}`);
  else if (!(ownOnly && auth.scope === 'SCOPE_USER')) conditions.push(`${a}.website_id = ANY(${bind(sharing)}::bigint[])`);
  if (ownOnly) conditions.push(`${a}.created_by_id = ${bind(userId)}`);
  const connection = auth.entity === 'ENTITY_CLIENT' ? auth.connection : null;
  if (table === 'occurrences') {
    if (!options.includeDeleted) conditions.push(`NOT ${a}.deleted`);
    if (!connection?.allowConfidential) conditions.push(`NOT ${a}.confidential`);
    if (connection && !connection.allowSensitive) conditions.push(`${a}.sensitivity_precision IS NULL`);
    if (!connection?.allowUnreleased) conditions.push(`${a}.release_status = 'R'`);
  }
  return { sql: conditions.join(' AND '), values };
}
