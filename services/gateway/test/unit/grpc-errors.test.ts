import { describe, expect, it } from 'vitest';
import { DomainError, grpc, toServiceError, type ErrorReason } from '@rex/grpc';
import { httpErrorFromGrpc } from '../../src/grpc-errors.ts';
import { HttpError } from '../../src/http-error.ts';

const failed = (error: DomainError) => {
  const status = toServiceError(error);
  return Object.assign(new Error(status.details), { code: status.code!, details: status.details!, metadata: status.metadata! });
};

describe('a service error as the HTTP answer', () => {
  it('when the gateway makes an answer of an error, then it takes no stack, and errors made after it keep theirs', () => {
    const limit = Error.stackTraceLimit;
    const refused = httpErrorFromGrpc(failed(new DomainError(grpc.status.PERMISSION_DENIED, 'Not yours')), 'records')!;
    expect([refused.status, refused.stack]).toEqual([403, 'Error: Not yours']);
    expect(new HttpError(404).stack).toBe('Error: HTTP 404');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('a fault').stack!.split('\n').length).toBeGreaterThan(1);
  });

  it('when a service names a reason, then the gateway alone decides its HTTP status', () => {
    const cases: [ErrorReason, grpc.status, number][] = [
      ['VERSION_MISMATCH', grpc.status.FAILED_PRECONDITION, 412],
      ['METHOD_NOT_ALLOWED', grpc.status.FAILED_PRECONDITION, 405],
      ['FILE_TOO_LARGE', grpc.status.INVALID_ARGUMENT, 413],
      ['FILE_TYPE_NOT_ALLOWED', grpc.status.INVALID_ARGUMENT, 415],
      ['UPLOAD_QUOTA_USED', grpc.status.INVALID_ARGUMENT, 429],
    ];
    for (const [reason, code, status] of cases) {
      expect(httpErrorFromGrpc(failed(new DomainError(code, 'why', [], {}, reason)), 'records')?.status, reason).toBe(status);
    }
  });

  it('when no reason is named, then the gRPC status decides (FAILED_PRECONDITION is a 400, INVALID_ARGUMENT with fields a 400 naming them)', () => {
    expect(httpErrorFromGrpc(failed(new DomainError(grpc.status.FAILED_PRECONDITION, 'no')), 'records')?.status).toBe(400);
    const invalid = httpErrorFromGrpc(failed(new DomainError(grpc.status.INVALID_ARGUMENT, 'Bad', [{ field: 'sample:date', description: 'Not a date.' }])), 'records');
    expect(invalid?.status).toBe(400);
  });

  it("when a call finds no service or no answer in time, then the client reads a plain 503 or 504 and the operator's log the call's own details", () => {
    const transport = (code: grpc.status, details: string) => Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });
    const unreachable = httpErrorFromGrpc(transport(grpc.status.UNAVAILABLE, 'No connection established. Last error: connect ECONNREFUSED 10.0.0.7:50051'), 'records');
    expect(unreachable?.status).toBe(503);
    expect(unreachable?.detail).toBe('The records service is unavailable; try again shortly.');
    expect(unreachable?.cause).toBe('No connection established. Last error: connect ECONNREFUSED 10.0.0.7:50051');
    const tooSlow = httpErrorFromGrpc(failed(new DomainError(grpc.status.DEADLINE_EXCEEDED, 'The database did not answer in time.')), 'reports');
    expect(tooSlow?.status).toBe(504);
    expect(tooSlow?.detail).toBe('The reports service did not answer in time.');
    expect(tooSlow?.cause).toBe('The database did not answer in time.');
    expect(httpErrorFromGrpc(failed(new DomainError(grpc.status.FAILED_PRECONDITION, 'no')), 'records')?.cause).toBeUndefined();
  });
});
