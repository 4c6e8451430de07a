import { invalid, unary } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import type {
  CreateSampleRequest__Output,
  CreateSampleResponse,
  CreateSamplesRequest__Output,
  CreateSamplesResponse,
  DeleteSampleRequest__Output,
  DeleteSampleResponse,
  GetSampleRequest__Output,
  GetSampleResponse,
  ListSamplesRequest__Output,
  ListSamplesResponse,
  RecordsServiceHandlers,
  UpdateSampleRequest__Output,
  UpdateSampleResponse,
} from '@rex/protos';
import { toAttributeDetails, toFieldValues } from '../domain/values.ts';
import type { Samples } from '../samples.ts';

const SERVICE = 'records.v1.RecordsService';

function recordId(id: string): string {
  if (!/^[1-9]\d{0,17}$/.test(id)) throw invalid({ 'sample:id': 'Must be a positive whole number.' });
  return id;
}

export function sampleHandlers(
  samples: Samples,
  logger: Logger,
): Pick<RecordsServiceHandlers, 'CreateSample' | 'CreateSamples' | 'GetSample' | 'ListSamples' | 'UpdateSample' | 'DeleteSample'> {
  return {
    CreateSample: unary<CreateSampleRequest__Output, CreateSampleResponse>(SERVICE, 'CreateSample', logger, async (request) => ({
      saved: await samples.create(request.auth, request.submission, request.idempotencyKey),
    })),
    CreateSamples: unary<CreateSamplesRequest__Output, CreateSamplesResponse>(SERVICE, 'CreateSamples', logger, async (request) => ({
      saved: await samples.createMany(request.auth, request.submissions, request.idempotencyKey),
    })),
    GetSample: unary<GetSampleRequest__Output, GetSampleResponse>(SERVICE, 'GetSample', logger, async (request) => {
      const sample = await samples.get(request.auth, recordId(request.id), request.verbose);
      return { values: toFieldValues(sample.values), version: sample.version, attributes: toAttributeDetails(sample.attributes) };
    }),
    ListSamples: unary<ListSamplesRequest__Output, ListSamplesResponse>(SERVICE, 'ListSamples', logger, async (request) => {
      const limit = Math.min(Math.max(request.limit || 100, 1), 1000);
      const page = await samples.list(request.auth, request.filters, limit, Math.max(request.offset, 0));
      return { samples: page.samples.map((values) => ({ values: toFieldValues(values) })), more: page.more };
    }),
    UpdateSample: unary<UpdateSampleRequest__Output, UpdateSampleResponse>(SERVICE, 'UpdateSample', logger, async (request) => ({
      saved: await samples.update(request.auth, recordId(request.id), request.submission, request.ifMatch),
    })),
    DeleteSample: unary<DeleteSampleRequest__Output, DeleteSampleResponse>(SERVICE, 'DeleteSample', logger, async (request) => {
      await samples.remove(request.auth, recordId(request.id), request.ifMatch);
      return {};
    }),
  };
}
