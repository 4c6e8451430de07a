import { AsyncLocalStorage } from 'node:async_hooks';
import type * as grpc from '@grpc/grpc-js';
import { OnceListeners } from './once-listeners.ts';

/**
 * The call a handler is serving: its deadline (epoch ms, when the client set
 * one), whether it has ended (cancelled by the client, or out of time: the
 * client cancels at its deadline), and a way to be told when it ends.
 */
export type CallScope = { deadline?: number; readonly ended: boolean; onEnd: (listener: () => void) => () => void };

const callScopes = new AsyncLocalStorage<CallScope>();

/** The scope of the gRPC call being served, wherever in its handler this runs; undefined outside one. */
export const currentCall = (): CallScope | undefined => callScopes.getStore();

/** Runs `fn` in `scope`, as if in a call of that scope (work done for several calls at once, say). */
export const inScope = <T>(scope: CallScope, fn: () => T): T => callScopes.run(scope, fn);

/** What a call of any kind has that its scope reads. grpc-js marks a call cancelled, and says so once, when the client cancels or its deadline passes. */
type Call = {
  readonly cancelled: boolean;
  once(event: 'cancelled', listener: () => void): unknown;
  off(event: 'cancelled', listener: () => void): unknown;
  getDeadline(): grpc.Deadline;
};

/** How close to its deadline a call's end counts as its time running out (see `cancelledByCaller`). */
export const DEADLINE_MARGIN_MS = 250;

/**
 * The scope of one call while its handler runs. It costs the call nothing
 * until something asks to hear of its end (a query of a scoped pool): then
 * one listener on the call tells all of them. Work the handler leaves running
 * after it has answered keeps the scope as it was then: what becomes of the
 * call afterwards (grpc-js may mark an answered call cancelled when its
 * stream closes) is not that work's end.
 */
export class ScopeOfCall implements CallScope {
  readonly deadline: number | undefined;
  private readonly call: Call;
  private listeners: OnceListeners | undefined;
  private onCancelled: (() => void) | undefined;
  /** Whether the call had ended when its handler settled; undefined while it runs. */
  private endedWhenServed: boolean | undefined;
  private servedAt: number | undefined;

  constructor(call: Call) {
    this.call = call;
    const deadline = Number(call.getDeadline());
    this.deadline = Number.isFinite(deadline) ? deadline : undefined;
  }

  get ended(): boolean {
    return this.endedWhenServed ?? this.call.cancelled;
  }

  /**
   * Whether the call had ended when its handler settled because its caller cancelled it, not because
   * its time ran out. The caller's deadline and this one (counted from the call's arrival) pass at
   * nearly the same moment, and the caller's cancel may arrive first: an end within
   * DEADLINE_MARGIN_MS of the deadline is the deadline's.
   */
  get cancelledByCaller(): boolean {
    return this.ended && !(this.deadline !== undefined && (this.servedAt ?? Date.now()) >= this.deadline - DEADLINE_MARGIN_MS);
  }

  onEnd(listener: () => void): () => void {
    if (!this.listeners) {
      const listeners = (this.listeners = new OnceListeners());
      this.onCancelled = () => listeners.tell();
      if (this.endedWhenServed === undefined) this.call.once('cancelled', this.onCancelled);
    }
    return this.listeners.add(listener);
  }

  /** Runs `fn` in this scope. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return callScopes.run(this, fn);
  }

  /** The handler has settled. */
  served(): void {
    this.servedAt = Date.now();
    this.endedWhenServed = this.call.cancelled;
    if (this.onCancelled) this.call.off('cancelled', this.onCancelled);
  }
}

/**
 * Runs `fn` in the scope of `call`, so what it reaches (a scoped pool of
 * @rex/db) sees the call's deadline and hears of its end.
 */
export function inCallScope<T>(call: Call, fn: () => Promise<T>): Promise<T> {
  const scope = new ScopeOfCall(call);
  return scope.run(fn).finally(() => scope.served());
}
