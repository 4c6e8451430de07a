import type { Response } from 'express';
import type { grpc } from '@rex/grpc';
import { httpErrorFromGrpc } from '../grpc-errors.ts';

/**
 * Streams a backend's server-streaming answer to the client: `applyHead`
 * sets status and headers from the first message, data chunks follow with
 * backpressure. A failure before the head becomes the usual JSON error; one
 * after it can only cut the response short.
 */
export function streamAnswer<T extends { data?: Buffer | null }>(
  stream: grpc.ClientReadableStream<T>,
  res: Response,
  backend: string,
  applyHead: (message: T) => boolean,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let started = false;
    let failed = false;
    let ended = false;
    // A client that goes away stops the backend's work at once, rather than at the deadline.
    res.on('close', () => {
      if (!ended) stream.cancel();
    });
    stream.on('data', (message: T) => {
      if (applyHead(message)) started = true;
      else if (message.data && !res.write(message.data)) {
        stream.pause();
        res.once('drain', () => stream.resume());
      }
    });
    stream.on('error', (error) => {
      failed = true;
      if (started) {
        res.destroy(error);
        resolve();
      } else reject(httpErrorFromGrpc(error, backend) ?? error);
    });
    // grpc-js may signal 'end' after 'error': the error has already answered.
    stream.on('end', () => {
      ended = true;
      if (failed) return;
      res.end();
      resolve();
    });
  });
}
