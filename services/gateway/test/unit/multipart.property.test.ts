import { createHash } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import type { Request } from 'express';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mediaV1, type AuthContext, type QueuedFile__Output, type UploadRequest__Output } from '@rex/protos';
import type { MediaClient } from '../../src/clients/media.ts';
import { HttpError } from '../../src/http-error.ts';
import { receiveFiles } from '../../src/routes/media-queue.ts';
import { UploadTurns } from '../../src/routes/upload-turns.ts';

// A fixed seed so CI runs the same cases; FUZZ_RUNS raises the runs and FUZZ_SEED picks other cases.
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const runs = (ci: number) => ({ seed: SEED, numRuns: Number(process.env.FUZZ_RUNS ?? ci) });

const decodeUpload = (bytes: Buffer) =>
  (mediaV1.MediaService as unknown as { service: { Upload: { requestDeserialize(bytes: Buffer): UploadRequest__Output } } }).service.Upload.requestDeserialize(bytes);

const AUTH = { entity: 'ENTITY_USER', websiteId: '1', userId: '7' } as AuthContext;

type Received = { field: string; filename: string; bytes: Buffer; cancelled: boolean; refused: boolean };

/**
 * A media service that keeps what it is sent and refuses, as media does, a file over the limit
 * (413) or a PDF (415). A slow one takes each message a millisecond after it came, so the
 * gateway's packers fill and its files pause, as they do under load.
 */
