import { AsyncLocalStorage } from 'node:async_hooks';
import type { Http2Server, ServerHttp2Session } from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from '@rex/logger';
import { grpcDuration, grpcHandled, use } from '@rex/telemetry';
import { requireGrants, type CallSecret } from './call-grant.ts';
import { DomainError, toServiceError } from './errors.ts';

use(grpcHandled);
use(grpcDuration);

type UnaryHandler<Q, R> = (request: Q, call: grpc.ServerUnaryCall<Q, R>) => Promise<R>;

/**
 * The call a handler is serving: its deadline (epoch ms, when the client set
 * one), whether it has ended (cancelled by the client, or out of time: the
 * client cancels at its deadline), and a way to be told when it ends.
 */
export type CallScope = { deadline?: number; readonly ended: boolean; onEnd: (listener: () => void) => () => void };

const callScopes = new AsyncLocalStorage<CallScope>();

/** The scope of the gRPC call being served, wherever in its handler this runs; undefined outside one. */
export const currentCall = (): CallScope | undefined => callScopes.getStore();

function scopeOf(call: grpc.ServerUnaryCall<unknown, unknown>): { scope: CallScope; done: () => void } {
  const listeners = new Set<() => void>();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    for (const listener of listeners) listener();
  };
  call.once('cancelled', end);
  const deadline = Number(call.getDeadline());
  return {
    scope: {
      deadline: Number.isFinite(deadline) ? deadline : undefined,
      get ended() {
        return ended;
      },
      onEnd: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    done: () => call.off('cancelled', end),
  };
}

/**
 * Adapts an async handler to grpc-js: thrown DomainErrors become their status,
 * anything else INTERNAL (logged, never sent). Records RED metrics per method.
 */
export function unary<Q, R>(service: string, method: string, logger: Logger, fn: UnaryHandler<Q, R>): grpc.handleUnaryCall<Q, R> {
  return (call, callback) => {
    const started = process.hrtime.bigint();
    const finish = (code: grpc.status) => {
      const labels = { grpc_service: service, grpc_method: method, grpc_code: grpc.status[code] };
      grpcHandled.inc(labels);
      grpcDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    };
    const { scope, done } = scopeOf(call as grpc.ServerUnaryCall<unknown, unknown>);
    callScopes.run(scope, () => fn(call.request, call)).finally(done).then(
      (response) => {
        finish(grpc.status.OK);
        callback(null, response);
      },
      (error: unknown) => {
        const status = toServiceError(error);
        if (!(error instanceof DomainError)) {
          // The database going away is answered as retryable (UNAVAILABLE, DEADLINE_EXCEEDED): an outage, not a bug of the handler's.
          const retryable = status.code === grpc.status.UNAVAILABLE || status.code === grpc.status.DEADLINE_EXCEEDED;
          if (retryable) logger.warn({ err: error, method }, 'call failed: the database is unavailable or too slow');
          else logger.error({ err: error, method }, 'unhandled error in gRPC handler');
        }
        finish(status.code ?? grpc.status.INTERNAL);
        callback(status);
      },
    );
  };
}

/**
 * Streaming handlers counted like unary ones (`unary` does its own): by how
 * the call ended, OK, the error's code, or CANCELLED when the client left.
 */
