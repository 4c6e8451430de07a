import * as grpc from '@grpc/grpc-js';
import type { Logger } from '@rex/logger';
import { grpcDuration, grpcHandled, grpcInFlight, inSpan, use } from '@rex/telemetry';
import { calleeSpan, endCallSpan } from './call-span.ts';
import { GrantRefused } from './call-grant.ts';
import { ScopeOfCall, inCallScope } from './call-scope.ts';
import { labelsByCode } from './metric-labels.ts';
import { DomainError, toServiceError } from './errors.ts';
import { CallEnded } from './stream.ts';

use(grpcHandled);
use(grpcDuration);
use(grpcInFlight);

/** A unary method: resolves with the answer, or throws (a DomainError becomes its status). */
export type UnaryHandler<Q, R> = (request: Q, call: grpc.ServerUnaryCall<Q, R>) => Promise<R>;

/** A server-streaming method: writes with writeMessage and resolves when done; the stream is then ended. */
export type ServerStreamHandler<Q, R> = (request: Q, call: grpc.ServerWritableStream<Q, R>) => Promise<void>;

/** A client-streaming method: reads the call (reads fail with CallEnded once the client cancels) and resolves with the answer. */
export type ClientStreamHandler<Q, R> = (call: grpc.ServerReadableStream<Q, R>) => Promise<R>;

type HandlerOf<H> =
  H extends grpc.handleServerStreamingCall<infer Q, infer R>
    ? ServerStreamHandler<Q, R>
    : H extends grpc.handleClientStreamingCall<infer Q, infer R>
      ? ClientStreamHandler<Q, R>
      : H extends grpc.handleUnaryCall<infer Q, infer R>
        ? UnaryHandler<Q, R>
        : never;

/**
 * The handlers of a service, one async function a method, typed from its
 * generated grpc-js interface: `Handlers<RecordsServiceHandlers>`.
 */
export type Handlers<S> = { [K in keyof S as string extends K ? never : K]: HandlerOf<S[K]> };

type Method = grpc.MethodDefinition<unknown, unknown>;
type Labels = { grpc_service: string; grpc_method: string };

/** The service's full name (records.v1.RecordsService) and the method's, from its path. */
export function namesOf(method: Method): { service: string; method: string } {
  const [service, name] = method.path.split('/').slice(1);
  return { service, method: name };
}

/**
 * grpc-js handlers for `handlers`, each adapted to its method's kind as the
 * definition gives it: run in the call's scope (deadline, cancellation),
 * counted in grpc_server_handled_total and grpc_server_handling_seconds by
 * how the call ended, and what they throw answered as a status.
 */
export function adaptHandlers(definition: grpc.ServiceDefinition, handlers: object, logger: Logger): grpc.UntypedServiceImplementation {
  const adapted: grpc.UntypedServiceImplementation = {};
  for (const [name, handler] of Object.entries(handlers)) {
    const method = Object.hasOwn(definition, name) ? (definition[name] as Method) : undefined;
    if (!method) throw new Error(`The service has no method ${name}.`);
    const names = namesOf(method);
    const labels = { grpc_service: names.service, grpc_method: names.method };
    if (method.requestStream && method.responseStream) throw new Error(`${name}: bidirectional streams are not supported.`);
    if (method.requestStream) adapted[name] = clientStream(labels, handler, logger);
    else if (method.responseStream) adapted[name] = serverStream(labels, handler, logger);
    else adapted[name] = unary(labels, handler, logger);
  }
  return adapted;
}

/**
 * Counts a call in flight from now, and traces it when its caller's trace is
 * sampled; `run` runs the handler under the call's span. `finish` counts the
 * call once, by the code it ended with, and ends its span.
 */
function observeCall(
  call: { metadata: grpc.Metadata },
  labels: Labels,
  withCode: (code: grpc.status) => Labels & { grpc_code: string },
): { run: <T>(fn: () => T) => T; finish: (code: grpc.status) => void } {
  const started = process.hrtime.bigint();
  grpcInFlight.inc(labels);
  const span = calleeSpan(call, labels.grpc_service, labels.grpc_method);
  let counted = false;
  return {
    run: (fn) => inSpan(span, fn),
    finish: (code) => {
      if (counted) return;
      counted = true;
      grpcInFlight.dec(labels);
      const ended = withCode(code);
      grpcHandled.inc(ended);
      grpcDuration.observe(ended, Number(process.hrtime.bigint() - started) / 1e9);
      endCallSpan(span, code);
    },
  };
}

