import http2, { type Http2Server, type ServerHttp2Session } from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { requireGrants, type CallSecret } from './call-grant.ts';

export type GrpcServer = {
  server: grpc.Server;
  health: HealthImplementation;
  port: number;
  /** Stops taking calls, lets in-flight ones finish, forces after `timeoutMs`. */
  drain: (timeoutMs: number) => Promise<void>;
};

/**
 * Starts a grpc-js server (the transport under serveGrpc) with the standard
 * health service; handlers are added as given, behind the call grant. The
 * overall health ('') is SERVING while the process lives; each named service
 * starts NOT_SERVING until the caller marks it ready.
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
    // Channelz statistics cost every call a wrapper and counters; nothing here reads them.
    'grpc.enable_channelz': 0,
    'grpc.keepalive_permit_without_calls': 1,
    ...(options.maxConnectionAgeMs ? { 'grpc.max_connection_age_ms': options.maxConnectionAgeMs } : {}),
    ...(options.maxConnectionAgeGraceMs !== undefined ? { 'grpc.max_connection_age_grace_ms': options.maxConnectionAgeGraceMs } : {}),
  });
  const health = new HealthImplementation({ '': 'SERVING' });
  for (const { name, definition, handlers } of options.services) {
    const guarded = requireGrants(options.secret, definition, handlers);
    server.addService(guarded.definition, guarded.handlers);
    health.setStatus(name, 'NOT_SERVING');
  }
  health.addToServer(server);
  const address = `${options.host ?? '127.0.0.1'}:${options.port}`;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  if (options.receiveWindow) widenReceiveWindow(server, options.receiveWindow);
  const connections = trackConnections(server);
  const drain = (timeoutMs: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.forceShutdown();
        for (const session of connections) session.destroy(undefined, http2.constants.NGHTTP2_CANCEL);
        resolve();
      }, timeoutMs);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return { server, health, port, drain };
}

/** Calls `listener` with each new connection of the server (grpc-js keeps its HTTP/2 servers to itself). */
function onConnection(server: grpc.Server, listener: (session: ServerHttp2Session) => void): void {
  const http2Servers = (server as unknown as { http2Servers: Map<Http2Server, unknown> }).http2Servers;
  for (const http2Server of http2Servers.keys()) http2Server.on('session', listener);
}

/**
 * The server's open connections. grpc-js tracks them for forceShutdown only
 * while channelz is on; without it, a forced stop would leave calls running.
 */
function trackConnections(server: grpc.Server): Set<ServerHttp2Session> {
  const open = new Set<ServerHttp2Session>();
  onConnection(server, (session) => {
    open.add(session);
    session.once('close', () => open.delete(session));
  });
  return open;
}

/** grpc-js has no server option for the HTTP/2 window, so it is set on each new connection. */
function widenReceiveWindow(server: grpc.Server, bytes: number): void {
  onConnection(server, (session) =>
    session.once('connect', () => {
      session.setLocalWindowSize(bytes);
      session.settings({ initialWindowSize: Math.min(bytes, 2 ** 31 - 1) });
    }),
  );
}
