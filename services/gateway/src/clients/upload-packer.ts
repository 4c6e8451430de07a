import type { grpc } from '@rex/grpc';
import type { UploadRequest } from '@rex/protos';

/** File bytes per `data` message to the media service: several socket reads each. */
export const UPLOAD_MESSAGE_BYTES = 128 * 1024;

/** Room before the data for the message's tag and length (a varint of at most 3 bytes up to 2 MiB). */
const HEAD_ROOM = 4;

/** `UploadRequest.data`: field 2, length-delimited. */
const DATA_TAG = (2 << 3) | 2;

/** Message buffers kept between uploads: 32 of 128 KiB, 4 MiB at most. */
const MAX_IDLE_BUFFERS = 32;
const idle: Buffer[] = [];

const NOTHING = Buffer.alloc(0);

const takeBuffer = (): Buffer => idle.pop() ?? Buffer.allocUnsafeSlow(HEAD_ROOM + UPLOAD_MESSAGE_BYTES);
const giveBack = (buffer: Buffer): void => {
  if (idle.length < MAX_IDLE_BUFFERS) idle.push(buffer);
};

/** The `data` message of the `length` bytes after HEAD_ROOM in `buffer`, encoded in place. */
export function encodeDataInPlace(buffer: Buffer, length: number): Buffer {
  const varint: number[] = [];
  let rest = length;
  do {
    varint.push((rest & 0x7f) | (rest > 0x7f ? 0x80 : 0));
    rest >>>= 7;
  } while (rest > 0);
  const start = HEAD_ROOM - 1 - varint.length;
  buffer[start] = DATA_TAG;
  buffer.set(varint, start + 1);
  return buffer.subarray(start, HEAD_ROOM + length);
}

/**
 * Sends one file's bytes to the media service as messages of up to
 * UPLOAD_MESSAGE_BYTES, each encoded where the bytes were copied to: one copy
 * per byte in the gateway besides gRPC's frame. A file holds at most two
 * message buffers (one filling, one on its way); they come from a pool shared
 * by all uploads. A buffer is reused only once its write has called back,
 * which gRPC does after copying the message into its frame.
 */
export class UploadPacker {
  private filling: Buffer | null = null;
  private filled = 0;
  private spare: Buffer | null = null;
  private onTheWay = 0;
  private pending: Buffer = NOTHING;
  private waiting = false;
  private endSize: number | undefined;
  private ended = false;
  private readonly stream: grpc.ClientWritableStream<UploadRequest | Buffer>;
  private readonly ready: () => void;

  /** `ready` is called when a file paused by `push` may go on. */
  constructor(stream: grpc.ClientWritableStream<UploadRequest | Buffer>, ready: () => void) {
    this.stream = stream;
    this.ready = ready;
  }

  /** Whether bytes pushed are still waiting to be copied (the file is paused meanwhile). */
  get holding(): boolean {
    return this.pending.length > 0;
  }

  /** Takes the file's next bytes; false when the file must pause until `ready` is called. */
  push(chunk: Buffer): boolean {
    if (this.ended) return true;
    this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    this.waiting = !this.pack();
    return !this.waiting;
  }

  /**
   * Sends what is left and the end of the file (`size` bytes in all). A stream may end right after
   * the chunk that paused it: the end then waits until that chunk is packed.
   */
  end(size: number): void {
    if (this.ended || this.endSize !== undefined) return;
    this.endSize = size;
    if (!this.waiting) this.finish();
  }

  private finish(): void {
    this.ended = true;
    if (this.filled > 0) this.send();
    this.release(this.filling);
    this.release(this.spare);
    this.filling = this.spare = null;
    this.stream.write({ end: { size: this.endSize } });
    this.stream.end();
  }

  /** The call failed: the rest of the file is read and dropped. */
  abandon(): void {
    this.ended = true;
    this.pending = NOTHING;
  }

  /** Copies pending bytes into message buffers, sending each full one; false when both buffers are taken. */
  private pack(): boolean {
    while (this.pending.length > 0) {
      if (this.filled === UPLOAD_MESSAGE_BYTES) {
        if (this.onTheWay > 0) return false;
        this.send();
      }
      this.filling ??= takeBuffer();
      const copied = this.pending.copy(this.filling, HEAD_ROOM + this.filled);
      this.filled += copied;
      this.pending = this.pending.subarray(copied);
    }
    // No view of a piece copied whole is kept: the piece may be freed (see receiveFiles).
    this.pending = NOTHING;
    return true;
  }

  private send(): void {
    const buffer = this.filling!;
    const message = encodeDataInPlace(buffer, this.filled);
    this.filling = this.spare;
    this.spare = null;
    this.filled = 0;
    this.onTheWay += 1;
    this.stream.write(message, () => {
      this.onTheWay -= 1;
      if (this.ended) return this.release(buffer);
      this.spare = buffer;
      if (this.waiting && this.pack()) {
        this.waiting = false;
        if (this.endSize === undefined) this.ready();
        else this.finish();
      }
    });
  }

  private release(buffer: Buffer | null): void {
    if (buffer) giveBack(buffer);
  }
}
