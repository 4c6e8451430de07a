import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { PROTO_FILES, PROTOS_DIR } from '@rex/protos';

/** A field that failed validation: `field` is `<entity>:<field>` as the REST API reports it. */
export type FieldViolation = { field: string; description: string };

/**
 * Why a call failed, where its gRPC status alone does not say enough for the caller to answer
 * (sent as `google.rpc.ErrorInfo.reason`; the gateway's one table turns each into its HTTP status).
 */
export type ErrorReason = 'VERSION_MISMATCH' | 'METHOD_NOT_ALLOWED' | 'FILE_TOO_LARGE' | 'FILE_TYPE_NOT_ALLOWED' | 'UPLOAD_QUOTA_USED';

/**
 * Errors a handler throws; the gRPC adapter turns each into a status. Each is an answer to the
 * caller (not found, refused, invalid), not a fault, and takes no stack: nothing reads one, and
 * taking it was a twentieth of records' time where it answered 404s.
 */
export class DomainError extends Error {
  readonly code: grpc.status;
  readonly violations: FieldViolation[];
  readonly metadata: Record<string, string>;
  readonly reason: ErrorReason | undefined;
  constructor(code: grpc.status, message: string, violations: FieldViolation[] = [], metadata: Record<string, string> = {}, reason?: ErrorReason) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.code = code;
    this.violations = violations;
    this.metadata = metadata;
    this.reason = reason;
  }
}

export const invalid = (violations: FieldViolation[] | Record<string, string>, message = 'Bad Request'): DomainError =>
  new DomainError(
    grpc.status.INVALID_ARGUMENT,
    message,
    Array.isArray(violations) ? violations : Object.entries(violations).map(([field, description]) => ({ field, description })),
  );
export const badRequest = (message: string): DomainError => new DomainError(grpc.status.FAILED_PRECONDITION, message);
/** A precondition the client set (If-Match) does not hold. */
export const preconditionFailed = (message: string): DomainError =>
  new DomainError(grpc.status.FAILED_PRECONDITION, message, [], {}, 'VERSION_MISMATCH');
export const notFound = (message = 'Not Found'): DomainError => new DomainError(grpc.status.NOT_FOUND, message);
export const forbidden = (message: string): DomainError => new DomainError(grpc.status.PERMISSION_DENIED, message);
export const conflict = (message: string, metadata: Record<string, string> = {}): DomainError =>
  new DomainError(grpc.status.ALREADY_EXISTS, message, [], metadata);
export const unavailable = (message: string): DomainError => new DomainError(grpc.status.UNAVAILABLE, message);

const root = new protobuf.Root();
root.resolvePath = (_origin, target) => (target.startsWith('google/protobuf/') ? target : `${PROTOS_DIR}/${target}`);
root.loadSync(PROTO_FILES.filter((file) => file.startsWith('google/rpc/')), { keepCase: true });
const StatusType = root.lookupType('google.rpc.Status');
const BadRequestType = root.lookupType('google.rpc.BadRequest');
const ErrorInfoType = root.lookupType('google.rpc.ErrorInfo');
const BAD_REQUEST_URL = 'type.googleapis.com/google.rpc.BadRequest';
const ERROR_INFO_URL = 'type.googleapis.com/google.rpc.ErrorInfo';
const DETAILS_KEY = 'grpc-status-details-bin';
/** Marks a status raised by a handler, as opposed to one from the transport (no connection, deadline). */
const DOMAIN_KEY = 'rex-domain-error';

const CONNECTION_ERRORS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

/**
 * A lost or refused database connection (a restart, a failover, a
 * terminated backend): the request may be retried, so it is UNAVAILABLE
 * rather than INTERNAL.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    // 08: connection exception; 57P01-57P03: admin or crash shutdown, cannot connect now; 53300: too many connections.
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
    if (CONNECTION_ERRORS.has(code)) return true;
  }
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed/.test(error.message);
}

/** records.occurrences → occurrence, records.sample_media → sample_medium: the entity a field error names. */
function entityOfTable(table: string): string {
  const name = table.split('.').pop() ?? table;
  return name.endsWith('_media') ? `${name.slice(0, -'_media'.length)}_medium` : name.replace(/s$/, '');
}

/**
 * A value the database refused that validation let through (a required
 * column left empty, a reference to no record, a value out of its type's
 * range): the client's 400, naming the field when the database does, rather
 * than a 500. Validation should catch each of these first; this is the net.
 */
