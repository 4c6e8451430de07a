import { decodeServiceError, grpc, isServiceError, type ErrorReason } from '@rex/grpc';
import { HttpError } from './http-error.ts';

/** Failures whose gRPC status alone does not give their HTTP status: the service names the reason. */
const REASON_STATUS: Record<ErrorReason, number> = {
  VERSION_MISMATCH: 412,
  METHOD_NOT_ALLOWED: 405,
  FILE_TOO_LARGE: 413,
  FILE_TYPE_NOT_ALLOWED: 415,
  UPLOAD_QUOTA_USED: 429,
};

const HTTP_STATUS: Partial<Record<grpc.status, number>> = {
  [grpc.status.INVALID_ARGUMENT]: 400,
  [grpc.status.OUT_OF_RANGE]: 400,
  [grpc.status.FAILED_PRECONDITION]: 400,
  [grpc.status.UNAUTHENTICATED]: 401,
  [grpc.status.PERMISSION_DENIED]: 403,
  [grpc.status.NOT_FOUND]: 404,
  [grpc.status.ALREADY_EXISTS]: 409,
  [grpc.status.ABORTED]: 409,
  [grpc.status.RESOURCE_EXHAUSTED]: 429,
  [grpc.status.UNIMPLEMENTED]: 501,
  [grpc.status.UNAVAILABLE]: 503,
  [grpc.status.DEADLINE_EXCEEDED]: 504,
};

/** The one place a backend's gRPC status becomes an HTTP status and the spec's body. */
export function httpErrorFromGrpc(error: unknown, backend: string): HttpError | undefined {
  if (!isServiceError(error)) return undefined;
  const decoded = decodeServiceError(error);
  const status = (decoded.reason && Object.hasOwn(REASON_STATUS, decoded.reason) ? REASON_STATUS[decoded.reason] : undefined) ?? HTTP_STATUS[decoded.code] ?? 500;
  // The call's own details (no connection and why, a database gone) are logged with the answer, never sent.
  if (status === 503) return new HttpError(503, decoded.fromService ? decoded.message : `The ${backend} service is unavailable; try again shortly.`, {}, decoded.message);
  if (status === 504) return new HttpError(504, `The ${backend} service did not answer in time.`, {}, decoded.message);
  if (status === 500) return new HttpError(500, 'Internal error');
  if (status === 404) return new HttpError(404);
  if (decoded.violations.length) {
    return new HttpError(status, Object.fromEntries(decoded.violations.map((v) => [v.field, v.description])));
  }
  const extra = decoded.metadata.duplicate_of_id
    ? { duplicate_of: { id: decoded.metadata.duplicate_of_id, path: decoded.metadata.duplicate_of_path } }
    : {};
  return new HttpError(status, decoded.message, extra);
}
