/** Why a request cannot go to the index: a 400 for the caller. */
export class RefusedRequest extends Error {}

// Inside one segment: no separator, query or fragment start, backslash, escape
// character or control character, whatever encoding brought them there.
const FORBIDDEN_IN_SEGMENT = /[/?#\\%\u0000-\u001f\u007f]/;

/**
 * The path below the index, from the decoded segments the gateway received:
 * `.` and `..` segments, empty segments and segments holding a separator or
 * control character are refused, so the path means one thing only.
 */
export function normalisePath(segments: readonly string[]): string {
  if (!segments.length) throw new RefusedRequest('A path below the end-point is required, e.g. _search.');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..' || FORBIDDEN_IN_SEGMENT.test(segment)) {
      throw new RefusedRequest(`The search path contains a segment that is not allowed: ${JSON.stringify(segment.slice(0, 100))}.`);
    }
  }
  return segments.join('/');
}

/**
 * The index URL a normalised path goes to, built with the URL API; anything
 * that would not stay below `/<index>/` is refused.
 */
export function upstreamUrl(base: string, index: string, path: string, query: URLSearchParams): URL {
  const root = new URL(base.endsWith('/') ? base : `${base}/`);
  const indexPath = `${root.pathname}${encodeURIComponent(index)}/`;
  const url = new URL('./' + path.split('/').map(encodeURIComponent).join('/'), new URL(indexPath, root));
  if (url.origin !== root.origin || !url.pathname.startsWith(indexPath) || url.pathname === indexPath) {
    throw new RefusedRequest('The search path does not stay within the index.');
  }
  url.search = query.toString();
  return url;
}
