import { AsyncLocalStorage } from 'node:async_hooks';
import * as grpc from '@grpc/grpc-js';
import { grpcClientDuration, use } from '@rex/telemetry';
import { grantInterceptor, type CallSecret } from './call-grant.ts';

use(grpcClientDuration);

export const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.keepalive_permit_without_calls': 1,
  // Reconnect quickly after a backend restarts so callers see 503s only briefly.
  'grpc.initial_reconnect_backoff_ms': 200,
  'grpc.max_reconnect_backoff_ms': 2_000,
};

/** Channel options of a client of another rex service: its calls carry a signed grant. */
export function clientOptions(secret: CallSecret): grpc.ClientOptions {
  return { ...CHANNEL_OPTIONS, interceptors: [grantInterceptor(secret)] };
}

/** Whoever the calls are made for (an HTTP client): whether they went away, and a way to be told when they do. */
export type Waiter = { readonly gone: boolean; onGone: (listener: () => void) => () => void };

const waiters = new AsyncLocalStorage<Waiter>();

/**
 * Runs `fn` for `waiter`: unary calls made inside it are cancelled when the
 * waiter goes away, so the service stops work nobody will read (a write is
 * then cancelled in the database, see @rex/db's scoped pool).
 */
export const forWaiter = <T>(waiter: Waiter, fn: () => T): T => waiters.run(waiter, fn);

type UnaryMethod<Q, R> = (
  request: Q,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (error: grpc.ServiceError | null, response?: R) => void,
) => grpc.ClientUnaryCall;

/** Promise form of a unary call, always with a deadline. */
export function callUnary<Q, R>(
  client: grpc.Client,
  service: string,
  method: string,
  request: Q,
  deadlineMs: number,
): Promise<R> {
  const fn = (client as unknown as Record<string, UnaryMethod<Q, R>>)[method];
  const started = process.hrtime.bigint();
  const waiter = waiters.getStore();
  return new Promise<R>((resolve, reject) => {
    let stopWaiting: (() => void) | undefined;
    const call = fn.call(client, request, new grpc.Metadata(), { deadline: Date.now() + deadlineMs }, (error, response) => {
      stopWaiting?.();
      const code = error ? error.code : grpc.status.OK;
      grpcClientDuration.observe(
        { grpc_service: service, grpc_method: method, grpc_code: grpc.status[code] },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
      if (error) reject(error);
      else resolve(response as R);
    });
    if (waiter) {
      if (waiter.gone) call.cancel();
      else stopWaiting = waiter.onGone(() => call.cancel());
    }
  });
}

export function isServiceError(error: unknown): error is grpc.ServiceError {
  return error instanceof Error && typeof (error as grpc.ServiceError).code === 'number' && 'metadata' in error;
}
