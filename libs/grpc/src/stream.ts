import type * as grpc from '@grpc/grpc-js';

/** The client cancelled or the call closed before the stream ended. */
export class CallEnded extends Error {
  constructor() {
    super('The call ended before its answer was written.');
  }
}

/**
 * Writes one message of a server stream with backpressure: resolves when the
 * call can take more, and rejects with CallEnded as soon as the client
 * cancels or the call closes or fails, so a loop feeding the stream always
 * stops and releases what it holds (a database client, a cursor, a file).
 */
export function writeMessage<T>(call: grpc.ServerWritableStream<unknown, T>, message: T): Promise<void> {
  if (call.cancelled || call.destroyed || call.writableEnded) return Promise.reject(new CallEnded());
  if (call.write(message)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (ended: boolean) => () => {
      call.off('drain', onDrain);
      call.off('cancelled', onEnd);
      call.off('close', onEnd);
      call.off('error', onEnd);
      if (ended) reject(new CallEnded());
      else resolve();
    };
    const onDrain = settle(false);
    const onEnd = settle(true);
    call.once('drain', onDrain);
    call.once('cancelled', onEnd);
    call.once('close', onEnd);
    call.once('error', onEnd);
  });
}
