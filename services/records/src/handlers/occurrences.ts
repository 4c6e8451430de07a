import type { Handlers } from '@rex/grpc';
import type { RecordsServiceHandlers } from '@rex/protos';
import type { Occurrences } from '../app/occurrences.ts';
import { recordHandlers } from './record-handlers.ts';

type OccurrenceHandlers = Pick<Handlers<RecordsServiceHandlers>, 'CreateOccurrence' | 'CreateOccurrences' | 'GetOccurrence' | 'ListOccurrences' | 'UpdateOccurrence' | 'DeleteOccurrence'>;

export function occurrenceHandlers(occurrences: Occurrences): OccurrenceHandlers {
  const records = recordHandlers('occurrence', occurrences);
  return {
    CreateOccurrence: async (request) => ({ saved: await occurrences.create(request.auth, request.submission, request.idempotencyKey) }),
    CreateOccurrences: async (request) => ({ saved: await occurrences.createMany(request.auth, request.submissions, request.idempotencyKey) }),
    GetOccurrence: records.get,
    ListOccurrences: async (request) => {
      const page = await records.list(request);
      return { occurrences: page.rows, more: page.more };
    },
    UpdateOccurrence: async (request) => ({ saved: await occurrences.update(request.auth, records.recordId(request.id), request.submission, request.ifMatch) }),
    DeleteOccurrence: records.remove,
  };
}