function countStreams(definition: grpc.ServiceDefinition, handlers: grpc.UntypedServiceImplementation): grpc.UntypedServiceImplementation {
  const counted: grpc.UntypedServiceImplementation = { ...handlers };
  for (const [name, method] of Object.entries(definition)) {
    const handler = handlers[name] as ((...args: unknown[]) => void) | undefined;
    if (!handler || (!method.requestStream && !method.responseStream)) continue;
    const [service, methodName] = method.path.split('/').slice(1);
    const counter = () => {
      const started = process.hrtime.bigint();
      let done = false;
      return (code: grpc.status) => {
        if (done) return;
        done = true;
        const labels = { grpc_service: service, grpc_method: methodName, grpc_code: grpc.status[code] };
        grpcHandled.inc(labels);
        grpcDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      };
    };
    counted[name] = method.requestStream
      ? (call: grpc.ServerReadableStream<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
          const finish = counter();
          call.once('cancelled', () => finish(grpc.status.CANCELLED));
          handler(call, (error: grpc.ServerErrorResponse | Partial<grpc.StatusObject> | null, ...rest: unknown[]) => {
            finish(error ? (error.code ?? grpc.status.UNKNOWN) : grpc.status.OK);
            (callback as (...args: unknown[]) => void)(error, ...rest);
          });
        }
      : (call: grpc.ServerWritableStream<unknown, unknown>) => {
          const finish = counter();
          call.once('cancelled', () => finish(grpc.status.CANCELLED));
          call.once('error', (error: { code?: grpc.status }) => finish(error.code ?? grpc.status.UNKNOWN));
          call.once('finish', () => finish(grpc.status.OK));
          handler(call);
        };
  }
  return counted;
}

export type GrpcServer = {
  server: grpc.Server;
  health: HealthImplementation;
  port: number;
  /** Stops taking calls, lets in-flight ones finish, forces after `timeoutMs`. */
  drain: (timeoutMs: number) => Promise<void>;
};

/**
 * Starts a grpc-js server with the standard health service. The overall
 * health ('') is SERVING while the process lives; each named service starts
 * NOT_SERVING until the caller marks it ready.
 */
export async function startGrpcServer(options: {
  services: { name: string; definition: grpc.ServiceDefinition; handlers: grpc.UntypedServiceImplementation }[];
  /** The secret the services share: calls without a valid grant are refused (health checks excepted). */
  secret: CallSecret;
  host?: string;
  port: number;
  /** Connections are closed after this long so clients re-resolve and spread over new replicas. */
  maxConnectionAgeMs?: number;
  /** How long calls running on an aged connection may take to finish. */
  maxConnectionAgeGraceMs?: number;
  /**
   * HTTP/2 receive window in bytes, per connection and per call. The 64 KiB
   * default stalls large client-streaming uploads: every 64 KiB the sender
   * waits for a window update.
   */
  receiveWindow?: number;
}): Promise<GrpcServer> {
  const server = new grpc.Server({
    'grpc.keepalive_permit_without_calls': 1,
    ...(options.maxConnectionAgeMs ? { 'grpc.max_connection_age_ms': options.maxConnectionAgeMs } : {}),
    ...(options.maxConnectionAgeGraceMs !== undefined ? { 'grpc.max_connection_age_grace_ms': options.maxConnectionAgeGraceMs } : {}),
  });
  const health = new HealthImplementation({ '': 'SERVING' });
  for (const { name, definition, handlers } of options.services) {
    const guarded = requireGrants(options.secret, definition, countStreams(definition, handlers));
    server.addService(guarded.definition, guarded.handlers);
    health.setStatus(name, 'NOT_SERVING');
  }
  health.addToServer(server);
  const address = `${options.host ?? '127.0.0.1'}:${options.port}`;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  if (options.receiveWindow) widenReceiveWindow(server, options.receiveWindow);
  const drain = (timeoutMs: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, timeoutMs);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return { server, health, port, drain };
}

/** grpc-js has no server option for the HTTP/2 window, so it is set on each new connection. */
function widenReceiveWindow(server: grpc.Server, bytes: number): void {
  const http2Servers = (server as unknown as { http2Servers: Map<Http2Server, unknown> }).http2Servers;
  for (const http2Server of http2Servers.keys()) {
    http2Server.on('session', (session: ServerHttp2Session) => {
      session.once('connect', () => {
        session.setLocalWindowSize(bytes);
        session.settings({ initialWindowSize: Math.min(bytes, 2 ** 31 - 1) });
      });
    });
  }
}