/**
 * The status a thrown value answers: a DomainError's own; anything else is
 * logged (never sent) and becomes INTERNAL, or UNAVAILABLE/DEADLINE_EXCEEDED
 * for a database that went away or was too slow.
 */
function statusOf(error: unknown, method: string, logger: Logger, cancelledByCaller = false): Partial<grpc.StatusObject> {
  // A client stream's first message that is not the one its grant signed (checkFirstMessage).
  const thrown = error instanceof GrantRefused ? new DomainError(grpc.status.UNAUTHENTICATED, error.message) : error;
  const status = toServiceError(thrown);
  if (!(thrown instanceof DomainError)) {
    // An outage, not a bug of the handler's: the call may be retried.
    const retryable = status.code === grpc.status.UNAVAILABLE || status.code === grpc.status.DEADLINE_EXCEEDED;
    // A call its caller had cancelled had its query cancelled for it: nobody waits for the answer, and
    // the database was not at fault. A call out of time was too slow: the operator is warned.
    if (retryable && cancelledByCaller) logger.debug({ err: error, method }, 'call cancelled by its caller before its query finished');
    else if (retryable) logger.warn({ err: error, method }, 'call failed: the database is unavailable or too slow');
    else logger.error({ err: error, method }, 'unhandled error in gRPC handler');
  }
  return status;
}

function unary(labels: Labels, handler: UnaryHandler<unknown, unknown>, logger: Logger): grpc.handleUnaryCall<unknown, unknown> {
  const codes = labelsByCode(labels);
  return (call, callback) => {
    const { run, finish } = observeCall(call, labels, codes);
    const scope = new ScopeOfCall(call);
    // Under the call's span to the end, so that what is logged of its outcome names its trace.
    void run(() =>
      scope.run(() => handler(call.request, call)).then(
        (response) => {
          scope.served();
          finish(grpc.status.OK);
          callback(null, response);
        },
        (error: unknown) => {
          scope.served();
          const status = statusOf(error, labels.grpc_method, logger, scope.cancelledByCaller);
          finish(status.code ?? grpc.status.INTERNAL);
          callback(status);
        },
      ),
    );
  };
}

function serverStream(labels: Labels, handler: ServerStreamHandler<unknown, unknown>, logger: Logger): grpc.handleServerStreamingCall<unknown, unknown> {
  const codes = labelsByCode(labels);
  return (call) => {
    const { run, finish } = observeCall(call, labels, codes);
    call.once('cancelled', () => finish(grpc.status.CANCELLED));
    call.once('error', (error: { code?: grpc.status }) => finish(error.code ?? grpc.status.UNKNOWN));
    call.once('finish', () => finish(grpc.status.OK));
    // Closed without any of those (the connection went): no longer in flight.
    call.once('close', () => finish(grpc.status.CANCELLED));
    void run(() =>
      inCallScope(call, () => handler(call.request, call)).then(
        () => {
          if (!call.cancelled && !call.destroyed && !call.writableEnded) call.end();
        },
        (error: unknown) => {
          // A client that went away (writeMessage's CallEnded) has nobody to answer.
          if (error instanceof CallEnded || call.cancelled) return;
          call.emit('error', statusOf(error, labels.grpc_method, logger));
        },
      ),
    );
  };
}

function clientStream(labels: Labels, handler: ClientStreamHandler<unknown, unknown>, logger: Logger): grpc.handleClientStreamingCall<unknown, unknown> {
  const codes = labelsByCode(labels);
  return (call, callback) => {
    const { run, finish } = observeCall(call, labels, codes);
    call.once('cancelled', () => {
      finish(grpc.status.CANCELLED);
      // The handler's next read fails, so a cut-off stream never looks complete.
      call.destroy(new CallEnded());
    });
    void run(() =>
      inCallScope(call, () => handler(call)).then(
        (response) => {
          finish(grpc.status.OK);
          callback(null, response);
        },
        (error: unknown) => {
          if (call.cancelled) return;
          const status = statusOf(error, labels.grpc_method, logger);
          finish(status.code ?? grpc.status.INTERNAL);
          callback(status);
        },
      ),
    );
  };
}
