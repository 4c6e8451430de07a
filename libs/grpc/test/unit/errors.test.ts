import { describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { conflict, decodeServiceError, invalid, notFound, toServiceError } from '../../src/errors.ts';

function asServiceError(status: Partial<grpc.StatusObject>): grpc.ServiceError {
  return Object.assign(new Error(status.details), { code: status.code!, details: status.details!, metadata: status.metadata ?? new grpc.Metadata() });
}

describe('gRPC error details', () => {
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
