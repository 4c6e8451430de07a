import { invalid, type Handlers } from '@rex/grpc';
import { isRecordId, toJsonValues } from '@rex/protos';
import type { RecordsServiceHandlers } from '@rex/protos';
import { toAttributeDetails } from '../domain/values.ts';
import type { Occurrences } from '../app/occurrences.ts';

function recordId(id: string): string {
  if (!isRecordId(id)) throw invalid({ 'occurrence:id': 'Must be a positive whole number.' });
  return id;
}

type OccurrenceHandlers = Pick<Handlers<RecordsServiceHandlers>, 'CreateOccurrence' | 'CreateOccurrences' | 'GetOccurrence' | 'ListOccurrences' | 'UpdateOccurrence' | 'DeleteOccurrence'>;

export function occurrenceHandlers(occurrences: Occurrences): OccurrenceHandlers {
  return {
    CreateOccurrence: async (request) => ({
      saved: await occurrences.create(request.auth, request.submission, request.idempotencyKey),
    }),
    CreateOccurrences: async (request) => ({
      saved: await occurrences.createMany(request.auth, request.submissions, request.idempotencyKey),
    }),
    GetOccurrence: async (request) => {
      const occurrence = await occurrences.get(request.auth, recordId(request.id), request.verbose);
      return {
        values: toJsonValues(occurrence.values),
        version: occurrence.version,
        attributes: toAttributeDetails(occurrence.attributes),
        associations: (occurrence.associations ?? []).map((association) => ({ values: toJsonValues(association) })),
      };
    },
    ListOccurrences: async (request) => {
      const limit = Math.min(Math.max(request.limit || 100, 1), 1000);
      const page = await occurrences.list(request.auth, request.filters, limit, Math.max(request.offset, 0));
      return { occurrences: page.occurrences.map((values) => ({ values: toJsonValues(values) })), more: page.more };
    },
    UpdateOccurrence: async (request) => ({
      saved: await occurrences.update(request.auth, recordId(request.id), request.submission, request.ifMatch),
    }),
    DeleteOccurrence: async (request) => {
      await occurrences.remove(request.auth, recordId(request.id), request.ifMatch);
      return {};
    },
  };
}
