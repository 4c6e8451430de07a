import { invalid, type Handlers } from '@rex/grpc';
import { isRecordId, toJsonValues } from '@rex/protos';
import type { RecordsServiceHandlers } from '@rex/protos';
import { toAttributeDetails } from '../domain/values.ts';
import type { Samples } from '../app/samples.ts';

function recordId(id: string): string {
  if (!isRecordId(id)) throw invalid({ 'sample:id': 'Must be a positive whole number.' });
  return id;
}

export function sampleHandlers(
  samples: Samples,
): Pick<Handlers<RecordsServiceHandlers>, 'CreateSample' | 'CreateSamples' | 'GetSample' | 'ListSamples' | 'UpdateSample' | 'DeleteSample'> {
  return {
    CreateSample: async (request) => ({
      saved: await samples.create(request.auth, request.submission, request.idempotencyKey),
    }),
    CreateSamples: async (request) => ({
      saved: await samples.createMany(request.auth, request.submissions, request.idempotencyKey),
    }),
    GetSample: async (request) => {
      const sample = await samples.get(request.auth, recordId(request.id), request.verbose);
      return { values: toJsonValues(sample.values), version: sample.version, attributes: toAttributeDetails(sample.attributes) };
    },
    ListSamples: async (request) => {
      const limit = Math.min(Math.max(request.limit || 100, 1), 1000);
      const page = await samples.list(request.auth, request.filters, limit, Math.max(request.offset, 0));
      return { samples: page.samples.map((values) => ({ values: toJsonValues(values) })), more: page.more };
    },
    UpdateSample: async (request) => ({
      saved: await samples.update(request.auth, recordId(request.id), request.submission, request.ifMatch),
    }),
    DeleteSample: async (request) => {
      await samples.remove(request.auth, recordId(request.id), request.ifMatch);
      return {};
    },
  };
}
