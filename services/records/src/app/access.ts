import { badRequest, forbidden, notFound, preconditionFailed } from '@rex/grpc';
import type { AuthContext__Output } from '@rex/protos';

// Who is calling, and whether they may read or change a record.

/** The caller as records sees it: a user of a website, or no user (websites and clients). */
export type Caller = { websiteId: string; userId: string; scope: string };

/**
 * The owner of samples posted without a user (websites that allow anonymous
 * posts): an id no login has, so no user owns them and their Idempotency-Keys
 * are a namespace of their own.
 */
export const ANONYMOUS_USER_ID = '0';

/** Only users reach records here; websites and clients report on data instead. */
export function caller(auth: AuthContext__Output | null): Caller {
  const isUser = auth?.entity === 'ENTITY_USER' && auth.userId !== '0';
  return { websiteId: auth?.websiteId ?? '0', userId: isUser ? auth.userId : '', scope: auth?.scope ?? 'SCOPE_UNSPECIFIED' };
}

/** The caller of a create: only a user may create records (400 otherwise). */
export function creator(auth: AuthContext__Output | null): Caller {
  const who = caller(auth);
  if (!who.userId) throw badRequest('Cannot POST without user authentication.');
  return who;
}

export const NOT_A_USER = 'Records are read and changed by the users who created them; websites and clients use reports.';

/**
 * The caller may read (no action) or change (PUT, DELETE) a stored record: 404 when it is not
 * there for this website, then 400 for writes (403 for reads) without a user, 403 when someone
 * else's, whatever the caller's role.
 */
export function checkOwner(
  row: { website_id: string; created_by_id: string; deleted: boolean | string } | undefined,
  who: Caller,
  action?: 'PUT' | 'DELETE',
): void {
  if (!row || row.deleted === true || row.deleted === 't' || row.website_id !== who.websiteId) throw notFound();
  if (!who.userId) throw action ? badRequest(`Cannot ${action} without user authentication.`) : forbidden(NOT_A_USER);
  if (row.created_by_id !== who.userId) throw forbidden('Resource belongs to a different user account.');
}

/** If-Match: the change goes ahead only when the client holds the current version. */
export function checkVersion(current: string, ifMatch: string[]): void {
  if (ifMatch.length && !ifMatch.includes('*') && !ifMatch.includes(current)) {
    throw preconditionFailed('If-Match condition not met. Record may have been updated by another user.');
  }
}
