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
} from './errors.ts';
export { unary, startGrpcServer, currentCall, type CallScope, type GrpcServer } from './server.ts';
export { runService, type ProcessSettings } from './process.ts';
export { ServiceClient, forWaiter, isServiceError, CHANNEL_OPTIONS, type Waiter } from './client.ts';
export { callSecret, checkFirstMessage, grantMetadata, hmacSha256, requireGrants, GrantRefused, type CallSecret } from './call-grant.ts';
export { writeMessage, CallEnded } from './stream.ts';
