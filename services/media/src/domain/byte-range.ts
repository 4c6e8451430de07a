import { createHash } from 'node:crypto';

/** A range as asked for: bytes first..last (last < 0: to the end), or the last `suffix` bytes. */
export type RangeAsked = { first: number; last: number; suffix: number };
/** Bytes start..end of a file, both included. */
export type Span = { start: number; end: number };

/**
 * The bytes of a file of `size` bytes a range stands for; 'unsatisfiable'
 * when it lies outside the file, undefined (the whole file) when it makes no
 * sense (the last byte before the first).
 */
export function resolveRange(asked: RangeAsked, size: number): Span | 'unsatisfiable' | undefined {
  if (asked.suffix > 0) return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - asked.suffix), end: size - 1 };
  if (asked.first < 0 || (asked.last >= 0 && asked.last < asked.first)) return undefined;
  if (asked.first >= size) return 'unsatisfiable';
  return { start: asked.first, end: asked.last < 0 ? size - 1 : Math.min(asked.last, size - 1) };
}

/** A strong validator of the file served under a name: it changes whenever the file is written again. */
export function etagOf(key: string, size: number, modified: Date): string {
  return `"${createHash('sha256').update(`${key}:${size}:${modified.getTime()}`).digest('base64url').slice(0, 27)}"`;
}
