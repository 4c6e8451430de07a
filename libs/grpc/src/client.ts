import { AsyncLocalStorage } from 'node:async_hooks';
import * as grpc from '@grpc/grpc-js';
import { grpcClientDuration, use } from '@rex/telemetry';
import { callerSpan, endCallSpan } from './call-span.ts';
import { granted, type CallSecret } from './call-grant.ts';
import { labelsByCode } from './metric-labels.ts';

use(grpcClientDuration);

/**
 * The longest a call waits for a connection when its service's channel is between attempts
 * (TRANSIENT_FAILURE): the longest wait between attempts, so a service that has come back
 * (restarted, rescheduled) is reached by the next attempt rather than answered UNAVAILABLE until
 * then. A service that is still gone fails the call after this wait, not at its deadline
 * (decision 0041).
 */
export const CONNECTION_WAIT_MS = 1_000;

/**
 * The longest grpc-js waits between attempts to reach a service. It spreads each wait by ±20 %, so
 * attempts are at most 720 ms apart, and the attempt itself, on a busy machine, has the last 280 ms
 * of a call's wait.
 */
export const MAX_RECONNECT_BACKOFF_MS = 600;

/**
 * Channel options of every client of a rex service. Calls spread over every
 * address the target resolves to (round_robin): a `dns:///` name of a headless
 * Service gives one address per pod, and servers close connections after
 * GRPC_MAX_CONNECTION_AGE_MS so clients re-resolve and reach new pods.
 */
export const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  // grpc-js keeps channelz statistics of every call unless told not to; nothing here reads them.
  'grpc.enable_channelz': 0,
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.keepalive_permit_without_calls': 1,
  // Between attempts to reach a service that went away, less than a call waits for one.
  'grpc.initial_reconnect_backoff_ms': 200,
  'grpc.max_reconnect_backoff_ms': MAX_RECONNECT_BACKOFF_MS,
  // Streamed answers (report rows, downloads) flow without waiting for a window update every 64 KiB.
  'grpc-node.flow_control_window': 1024 * 1024,
};

/** Whoever the calls are made for (an HTTP client): whether they went away, and a way to be told when they do. */
export type Waiter = { readonly gone: boolean; onGone: (listener: () => void) => () => void };

const waiters = new AsyncLocalStorage<Waiter>();

/** What a call made while its service's channel is not between attempts does once made: nothing. */
const notWaiting = (): void => undefined;

/**
 * Runs `fn` for `waiter`: unary calls made inside it are cancelled when the
 * waiter goes away, so the service stops work nobody will read (a write is
 * then cancelled in the database, see @rex/db's scoped pool).
 */
export const forWaiter = <T>(waiter: Waiter, fn: () => T): T => waiters.run(waiter, fn);

type Method = grpc.MethodDefinition<unknown, unknown>;

/**
 * Starts a call. One grpc-js refuses to start (a closed client throws) fails as UNAVAILABLE, as a
 * call that found no service does, and is observed so, so that its span and timing end too.
 *
 * grpc-js's client takes the caller's stack at the start of every streaming call (an Error: 8.6 µs
 * where it was measured, see docs/performance.md), only to add it to the error of a call that
 * fails. The callers here turn a failed call's status into an answer and never read that stack, so
 * the call starts without one.
 */
function starting<T>(observe: (code: grpc.status) => void, start: () => T): T {
  try {
    return withoutStack(start);
  } catch (error) {
    observe(grpc.status.UNAVAILABLE);
    const details = error instanceof Error ? error.message : String(error);
    throw Object.assign(new Error(`${grpc.status.UNAVAILABLE} UNAVAILABLE: ${details}`), { code: grpc.status.UNAVAILABLE, details, metadata: new grpc.Metadata() });
  }
}

