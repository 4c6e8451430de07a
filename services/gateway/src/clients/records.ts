import { CHANNEL_OPTIONS, callUnary, grpc } from '@rex/grpc';
import {
  recordsV1,
  type AuthContext,
  type CreateSampleResponse__Output,
  type GetSampleResponse__Output,
  type ListSamplesResponse__Output,
  type RecordsServiceClient,
  type Submission,
  type UpdateSampleResponse__Output,
} from '@rex/protos';

const SERVICE = 'records.v1.RecordsService';

/** The gateway's one typed client of the records service; every call carries a deadline. */
export function createRecordsClient(address: string, deadlineMs: number) {
  const client = new recordsV1.RecordsService(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS) as RecordsServiceClient;
  const call = <R>(method: string, request: object) => callUnary<object, R>(client, SERVICE, method, request, deadlineMs);
  return {
    createSample: (auth: AuthContext, submission: Submission, idempotencyKey = '') =>
      call<CreateSampleResponse__Output>('CreateSample', { auth, submission, idempotencyKey }),
    getSample: (auth: AuthContext, id: string) => call<GetSampleResponse__Output>('GetSample', { auth, id }),
    listSamples: (auth: AuthContext, filters: Record<string, string>, limit: number, offset: number) =>
      call<ListSamplesResponse__Output>('ListSamples', { auth, filters, limit, offset }),
    updateSample: (auth: AuthContext, id: string, submission: Submission, ifMatch: string[] = []) =>
      call<UpdateSampleResponse__Output>('UpdateSample', { auth, id, submission, ifMatch }),
    deleteSample: (auth: AuthContext, id: string, ifMatch: string[] = []) => call<object>('DeleteSample', { auth, id, ifMatch }),
    close: () => client.close(),
  };
}

export type RecordsClient = ReturnType<typeof createRecordsClient>;
