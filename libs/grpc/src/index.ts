export * as grpc from '@grpc/grpc-js';
export {
  DomainError,
  invalid,
  badRequest,
  notFound,
  preconditionFailed,
  forbidden,
  conflict,
  unavailable,
  toServiceError,
  isDatabaseUnavailable,
  isStatementTimeout,
  refusedByDatabase,
  decodeServiceError,
  type FieldViolation,
  type DecodedError,
  type ErrorReason,
} from './errors.ts';
export { serveGrpc, type GrpcSettings, type ServedGrpc } from './serve.ts';
export { runService, type ProcessSettings } from './process.ts';
export { superviseReadiness, type DatabaseSupervisor, type Job, type Sweep, type Worker, type Readiness } from './readiness.ts';
export { type Handlers, type UnaryHandler, type ServerStreamHandler, type ClientStreamHandler } from './handlers.ts';
export { currentCall, inScope, type CallScope } from './call-scope.ts';
export { OnceListeners } from './once-listeners.ts';
export { ServiceClient, forWaiter, isServiceError, CHANNEL_OPTIONS, type Waiter } from './client.ts';
export { callSecret, checkFirstMessage, granted, hmacSha256, requireGrants, GrantRefused, type CallSecret } from './call-grant.ts';
export { writeMessage, CallEnded } from './stream.ts';
