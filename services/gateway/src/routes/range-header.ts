import type { ByteRange } from '@rex/protos';

/**
 * The one range of a `Range: bytes=<first>-<last>` (or `bytes=-<suffix>`)
 * header; undefined, meaning the whole file, for anything else: no header,
 * another unit, several ranges or a malformed one (a server may ignore them).
 */
export function parseRange(header: string | undefined): ByteRange | undefined {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header?.trim() ?? '');
  if (!match) return undefined;
  const [first, last] = [match[1], match[2]];
  if (first === '') return last !== '' && Number(last) > 0 ? { first: 0, last: -1, suffix: Number(last) } : undefined;
  if (last !== '' && Number(last) < Number(first)) return undefined;
  return { first: Number(first), last: last === '' ? -1 : Number(last), suffix: 0 };
}

/** Whether an `If-None-Match` header names this entity tag (`*`, or one of its list, weak or not). */
export function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