export function refusedByDatabase(error: unknown): DomainError | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, table, column, detail } = error as { code?: unknown; table?: string; column?: string; detail?: string };
  if (typeof code !== 'string') return undefined;
  const entity = table ? entityOfTable(table) : 'record';
  if (code === '23502' && column) return invalid({ [`${entity}:${column}`]: 'A value is required.' });
  if (code === '23503') {
    const key = /^Key \((\w+)\)=/.exec(detail ?? '')?.[1];
    return key ? invalid({ [`${entity}:${key}`]: 'It refers to a record that does not exist.' }) : badRequest('The submission refers to a record that does not exist.');
  }
  if (code === '23514') return badRequest(`A value of this ${entity} is not allowed.`);
  // Class 22: data exceptions (a number out of range, an impossible date, text the database cannot hold).
  if (code.startsWith('22')) return badRequest(`A value is not valid: ${error.message}`);
  return undefined;
}

/** A statement cut by statement_timeout or a cancel: 57014. */
export function isStatementTimeout(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '57014';
}

/** Turns any thrown value into a grpc status; unknown errors become INTERNAL with a generic message. */
export function toServiceError(error: unknown): Partial<grpc.StatusObject> {
  if (!(error instanceof DomainError)) {
    if (isDatabaseUnavailable(error)) return { code: grpc.status.UNAVAILABLE, details: 'The database is unavailable; try again shortly.' };
    if (isStatementTimeout(error)) return { code: grpc.status.DEADLINE_EXCEEDED, details: 'The database did not answer in time.' };
    const refused = refusedByDatabase(error);
    if (refused) return toServiceError(refused);
    return { code: grpc.status.INTERNAL, details: 'Internal error' };
  }
  const metadata = new grpc.Metadata();
  metadata.set(DOMAIN_KEY, '1');
  const details = [];
  if (error.violations.length) {
    const value = BadRequestType.encode(
      BadRequestType.create({ field_violations: error.violations.map((v) => ({ field: v.field, description: v.description })) }),
    ).finish();
    details.push({ type_url: BAD_REQUEST_URL, value });
  }
  if (Object.keys(error.metadata).length || error.reason) {
    const value = ErrorInfoType.encode(ErrorInfoType.create({ reason: error.reason ?? 'REX', domain: 'rex', metadata: error.metadata })).finish();
    details.push({ type_url: ERROR_INFO_URL, value });
  }
  if (details.length) {
    const status = StatusType.encode(StatusType.create({ code: error.code, message: error.message, details })).finish();
    metadata.set(DETAILS_KEY, Buffer.from(status));
  }
  return { code: error.code, details: error.message, metadata };
}

export type DecodedError = {
  code: grpc.status;
  message: string;
  violations: FieldViolation[];
  metadata: Record<string, string>;
  reason: ErrorReason | undefined;
  /** Raised by the service's own code (its message is meant for the client). */
  fromService: boolean;
};

/** Reads a failed call's status, message, field violations and extra metadata. */
export function decodeServiceError(error: grpc.ServiceError): DecodedError {
  const decoded: DecodedError = {
    code: error.code,
    message: error.details,
    violations: [],
    metadata: {},
    reason: undefined,
    fromService: error.metadata?.get(DOMAIN_KEY)[0] === '1',
  };
  const raw = error.metadata?.get(DETAILS_KEY)[0];
  if (!raw || typeof raw === 'string') return decoded;
  const status = StatusType.toObject(StatusType.decode(raw), { defaults: true }) as {
    details: { type_url: string; value: Uint8Array }[];
  };
  for (const detail of status.details) {
    if (detail.type_url === BAD_REQUEST_URL) {
      const bad = BadRequestType.toObject(BadRequestType.decode(detail.value), { defaults: true }) as {
        field_violations: FieldViolation[];
      };
      decoded.violations = bad.field_violations;
    } else if (detail.type_url === ERROR_INFO_URL) {
      const info = ErrorInfoType.toObject(ErrorInfoType.decode(detail.value), { defaults: true }) as {
        reason: string;
        metadata: Record<string, string>;
      };
      decoded.metadata = info.metadata;
      if (info.reason !== 'REX') decoded.reason = info.reason as ErrorReason;
    }
  }
  return decoded;
}
