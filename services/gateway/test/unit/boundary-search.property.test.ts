import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

// The search busboy finds each multipart boundary with (streamsearch, patched to look for a whole
// boundary with Buffer#indexOf: patches/streamsearch@1.1.0.patch), loaded as busboy loads it.
const require = createRequire(createRequire(import.meta.url).resolve('busboy'));
type Callback = (isMatch: boolean, data: Buffer | undefined, start: number, end: number) => void;
const StreamSearch = require('streamsearch') as new (needle: Buffer, callback: Callback) => { push(chunk: Buffer): number; destroy(): void; matches: number };

const SEED = Number(process.env.FUZZ_SEED ?? 20261129);
const runs = (ci: number) => ({ seed: SEED, numRuns: Number(process.env.FUZZ_RUNS ?? ci) });

/** What lies between the needle's occurrences, leftmost first, as one search of the whole haystack finds them. */
function split(haystack: Buffer, needle: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = haystack.indexOf(needle, from); at !== -1; at = haystack.indexOf(needle, from)) {
    parts.push(haystack.subarray(from, at));
    from = at + needle.length;
  }
  parts.push(haystack.subarray(from));
  return parts;
}

/** The same, found by the streaming search fed the haystack in the given pieces. */
function searched(pieces: Buffer[], needle: Buffer): { parts: Buffer[]; matches: number } {
  const parts: Buffer[] = [];
  let current: Buffer[] = [];
  // The search may hand its own look-behind buffer, which it reuses: each part is copied at once.
  const search = new StreamSearch(needle, (isMatch, data, start, end) => {
    if (data) current.push(Buffer.from(data.subarray(start, end)));
    if (isMatch) {
      parts.push(Buffer.concat(current));
      current = [];
    }
  });
  for (const piece of pieces) search.push(piece);
  search.destroy();
  parts.push(Buffer.concat(current));
  return { parts, matches: parts.length - 1 };
}

// Needles and haystacks of few letters, so that near misses, overlaps and needles cut across pieces are common.
const letters = fc.constantFrom(...'\r\n-ab');
const needle = fc.string({ unit: letters, minLength: 1, maxLength: 12 }).map((text) => Buffer.from(`\r\n--${text}`));
const haystackOf = (boundary: Buffer) =>
  fc
    .array(fc.oneof(fc.string({ unit: letters, maxLength: 30 }).map((text) => Buffer.from(text)), fc.constant(boundary), fc.nat(boundary.length).map((n) => boundary.subarray(0, n)), fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes))), { maxLength: 30 })
    .map((parts) => Buffer.concat(parts));
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 });

function inPieces(body: Buffer, at: number[]): Buffer[] {
  const points = [...new Set(at.map((cut) => Math.floor(cut * body.length)))].sort((a, b) => a - b);
  return [0, ...points].map((start, i) => body.subarray(start, points[i] ?? body.length)).filter((piece) => piece.length > 0);
}

describe('the multipart boundary search', () => {
  it('when any haystack arrives in any pieces, then the boundaries are found where a search of the whole finds them, and the bytes between them are kept', () => {
    fc.assert(
      fc.property(
        needle.chain((boundary) => fc.tuple(fc.constant(boundary), haystackOf(boundary), cuts)),
        ([boundary, haystack, at]) => {
          const expected = split(haystack, boundary);
          const found = searched(inPieces(haystack, at), boundary);
          expect(found.parts.map((part) => part.toString('latin1'))).toEqual(expected.map((part) => part.toString('latin1')));
          expect(found.matches).toBe(expected.length - 1);
        },
      ),
      runs(2_000),
    );
  });

  it('when a 2 MB upload is searched in pieces of a socket read, then every byte between its boundaries is kept', () => {
    const boundary = Buffer.from('\r\n--rexbench7f3a');
    const file = Buffer.alloc(2_000_000);
    for (let i = 0; i < file.length; i++) file[i] = (i * 2654435761) >>> 24;
    const body = Buffer.concat([Buffer.from('preamble'), boundary, file, boundary, Buffer.from('--\r\n')]);
    const pieces: Buffer[] = [];
    for (let at = 0; at < body.length; at += 6_007) pieces.push(body.subarray(at, at + 6_007));
    const found = searched(pieces, boundary);
    expect(found.matches).toBe(2);
    expect(found.parts[1].equals(file)).toBe(true);
  });
});
