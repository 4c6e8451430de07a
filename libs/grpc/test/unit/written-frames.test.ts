import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { grpc, CHANNEL_OPTIONS } from '../../src/index.ts';

// grpc-js copies every message a client writes into a frame of its own; once the transport has
// written it and no attempt can send it again, the frame's memory is released at once
// (patches/@grpc__grpc-js@1.14.7.patch) rather than at the next full collection.

const raw = (bytes: Buffer) => bytes;
const service: grpc.ServiceDefinition = {
  digest: {
    path: '/test.Frames/Digest',
    requestStream: true,
    responseStream: false,
    requestSerialize: raw,
    requestDeserialize: raw,
    responseSerialize: raw,
    responseDeserialize: raw,
  },
};

type Served = { client: grpc.Client; server: grpc.Server; calls: () => number };

/**
 * A server answering the SHA-256 of every byte a call sent; `refuse` calls are answered UNAVAILABLE
 * after their last message; with `early`, every call is answered at its first message.
 */
async function serve(options: { refuse?: number; early?: boolean; channel?: grpc.ChannelOptions } = {}): Promise<Served> {
  let calls = 0;
  const server = new grpc.Server();
  server.addService(service, {
    digest(call: grpc.ServerReadableStream<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) {
      calls += 1;
      const hash = createHash('sha256');
      if (options.early) return void call.once('data', (message: Buffer) => callback(null, hash.update(message).digest()));
      call.on('data', (message: Buffer) => hash.update(message));
      call.on('end', () => {
        if (calls <= (options.refuse ?? 0)) callback({ code: grpc.status.UNAVAILABLE, details: 'try again' });
        else callback(null, hash.digest());
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { ...CHANNEL_OPTIONS, ...options.channel });
  return { client, server, calls: () => calls };
}

/** Sends the messages on one call; resolves with the server's digest and the frames grpc-js made for them. */
async function send(client: grpc.Client, messages: Buffer[]): Promise<{ digest: Buffer; frames: Buffer[] }> {
  const frames: Buffer[] = [];
  const allocUnsafe = Buffer.allocUnsafe.bind(Buffer);
  const sizes = new Set(messages.map((message) => message.length + 5));
  vi.spyOn(Buffer, 'allocUnsafe').mockImplementation((size: number) => {
    const buffer = allocUnsafe(size);
    if (sizes.has(size)) frames.push(buffer);
    return buffer;
  });
  const digest = await new Promise<Buffer>((resolve, reject) => {
    const call = client.makeClientStreamRequest<Buffer, Buffer>(service.digest!.path, raw, raw, new grpc.Metadata(), {}, (error, answer) =>
      error ? reject(error) : resolve(answer!),
    );
    // Each message waits for the last to be taken; the end follows the last message at once.
    const next = (i: number): void => {
      if (i < messages.length - 1) return void call.write(messages[i], () => next(i + 1));
      call.write(messages[i]);
      call.end();
    };
    next(0);
  });
  vi.restoreAllMocks();
  return { digest, frames };
}

const sha256 = (messages: Buffer[]) => messages.reduce((hash, message) => hash.update(message), createHash('sha256')).digest();

let open: Served | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  open?.client.close();
  open?.server.forceShutdown();
  open = undefined;
});

describe('the frames of a client stream', () => {
  it('when a call has sent its messages, then the server received every byte and each frame the transport wrote is released', async () => {
    open = await serve();
    const messages = Array.from({ length: 24 }, () => randomBytes(64 * 1024));
    const { digest, frames } = await send(open.client, messages);
    expect(digest.equals(sha256(messages))).toBe(true);
    expect(frames).toHaveLength(messages.length);
    expect(frames.map((frame) => frame.byteLength)).toEqual(messages.map(() => 0));
  });

  it('when a call is retried, then its frames are kept for the second attempt, which delivers every byte', async () => {
    const retry = { methodConfig: [{ name: [{ service: 'test.Frames' }], retryPolicy: { maxAttempts: 2, initialBackoff: '0.01s', maxBackoff: '0.01s', backoffMultiplier: 1, retryableStatusCodes: ['UNAVAILABLE'] } }] };
    open = await serve({ refuse: 1, channel: { 'grpc.service_config': JSON.stringify({ ...JSON.parse(CHANNEL_OPTIONS['grpc.service_config'] as string), ...retry }) } });
    // Frames of their own memory (past half of Node.js's pool), few enough for grpc-js's per-call retry buffer (1 MiB).
    const size = Buffer.poolSize;
    const messages = Array.from({ length: Math.floor(200 * 1024 / size) }, () => randomBytes(size));
    const { digest, frames } = await send(open.client, messages);
    expect(open.calls()).toBe(2);
    expect(digest.equals(sha256(messages))).toBe(true);
    expect(frames.map((frame) => frame.byteLength)).toEqual(messages.map(() => size + 5));
  });

  it('when the server answers while messages are still on their way, then no frame is released before the transport is done with it', async () => {
    open = await serve({ early: true });
    const size = 64 * 1024;
    // The memory of each frame handed to the transport and not yet called back for.
    const onTheWay = new Set<ArrayBufferLike>();
    let releasedEarly = 0;
    const write = Writable.prototype.write as (this: Writable, ...args: unknown[]) => boolean;
    vi.spyOn(Writable.prototype, 'write').mockImplementation(function (this: Writable, chunk: unknown, ...rest: unknown[]) {
      const done = rest.findIndex((arg) => typeof arg === 'function');
      if (!Buffer.isBuffer(chunk) || chunk.length !== size + 5 || done === -1) return write.call(this, chunk, ...rest);
      const memory = chunk.buffer;
      const callback = rest[done] as (error?: Error | null) => void;
      onTheWay.add(memory);
      rest[done] = (error?: Error | null) => {
        onTheWay.delete(memory);
        callback(error);
      };
      return write.call(this, chunk, ...rest);
    });
    const transfer = ArrayBuffer.prototype.transfer;
    vi.spyOn(ArrayBuffer.prototype, 'transfer').mockImplementation(function (this: ArrayBuffer, length?: number) {
      if (onTheWay.has(this)) releasedEarly += 1;
      return transfer.call(this, length);
    });
    for (let round = 0; round < 5; round += 1) {
      await new Promise<void>((resolve) => {
        const call = open!.client.makeClientStreamRequest<Buffer, Buffer>(service.digest!.path, raw, raw, new grpc.Metadata(), {}, () => resolve());
        // Everything at once: grpc-js sends one message after another while the answer comes back.
        for (let i = 0; i < 32; i += 1) call.write(randomBytes(size));
        call.end();
      });
    }
    expect(releasedEarly).toBe(0);
  });

  it('when frames are slices of a shared pool, then none is released', async () => {
    open = await serve();
    const messages = Array.from({ length: 16 }, () => randomBytes(100));
    const { digest, frames } = await send(open.client, messages);
    expect(digest.equals(sha256(messages))).toBe(true);
    expect(frames.every((frame) => frame.byteLength === 105)).toBe(true);
  });
});
