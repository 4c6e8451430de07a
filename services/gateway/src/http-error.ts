/**
 * An error the gateway answers with directly: status plus the spec's JSON body. It is an answer,
 * not a fault, and takes no stack: nothing reads one (what went wrong is its status, detail and
 * cause), and taking it cost every error answer.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly detail: unknown;
  readonly extra: Record<string, unknown>;
  /** `cause`: what the operator's log says of it beyond the answer (a backend's own status details). */
  constructor(status: number, detail?: unknown, extra: Record<string, unknown> = {}, cause?: string) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(typeof detail === 'string' ? detail : `HTTP ${status}`, cause === undefined ? undefined : { cause });
    Error.stackTraceLimit = stackTraceLimit;
    this.status = status;
    this.detail = detail;
    this.extra = extra;
  }
}

export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** `{code, status, message?}`; message left out when there is none (e.g. 404 for an unknown id). */
export function errorBody(status: number, message?: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { code: status, status: STATUS_TEXT[status] ?? 'Error' };
  if (message !== undefined && message !== '') body.message = message;
  return { ...body, ...extra };
}
