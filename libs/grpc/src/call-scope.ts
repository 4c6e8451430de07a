import { AsyncLocalStorage } from 'node:async_hooks';
import type * as grpc from '@grpc/grpc-js';

/**
 * The call a handler is serving: its deadline (epoch ms, when the client set
 * one), whether it has ended (cancelled by the client, or out of time: the
 * client cancels at its deadline), and a way to be told when it ends.
 */
export type CallScope = { deadline?: number; readonly ended: boolean; onEnd: (listener: () => void) => () => void };

const callScopes = new AsyncLocalStorage<CallScope>();

/** The scope of the gRPC call being served, wherever in its handler this runs; undefined outside one. */
export const currentCall = (): CallScope | undefined => callScopes.getStore();

/** What a call of any kind has that its scope reads. */
type Call = { once(event: 'cancelled', listener: () => void): unknown; off(event: 'cancelled', listener: () => void): unknown; getDeadline(): grpc.Deadline };

/**
 * Runs `fn` in the scope of `call`, so what it reaches (a scoped pool of
 * @rex/db) sees the call's deadline and hears of its end.
 */
export function inCallScope<T>(call: Call, fn: () => Promise<T>): Promise<T> {
  const listeners = new Set<() => void>();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    for (const listener of listeners) listener();
  };
  call.once('cancelled', end);
  const deadline = Number(call.getDeadline());
  const scope: CallScope = {
    deadline: Number.isFinite(deadline) ? deadline : undefined,
    get ended() {
      return ended;
    },
    onEnd: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return callScopes.run(scope, async () => fn()).finally(() => call.off('cancelled', end));
}
