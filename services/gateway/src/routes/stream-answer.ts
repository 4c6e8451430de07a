import type { Response } from 'express';
import type { grpc } from '@rex/grpc';
import { httpErrorFromGrpc } from '../grpc-errors.ts';
import { passedOn } from '../young-collection.ts';

/** How one kind of backend stream becomes an HTTP answer. */
export type StreamRendering<T> = {
  /** Sets status and headers from a message and returns true when it is the head. */
  applyHead: (message: T) => boolean;
  /** What a message after the head adds to the body. */
  render?: (message: T) => string | Buffer | undefined;
  /** What ends the body once the backend has ended. */
  finish?: () => string | undefined;
};

const dataOf = (message: { data?: Buffer | null }) => message.data ?? undefined;

const FLUSH_BYTES = 64 * 1024;

/**
 * Streams a backend's server-streaming answer to the client with
 * backpressure: the backend stream pauses while the socket is full, and is
 * cancelled as soon as the client goes away, so the backend stops its work
 * and releases what it holds. A failure before the head becomes the usual
 * JSON error; one after it can only cut the response short.
 *
 * The head, the rows and the tail arrive as separate messages: they are held
 * (the socket corked) and sent together, so a small answer leaves in one
 * write, and a long one in writes of at least FLUSH_BYTES. The pieces written count towards the
 * gateway's young collections (young-collection.ts). The socket rather
 * than the response is corked: a corked response keeps a chunked body aside
 * and writes it after uncorking its socket, one system call per piece.
 */
export function streamAnswer<T>(stream: grpc.ClientReadableStream<T>, res: Response, backend: string, rendering: StreamRendering<T>): Promise<void> {
  const render = rendering.render ?? ((message: T) => dataOf(message as { data?: Buffer | null }));
  return new Promise((resolve, reject) => {
    let started = false;
    let failed = false;
    let ended = false;
    let waiting = false;
    res.on('close', () => {
      if (!ended) stream.cancel();
    });
    const resume = () => {
      waiting = false;
      stream.resume();
    };
    let corked: Response['socket'] = null;
    const uncork = () => {
      corked?.uncork();
      corked = null;
    };
    stream.on('data', (message: T) => {
      if (!corked && res.socket) {
        corked = res.socket;
        corked.cork();
      }
      if (rendering.applyHead(message)) {
        started = true;
        return;
      }
      const part = render(message);
      if (part === undefined || !part.length) return;
      const room = res.write(part);
      passedOn(part.length);
      // Paused and listening before the buffer is sent: uncorking can drain it at once, and
      // emit 'drain' before uncork() returns.
      if (!room && !waiting) {
        waiting = true;
        stream.pause();
        res.once('drain', resume);
      }
      // Nothing drains while corked: a full buffer is sent at once.
      if (!room || res.writableLength >= FLUSH_BYTES) uncork();
    });
    stream.on('error', (error) => {
      failed = true;
      uncork();
      res.off('drain', resume);
      if (started || res.headersSent) {
        res.destroy(error);
        resolve();
      } else reject(httpErrorFromGrpc(error, backend) ?? error);
    });
    // grpc-js may signal 'end' after 'error': the error has already answered.
    stream.on('end', () => {
      ended = true;
      if (failed) return;
      const tail = rendering.finish?.();
      if (tail) res.write(tail);
      // Ending writes the last chunk and then sends all that is held.
      res.end();
      uncork();
      resolve();
    });
  });
}
