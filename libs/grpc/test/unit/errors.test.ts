import { describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { DomainError, conflict, decodeServiceError, invalid, notFound, preconditionFailed, toServiceError } from '../../src/errors.ts';

function asServiceError(status: Partial<grpc.StatusObject>): grpc.ServiceError {
  return Object.assign(new Error(status.details), { code: status.code!, details: status.details!, metadata: status.metadata ?? new grpc.Metadata() });
}

describe('gRPC error details', () => {
  it('when a handler makes a DomainError, then it takes no stack, and errors made after it keep theirs', () => {
    const limit = Error.stackTraceLimit;
    const error = notFound('No such sample.');
    expect(error.stack).toBe('Error: No such sample.');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('a fault').stack!.split('\n').length).toBeGreaterThan(1);
  });

  it('when a validation error carries field violations, then they survive the trip through status details', () => {
    const status = toServiceError(invalid({ 'sample:survey_id': 'The survey must be supplied.', 'occurrence:taxa_taxon_list_id': 'x' }));
    expect(status.code).toBe(grpc.status.INVALID_ARGUMENT);
    const decoded = decodeServiceError(asServiceError(status));
    expect(decoded.violations).toEqual([
      { field: 'sample:survey_id', description: 'The survey must be supplied.' },
      { field: 'occurrence:taxa_taxon_list_id', description: 'x' },
    ]);
  });

  it('when an error carries metadata, then it is decoded', () => {
    const decoded = decodeServiceError(asServiceError(toServiceError(conflict('Duplicate', { extra: '{"a":1}' }))));
    expect(decoded).toMatchObject({ code: grpc.status.ALREADY_EXISTS, message: 'Duplicate', metadata: { extra: '{"a":1}' } });
  });

  it('when an error names its reason, then the reason arrives with its violations, and errors without one have none', () => {
    const tooLarge = new DomainError(grpc.status.INVALID_ARGUMENT, 'Too large', [{ field: 'photo', description: 'Too large' }], {}, 'FILE_TOO_LARGE');
    expect(decodeServiceError(asServiceError(toServiceError(tooLarge)))).toMatchObject({ reason: 'FILE_TOO_LARGE', violations: [{ field: 'photo', description: 'Too large' }] });
    expect(decodeServiceError(asServiceError(toServiceError(preconditionFailed('Changed'))))).toMatchObject({ code: grpc.status.FAILED_PRECONDITION, reason: 'VERSION_MISMATCH' });
    expect(decodeServiceError(asServiceError(toServiceError(conflict('Duplicate', { extra: '1' })))).reason).toBeUndefined();
  });

  it('when a plain not-found is thrown, then it has no details', () => {
    const decoded = decodeServiceError(asServiceError(toServiceError(notFound())));
    expect(decoded).toEqual({ code: grpc.status.NOT_FOUND, message: 'Not Found', violations: [], metadata: {}, fromService: true });
  });

  it('when an unexpected error is thrown, then it becomes INTERNAL without its message', () => {
    const status = toServiceError(new Error('connection string with password'));
    expect(status).toEqual({ code: grpc.status.INTERNAL, details: 'Internal error' });
  });
});

describe('where an error comes from', () => {
  it('when the transport fails (no status details, no marker), then it is not from the service', () => {
    const decoded = decodeServiceError(asServiceError({ code: grpc.status.UNAVAILABLE, details: 'No connection established' }));
    expect(decoded.fromService).toBe(false);
  });
});

describe('database errors', () => {
  const pgError = (fields: Record<string, string>, message = 'error') => Object.assign(new Error(message), fields);

  it('when the database connection is lost or refused, then the status is UNAVAILABLE (503, retry), not INTERNAL', () => {
    for (const error of [
      pgError({ code: 'ECONNRESET' }),
      pgError({ code: 'ECONNREFUSED' }),
      pgError({ code: '57P01' }, 'terminating connection due to administrator command'),
      pgError({ code: '08006' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
    ]) {
      expect(toServiceError(error).code, error.message).toBe(grpc.status.UNAVAILABLE);
    }
  });

  it('when a statement runs out of time, then DEADLINE_EXCEEDED (504)', () => {
    expect(toServiceError(pgError({ code: '57014' }, 'canceling statement due to statement timeout')).code).toBe(grpc.status.DEADLINE_EXCEEDED);
  });

  it('when the database refuses a value, then the field is named in an INVALID_ARGUMENT, and no other error leaks its message', () => {
    const notNull = decodeServiceError(asServiceError(toServiceError(pgError({ code: '23502', table: 'occurrences', column: 'record_status' }))));
    expect(notNull.violations).toEqual([{ field: 'occurrence:record_status', description: 'A value is required.' }]);
    const missing = decodeServiceError(asServiceError(toServiceError(pgError({ code: '23503', table: 'sample_media', detail: 'Key (licence_id)=(7) is not present in table "licences".' }))));
    expect(missing.violations).toEqual([{ field: 'sample_medium:licence_id', description: 'It refers to a record that does not exist.' }]);
    expect(toServiceError(pgError({ code: '22008' }, 'date/time field value out of range')).code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(toServiceError(pgError({ code: '42P01' }, 'relation "secret_table" does not exist'))).toEqual({ code: grpc.status.INTERNAL, details: 'Internal error' });
  });
});