/** What `make` gives, every Error it makes without a stack (`Error.stackTraceLimit` is put back after). */
function withoutStack<T>(make: () => T): T {
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/**
 * The error of a unary call that ended with `status`: a ServiceError, its message as grpc-js writes
 * it, without a stack. A failed call is mostly an answer (not found, refused, invalid) that the
 * caller turns into its own, and a stack taken where the status arrives holds grpc-js's frames
 * only; grpc-js's own error takes two and writes one out, a tenth of the gateway's time where it
 * answered 404s.
 */
const callError = (status: grpc.StatusObject): grpc.ServiceError =>
  withoutStack(() => Object.assign(new Error(`${status.code} ${grpc.status[status.code]}: ${status.details}`), status));

/**
 * A client of one rex service. Each call carries a grant over its request's
 * bytes (docs/decisions/0008); the request is serialised once, for the grant
 * and the wire alike.
 */
export class ServiceClient {
  private readonly client: grpc.Client;
  private readonly channel: grpc.ChannelInterface;
  private readonly methods: Record<string, Method>;
  private readonly secret: CallSecret;
  /** Each method's metric labels, by the code a call ended with. */
  private readonly labels: Map<string, (code: grpc.status) => { grpc_service: string; grpc_method: string; grpc_code: string }>;

  constructor(
    constructor: (new (address: string, credentials: grpc.ChannelCredentials, options: grpc.ChannelOptions) => grpc.Client) & { service: object },
    address: string,
    secret: CallSecret,
    options: grpc.ChannelOptions = {},
  ) {
    this.client = new constructor(address, grpc.credentials.createInsecure(), { ...CHANNEL_OPTIONS, ...options });
    this.channel = this.client.getChannel();
    this.secret = secret;
    this.methods = constructor.service as Record<string, Method>;
    // The full name (package.Service), as servers label their metrics, from any method's path.
    this.service = Object.values(this.methods)[0]?.path.split('/')[1] ?? 'unknown';
    this.labels = new Map(Object.keys(this.methods).map((name) => [name, labelsByCode({ grpc_service: this.service, grpc_method: name })]));
    // Connects now, not at the first call: a new process (a gateway pod) finds its services before its
    // first request, which then pays for no connection.
    this.client.getChannel().getConnectivityState(true);
  }

  /** The channel's state now (IDLE, CONNECTING, READY, TRANSIENT_FAILURE or SHUTDOWN). */
  connectivity(): grpc.connectivityState {
    return this.client.getChannel().getConnectivityState(false);
  }

  /**
   * The metadata of a new call. grpc-js fails a call made while every address of the service is
   * between attempts to connect (TRANSIENT_FAILURE) at once, so such a call is made to wait for a
   * connection (`waitForReady`) instead; `started` then bounds that wait to CONNECTION_WAIT_MS and
   * half the call's time, after which the call, still unsent, fails UNAVAILABLE: a service still
   * gone answers UNAVAILABLE rather than out of time.
   */
  private callMetadata(deadlineMs: number): { metadata: grpc.Metadata; started: (cancel: (code: grpc.status, details: string) => void) => void } {
    if (this.connectivity() !== grpc.connectivityState.TRANSIENT_FAILURE) return { metadata: new grpc.Metadata(), started: notWaiting };
    const waitMs = Math.min(CONNECTION_WAIT_MS, deadlineMs / 2);
    return {
      metadata: new grpc.Metadata({ waitForReady: true }),
      started: (cancel) =>
        this.client.waitForReady(Date.now() + waitMs, (error) => {
          if (error) cancel(grpc.status.UNAVAILABLE, `No connection to ${this.service} within ${waitMs} ms`);
        }),
    };
  }

  /** The service's full name, e.g. records.v1.RecordsService. */
  readonly service: string;

  private method(name: string): Method {
    const method = Object.hasOwn(this.methods, name) ? this.methods[name] : undefined;
    if (!method) throw new Error(`${this.service} has no method ${name}`);
    return method;
  }

  /**
   * Promise form of a unary call, always with a deadline; cancelled when the waiter it runs for goes
   * away. Made while the service is between attempts to connect, it waits briefly for one (callMetadata).
   * Made on the channel itself, as grpc-js's client makes a unary call without interceptors (start,
   * read, send, half-close), but failing with `callError`.
   */
  unary<R>(name: string, request: object, deadlineMs: number): Promise<R> {
    const method = this.method(name);
    const bytes = granted(this.secret, method.path, method.requestSerialize(request));
    const { metadata, started } = this.callMetadata(deadlineMs);
    const observe = this.observer(name, metadata);
    const waiter = waiters.getStore();
    return new Promise<R>((resolve, reject) => {
      let stopWaiting: (() => void) | undefined;
      const call = starting(observe, () => this.channel.createCall(method.path, Date.now() + deadlineMs, undefined, null, undefined));
      let response: unknown;
      let received = false;
      /** What ends the call instead of its status: an answer that could not be read. */
      let unreadable: grpc.StatusObject | undefined;
      call.start(metadata, {
        onReceiveMetadata: () => undefined,
        // One read is asked for: a unary answer is one message, then the status.
        onReceiveMessage: (message: Buffer) => {
          received = true;
          try {
            response = method.responseDeserialize(message);
          } catch (error) {
            const details = `Response message parsing error: ${error instanceof Error ? error.message : String(error)}`;
            unreadable = { code: grpc.status.INTERNAL, details, metadata: new grpc.Metadata() };
            call.cancelWithStatus(unreadable.code, details);
          }
        },
        onReceiveStatus: (status: grpc.StatusObject) => {
          stopWaiting?.();
          let ended = unreadable ?? status;
          if (ended.code === grpc.status.OK && !received) ended = { code: grpc.status.UNIMPLEMENTED, details: 'No message received', metadata: status.metadata };
          observe(ended.code);
          if (ended.code === grpc.status.OK) resolve(response as R);
          else reject(callError(ended));
        },
      });
      call.startRead();
      call.sendMessageWithContext({}, bytes);
      call.halfClose();
      started((code, details) => call.cancelWithStatus(code, details));
      if (waiter) {
        const cancel = () => call.cancelWithStatus(grpc.status.CANCELLED, 'Cancelled on client');
        if (waiter.gone) cancel();
        else stopWaiting = waiter.onGone(cancel);
      }
    });
  }

  /**
   * Starts observing a call of `name`, traced when the work it is made for is
   * (its trace context is then written into `metadata`); the function returned
   * records how it ended: call it once.
   */
  private observer(name: string, metadata: grpc.Metadata): (code: grpc.status) => void {
    const labels = this.labels.get(name)!;
    const span = callerSpan(this.service, name, metadata);
    const started = process.hrtime.bigint();
    return (code) => {
      grpcClientDuration.observe(labels(code), Number(process.hrtime.bigint() - started) / 1e9);
      endCallSpan(span, code);
    };
  }

  /** A server-streaming call with a deadline; made while the service is between attempts to connect, it waits briefly for one. */
  serverStream<R>(name: string, request: object, deadlineMs: number): grpc.ClientReadableStream<R> {
    const method = this.method(name);
    const bytes = granted(this.secret, method.path, method.requestSerialize(request));
    const { metadata, started } = this.callMetadata(deadlineMs);
    const observe = this.observer(name, metadata);
    const stream = starting(observe, () =>
      this.client.makeServerStreamRequest(
        method.path,
        () => bytes,
        method.responseDeserialize as (bytes: Buffer) => R,
        request,
        metadata,
        { deadline: Date.now() + deadlineMs },
      ),
    );
    started((code, details) => stream.call?.cancelWithStatus(code, details));
    stream.once('status', (status: grpc.StatusObject) => observe(status.code));
    return stream;
  }

  /**
   * A client-streaming call whose first message, `first`, is written at once; the grant covers it.
   * A Buffer written to the stream is a message already encoded, sent as it is. Made while the
   * service is between attempts to connect, it waits briefly for one, its messages held meanwhile.
   */
  clientStream<Q extends object, R>(
    name: string,
    first: Q,
    deadlineMs: number,
    callback: (error: grpc.ServiceError | null, response?: R) => void,
  ): grpc.ClientWritableStream<Q | Buffer> {
    const method = this.method(name);
    const firstBytes = granted(this.secret, method.path, method.requestSerialize(first));
    const { metadata, started } = this.callMetadata(deadlineMs);
    const observe = this.observer(name, metadata);
    const stream = starting(observe, () =>
      this.client.makeClientStreamRequest(
        method.path,
        (message: Q | Buffer) => (message === first ? firstBytes : Buffer.isBuffer(message) ? message : method.requestSerialize(message)),
        method.responseDeserialize as (bytes: Buffer) => R,
        metadata,
        { deadline: Date.now() + deadlineMs },
        (error, response) => {
          observe(error ? error.code : grpc.status.OK);
          callback(error, response);
        },
      ),
    );
    started((code, details) => stream.call?.cancelWithStatus(code, details));
    stream.write(first);
    return stream;
  }

  close(): void {
    this.client.close();
  }
}

export function isServiceError(error: unknown): error is grpc.ServiceError {
  return error instanceof Error && typeof (error as grpc.ServiceError).code === 'number' && 'metadata' in error;
}
