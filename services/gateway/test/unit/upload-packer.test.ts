import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mediaV1, type UploadRequest__Output } from '@rex/protos';
import { UPLOAD_MESSAGE_BYTES, UploadPacker, encodeDataInPlace } from '../../src/clients/upload-packer.ts';

const decode = (bytes: Buffer) =>
  (mediaV1.MediaService as unknown as { service: { Upload: { requestDeserialize(bytes: Buffer): UploadRequest__Output } } }).service.Upload.requestDeserialize(bytes);

type Written = { message: Buffer; copy: Buffer | null; callback?: () => void };

/** A gRPC stream whose writes call back only when the test says so, as gRPC does once a message is in its frame. */
function heldStream() {
  const writes: Written[] = [];
  let ended = false;
  const stream = {
    write(message: unknown, callback?: () => void) {
      const bytes = Buffer.isBuffer(message) ? message : null;
      writes.push({ message: bytes ?? Buffer.alloc(0), copy: bytes && Buffer.from(bytes), callback });
      return true;
    },
    end() {
      ended = true;
    },
  };
  return { stream: stream as unknown as ConstructorParameters<typeof UploadPacker>[0], writes, isEnded: () => ended };
}

describe('encodeDataInPlace', () => {
  it('encodes the data message around the bytes where they lie, for every length of varint', () => {
    for (const length of [0, 1, 127, 128, 16_383, 16_384, UPLOAD_MESSAGE_BYTES]) {
      const buffer = Buffer.alloc(4 + UPLOAD_MESSAGE_BYTES);
      const data = randomBytes(length);
      data.copy(buffer, 4);
      const decoded = decode(encodeDataInPlace(buffer, length));
      expect(decoded.part).toBe('data');
      expect(Buffer.compare(decoded.data!, data)).toBe(0);
    }
  });
});

describe('UploadPacker', () => {
  it('sends a file as data messages of at most UPLOAD_MESSAGE_BYTES, in order, then its end', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 200_000 }), { minLength: 1, maxLength: 12 }), (sizes) => {
        const { stream, writes, isEnded } = heldStream();
        const file = randomBytes(sizes.reduce((a, b) => a + b, 0));
        let paused = false;
        const packer = new UploadPacker(stream, () => (paused = false));
        const delivered: Buffer[] = [];
        let offset = 0;
        for (const size of sizes) {
          expect(paused).toBe(false);
          paused = !packer.push(file.subarray(offset, offset + size));
          offset += size;
          // gRPC takes each message in turn; the file goes on once a buffer is free.
          while (paused) {
            const next = writes.find((w) => w.callback);
            // gRPC copies a message into its frame before it calls back: the bytes must still be the ones written.
            expect(next!.message.equals(next!.copy ?? Buffer.alloc(0))).toBe(true);
            const callback = next!.callback!;
            next!.callback = undefined;
            callback();
          }
        }
        packer.end(file.length);
        for (const write of writes) {
          if (!write.copy) continue;
          if (write.callback) expect(write.message.equals(write.copy)).toBe(true);
          const decoded = decode(write.copy);
          expect(decoded.data!.length).toBeLessThanOrEqual(UPLOAD_MESSAGE_BYTES);
          delivered.push(decoded.data!);
        }
        expect(Buffer.compare(Buffer.concat(delivered), file)).toBe(0);
        expect(writes.at(-1)!.copy).toBeNull();
        expect(isEnded()).toBe(true);
      }),
      { seed: 20261127, numRuns: 60 },
    );
  });

  it('never overwrites a message before gRPC has called back for it, and holds at most two', () => {
    const { stream, writes } = heldStream();
    let readyCalls = 0;
    const packer = new UploadPacker(stream, () => (readyCalls += 1));
    const chunk = () => randomBytes(UPLOAD_MESSAGE_BYTES / 4);
    // Two messages' worth fit: one on its way, one filling.
    let accepted = 0;
    while (packer.push(chunk())) accepted += 1;
    expect(accepted).toBe(8);
    expect(writes).toHaveLength(1);
    // Paused: nothing more is copied until the first message is called back.
    expect(Buffer.compare(writes[0].message, writes[0].copy!)).toBe(0);
    writes[0].callback!();
    expect(readyCalls).toBe(1);
    expect(writes).toHaveLength(2);
    // The first buffer now fills again; the second, still on its way, is untouched.
    for (let i = 0; i < 3; i += 1) expect(packer.push(chunk())).toBe(true);
    expect(Buffer.compare(writes[1].message, writes[1].copy!)).toBe(0);
    expect(packer.push(chunk())).toBe(false);
    expect(Buffer.compare(writes[1].message, writes[1].copy!)).toBe(0);
  });

  it('when the file ends right after the chunk that paused it, then that chunk is still sent before the end', () => {
    const { stream, writes, isEnded } = heldStream();
    const packer = new UploadPacker(stream, () => undefined);
    const file = randomBytes(9 * 64 * 1024 + 100);
    let offset = 0;
    let accepted = true;
    while (accepted && offset < file.length) {
      accepted = packer.push(file.subarray(offset, offset + 64 * 1024));
      offset += 64 * 1024;
    }
    expect(accepted).toBe(false);
    // A readable stream emits 'end' after its last chunk even when paused in that chunk's handler.
    packer.push(file.subarray(offset));
    packer.end(file.length);
    expect(isEnded()).toBe(false);
    for (let i = 0; i < writes.length; i += 1) writes[i].callback?.();
    expect(isEnded()).toBe(true);
    const data = writes.filter((w) => w.copy).map((w) => decode(w.copy!).data!);
    expect(Buffer.compare(Buffer.concat(data), file)).toBe(0);
    expect(writes.at(-1)!.copy).toBeNull();
  });

  it('drops the rest of a file whose call failed, so the request can be read to its end', () => {
    const { stream, writes, isEnded } = heldStream();
    const packer = new UploadPacker(stream, () => undefined);
    while (packer.push(randomBytes(64 * 1024)));
    packer.abandon();
    expect(packer.push(randomBytes(64 * 1024))).toBe(true);
    packer.end(1);
    expect(writes).toHaveLength(1);
    expect(isEnded()).toBe(false);
  });
});