function fakeMedia(limit: number, slow = false) {
  const received: Received[] = [];
  const media = {
    upload({ field, filename }: { field: string; filename: string }) {
      const file: Received = { field, filename, bytes: Buffer.alloc(0), cancelled: false, refused: false };
      received.push(file);
      let settle!: { resolve: (file: QueuedFile__Output) => void; reject: (error: unknown) => void };
      const result = new Promise<QueuedFile__Output>((resolve, reject) => (settle = { resolve, reject }));
      const take = (written: Buffer | { end?: { size: number } }) => {
        // File bytes come as data messages already encoded.
        const message: { data?: Buffer | null; end?: { size: number | string } | null } = Buffer.isBuffer(written) ? decodeUpload(written) : written;
        if (message.data) file.bytes = Buffer.concat([file.bytes, message.data]);
        if (message.end) {
          file.refused = file.bytes.length > limit || file.bytes.subarray(0, 4).toString() === '%PDF';
          if (file.bytes.length > limit) settle.reject(new HttpError(413, 'too large'));
          else if (file.refused) settle.reject(new HttpError(415, 'not allowed'));
          else settle.resolve({ name: `q${received.indexOf(file)}.bin` } as QueuedFile__Output);
        }
      };
      const writable = new Writable({
        objectMode: true,
        write(written: Buffer | { end?: { size: number } }, _encoding, done) {
          take(written);
          if (slow) setTimeout(done, 1);
          else done();
        },
      });
      const stream = Object.assign(writable, {
        cancel() {
          file.cancelled = true;
          settle.reject(new Error('cancelled'));
        },
      });
      return { stream, result };
    },
  } as unknown as MediaClient;
  return { media, received };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A copy of a piece in memory of its own, as Node.js gives each piece of a request's body. */
function ownMemory(piece: Buffer): Buffer {
  const own = Buffer.from(new ArrayBuffer(piece.length));
  piece.copy(own);
  return own;
}

/** A request whose body arrives in the given chunks, each in its own turn of the event loop; `complete` false cuts it off after them. */
function incoming(contentType: string | undefined, chunks: Buffer[], complete = true): Request {
  const req = Object.assign(new PassThrough(), { headers: contentType === undefined ? {} : { 'content-type': contentType }, complete: false }) as unknown as Request & PassThrough;
  setImmediate(async () => {
    for (const chunk of chunks) {
      if (!req.write(chunk)) await new Promise((resolve) => req.once('drain', resolve));
      await nextTurn();
    }
    if (complete) {
      (req as { complete: boolean }).complete = true;
      req.end();
    } else {
      req.destroy();
    }
  });
  return req;
}

/** The files by answer key, or the refusal's status; any other error fails the property. */
async function receive(req: Request, media: MediaClient, limit: number, turns = new UploadTurns()): Promise<Map<string, QueuedFile__Output> | number> {
  try {
    return await receiveFiles(req, media, AUTH, limit, turns);
  } catch (error) {
    if (error instanceof HttpError) return error.status;
    throw error;
  }
}

type Part = { field: string; filename?: string; bytes: Uint8Array };

function multipart(boundary: string, parts: Part[]): Buffer {
  const pieces = parts.flatMap((part) => [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}\r\n${part.filename === undefined ? '' : 'Content-Type: application/octet-stream\r\n'}\r\n`),
    Buffer.from(part.bytes),
    Buffer.from('\r\n'),
  ]);
  return Buffer.concat([...pieces, Buffer.from(`--${boundary}--\r\n`)]);
}

/** The body cut into chunks at the given fractions of its length. */
function chunked(body: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((cut) => Math.floor(cut * body.length)))].sort((a, b) => a - b);
  return [0, ...at].map((start, i) => body.subarray(start, at[i] ?? body.length)).filter((chunk) => chunk.length > 0);
}

/** The answer keys of the warehouse: `file[]` becomes `file[0]`, `file[1]`, …; an empty name is `file`. */
function expectedKeys(fields: string[]): string[] {
  const counts = new Map<string, number>();
  return fields.map((field) => {
    if (!field.endsWith('[]')) return field || 'file';
    const base = field.slice(0, -2);
    const index = counts.get(base) ?? 0;
    counts.set(base, index + 1);
    return `${base}[${index}]`;
  });
}

// Names as forms and apps write them: the warehouse's array fields, plain and non-ASCII names (never a quote or line break, which a form escapes).
const nameText = fc.oneof(fc.constantFrom('file[]', 'file[]', 'photo', 'media[]', '', 'é[]', 'upload 1'), fc.string({ unit: fc.constantFrom(...'abcXYZ09_-. []éß中😀'), maxLength: 10 }));
const boundary = fc.string({ unit: fc.constantFrom(...'abcXYZ0189-_'), minLength: 1, maxLength: 40 });
const bytes = fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.constantFrom('', '\r\n--', '--\r\n', '\r\n\r\n', '%PDF-1.4').map((text) => Buffer.from(text)));
// A part with an empty file name is what a form sends for a file input left empty: a field, not a
// file; "." and ".." are paths, of which only the base name (none) is kept.
const files = fc.array(fc.record({ field: nameText, filename: nameText.filter((n) => !['', '.', '..'].includes(n)), bytes }), { minLength: 1, maxLength: 5 });
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 });

describe('multipart uploads, property-based', () => {
  it('when files are sent as multipart/form-data in any chunks, then media receives each whole with its field and name, and the answer keys follow the form fields', async () => {
    await fc.assert(
      fc.asyncProperty(boundary, files, cuts, fc.boolean(), async (mark, sent, where, withField) => {
        fc.pre(sent.every((file) => !Buffer.from(file.bytes).includes(`\r\n--${mark}`) && file.bytes.subarray(0, 4).toString() !== '%PDF'));
        const parts: Part[] = withField ? [{ field: 'note', bytes: Buffer.from('a text field') }, ...sent] : sent;
        const { media, received } = fakeMedia(1_000);
        const answer = await receive(incoming(`multipart/form-data; boundary=${mark}`, chunked(multipart(mark, parts), where).map(ownMemory)), media, 1_000);
        expect(received.map((file) => [file.field, file.filename, Buffer.from(file.bytes)])).toEqual(sent.map((file, i) => [expectedKeys(sent.map((f) => f.field))[i], file.filename, Buffer.from(file.bytes)]));
        expect(answer).toBeInstanceOf(Map);
        expect([...(answer as Map<string, QueuedFile__Output>).keys()]).toEqual([...new Set(expectedKeys(sent.map((file) => file.field)))]);
      }),
      runs(300),
    );
  });

  it('when a file is larger than the limit or of a refused type, then the upload is refused with that status and no other file is kept', async () => {
    await fc.assert(
      fc.asyncProperty(files, fc.integer({ min: 0, max: 300 }), async (sent, limit) => {
        const { media, received } = fakeMedia(limit);
        const answer = await receive(incoming('multipart/form-data; boundary=XyZ', [multipart('XyZ', sent)]), media, limit);
        const statuses = sent.map((file) => (file.bytes.length > limit ? 413 : Buffer.from(file.bytes).subarray(0, 4).toString() === '%PDF' ? 415 : 200));
        if (statuses.every((status) => status === 200)) expect(answer).toBeInstanceOf(Map);
        else expect(statuses).toContain(answer);
        // One byte past the limit reaches media, never more.
        for (const file of received) expect(file.bytes.length).toBeLessThanOrEqual(limit + 1);
      }),
      runs(200),
    );
  });

  it('when any body arrives with any content type, whole or cut off, then the upload is answered with files or refused as the client\'s error', async () => {
    const contentType = fc.oneof(
      fc.constantFrom('multipart/form-data; boundary=XyZ', 'multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary="XyZ"', 'text/plain', 'multipart/mixed; boundary=XyZ'),
      fc.string({ maxLength: 30 }),
      fc.constant(undefined),
    );
    const body = fc.oneof(
      // A valid body with a byte changed, cut short or with bytes added.
      fc.tuple(files, fc.nat(), fc.nat(255), fc.constantFrom('flip', 'cut', 'add')).map(([sent, at, byte, how]) => {
        const whole = multipart('XyZ', sent);
        const i = at % whole.length;
        if (how === 'flip') return Buffer.concat([whole.subarray(0, i), Buffer.from([byte]), whole.subarray(i + 1)]);
        return how === 'cut' ? whole.subarray(0, i) : Buffer.concat([whole.subarray(0, i), Buffer.from('\r\n--XyZ\r\n'), whole.subarray(i)]);
      }),
      fc.uint8Array({ maxLength: 300 }).map((array) => Buffer.from(array)),
      fc.string({ unit: fc.constantFrom('--XyZ', '\r\n', 'Content-Disposition: form-data; name="f"; filename="x"', ':', ';', '"'), maxLength: 20 }).map((text) => Buffer.from(text)),
    );
    await fc.assert(
      fc.asyncProperty(contentType, body, cuts, fc.boolean(), async (type, sent, where, complete) => {
        const { media, received } = fakeMedia(1_000);
        const answer = await receive(incoming(type, chunked(sent, where), complete), media, 1_000);
        if (answer instanceof Map) {
          expect(answer.size).toBeGreaterThan(0);
        } else {
          expect([400, 413, 415]).toContain(answer);
          // Every file media did not refuse itself has its call cancelled, so a file on its way is not kept.
          for (const file of received) expect(file.cancelled || file.refused).toBe(true);
        }
      }),
      runs(300),
    );
  });

  it('when a body is 100 KB of boundaries, headers and line breaks, then it is answered', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('\r\n--XyZ', '--XyZ\r\nContent-Disposition: form-data; name="f"; filename="x"\r\n\r\n', '\r\n', '-', 'Content-Disposition: '), async (fragment) => {
        const { media } = fakeMedia(1_000);
        const answer = await receive(incoming('multipart/form-data; boundary=XyZ', [Buffer.from(fragment.repeat(Math.ceil(100_000 / fragment.length)))]), media, 1_000);
        expect(answer instanceof Map || [400, 413].includes(answer)).toBe(true);
      }),
      runs(10),
    );
  });
});

describe('multipart uploads, regressions found by the properties', () => {
  it('when a file part has no name or an empty one, then it is answered as file instead of throwing out of the parser', async () => {
    const { media, received } = fakeMedia(1_000);
    const body = Buffer.from('--B\r\nContent-Disposition: form-data; filename="a.jpg"\r\n\r\nabc\r\n--B\r\nContent-Disposition: form-data; name=""; filename="b.jpg"\r\n\r\ndef\r\n--B--\r\n');
    const answer = await receive(incoming('multipart/form-data; boundary=B', [body]), media, 1_000);
    expect([...(answer as Map<string, QueuedFile__Output>).keys()]).toEqual(['file']);
    expect(received.map((file) => [file.field, file.filename])).toEqual([['file', 'a.jpg'], ['file', 'b.jpg']]);
  });

  it('when a file name is not ASCII, then media receives it as written (UTF-8), not read as Latin-1', async () => {
    const { media, received } = fakeMedia(1_000);
    await receive(incoming('multipart/form-data; boundary=B', [multipart('B', [{ field: 'photo', filename: 'Bläulinge 中.jpg', bytes: Buffer.from('x') }])]), media, 1_000);
    expect(received[0].filename).toBe('Bläulinge 中.jpg');
  });

  it('when a body ends inside a file, then the upload is refused with 400 and the cancelled file never reaches media whole', async () => {
    const { media, received } = fakeMedia(1_000);
    const body = Buffer.from('--B\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\nabcdef');
    expect(await receive(incoming('multipart/form-data; boundary=B', [body]), media, 1_000)).toBe(400);
    expect(received.map((file) => file.cancelled)).toEqual([true]);
  });
});

describe('pieces of an upload freed once copied on', () => {
  const BOUNDARY = 'rex-boundary-0f1e2d3c4b5a69788796a5b4';
  const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  const freed = (piece: Buffer) => (piece.buffer as ArrayBuffer).detached;
  /** Bytes that look random, the same for the same seed. */
  const bytesOf = (length: number, seed: number) => {
    const bytes = Buffer.alloc(length);
    let state = seed >>> 0 || 1;
    for (let i = 0; i < length; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      bytes[i] = state & 0xff;
    }
    return bytes;
  };
  /** The body in pieces of the given sizes, taken in turn. */
  const inPieces = (body: Buffer, sizes: number[]) => {
    const pieces: Buffer[] = [];
    for (let at = 0, i = 0; at < body.length; i++) {
      pieces.push(body.subarray(at, at + sizes[i % sizes.length]));
      at += sizes[i % sizes.length];
    }
    return pieces;
  };

  it('when large files and a text field arrive in pieces of any size and media falls behind, then each file reaches media whole, and every piece is freed once nothing holds it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 70_000 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1 }), fc.boolean(), async (sizes, seed, slow) => {
        const sent = [
          { field: 'photo[]', filename: 'a.jpg', bytes: bytesOf(700_000, seed) },
          { field: 'note', bytes: Buffer.from('between the files') },
          { field: 'photo[]', filename: 'b.jpg', bytes: bytesOf(1_300_000, seed + 1) },
        ];
        const pieces = inPieces(multipart(BOUNDARY, sent), sizes).map(ownMemory);
        const { media, received } = fakeMedia(2_000_000, slow);
        const answer = await receive(incoming(`multipart/form-data; boundary=${BOUNDARY}`, pieces), media, 2_000_000);
        expect([...(answer as Map<string, QueuedFile__Output>).keys()]).toEqual(['photo[0]', 'photo[1]']);
        expect(received.map((file) => [file.field, file.filename, file.bytes.length, digest(file.bytes)])).toEqual([
          ['photo[0]', 'a.jpg', 700_000, digest(sent[0].bytes)],
          ['photo[1]', 'b.jpg', 1_300_000, digest(sent[2].bytes)],
        ]);
        // Those held by a paused file or a packer as they came are freed once nothing holds any.
        expect(pieces.filter((piece) => !freed(piece))).toEqual([]);
      }),
      runs(15),
    );
  });

  it('when uploads arrive at once in pieces of any size and one body is read at a time, then each reaches media whole and every turn is left', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1_000, max: 70_000 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1 }), fc.boolean(), async (sizes, seed, slow) => {
        const turns = new UploadTurns({ atOnce: 1, slowBytes: 64 * 1024, windowMs: 5, turnMs: 20 });
        const { media, received } = fakeMedia(2_000_000, slow);
        const files = [0, 1, 2].map((i) => bytesOf(300_000 + i * 100_000, seed + i));
        const answers = await Promise.all(
          files.map((bytes, i) => {
            const pieces = inPieces(multipart(BOUNDARY, [{ field: 'photo', filename: `${i}.jpg`, bytes }]), sizes).map(ownMemory);
            return receive(incoming(`multipart/form-data; boundary=${BOUNDARY}`, pieces), media, 2_000_000, turns);
          }),
        );
        expect(answers.every((answer) => answer instanceof Map)).toBe(true);
        expect(received.map((file) => [file.filename, digest(file.bytes)]).sort()).toEqual(files.map((bytes, i) => [`${i}.jpg`, digest(bytes)]).sort());
        expect(turns.counts).toEqual({ reading: 0, slow: 0, waiting: 0 });
      }),
      runs(10),
    );
  });

  it('when the pieces of a body share their memory, then none of it is freed', async () => {
    const file = bytesOf(600_000, 7);
    const body = multipart(BOUNDARY, [{ field: 'photo', filename: 'a.jpg', bytes: file }]);
    const { media, received } = fakeMedia(1_000_000, true);
    await receive(incoming(`multipart/form-data; boundary=${BOUNDARY}`, inPieces(body, [65_536])), media, 1_000_000);
    expect(freed(body)).toBe(false);
    expect(digest(received[0].bytes)).toBe(digest(file));
  });
});
