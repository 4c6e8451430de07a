import type { Handlers } from '@rex/grpc';
import type { RecordsServiceHandlers } from '@rex/protos';
import type { Samples } from '../app/samples.ts';
import { recordHandlers } from './record-handlers.ts';

type SampleHandlers = Pick<Handlers<RecordsServiceHandlers>, 'CreateSample' | 'CreateSamples' | 'GetSample' | 'ListSamples' | 'UpdateSample' | 'DeleteSample'>;

export function sampleHandlers(samples: Samples): SampleHandlers {
  const records = recordHandlers('sample', samples);
  return {
    CreateSample: async (request) => ({ saved: await samples.create(request.auth, request.submission, request.idempotencyKey) }),
    CreateSamples: async (request) => ({ saved: await samples.createMany(request.auth, request.submissions, request.idempotencyKey) }),
    GetSample: records.get,
    ListSamples: async (request) => {
      const page = await records.list(request);
      return { samples: page.rows, more: page.more };
    },
    UpdateSample: async (request) => ({ saved: await samples.update(request.auth, records.recordId(request.id), request.submission, request.ifMatch) }),
    DeleteSample: records.remove,
  };
}
