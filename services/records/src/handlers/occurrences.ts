import { invalid, unary } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import type {
  CreateOccurrenceRequest__Output,
  CreateOccurrenceResponse,
  CreateOccurrencesRequest__Output,
  CreateOccurrencesResponse,
  DeleteOccurrenceRequest__Output,
  DeleteOccurrenceResponse,
  GetOccurrenceRequest__Output,
  GetOccurrenceResponse,
  ListOccurrencesRequest__Output,
  ListOccurrencesResponse,
  RecordsServiceHandlers,
  UpdateOccurrenceRequest__Output,
  UpdateOccurrenceResponse,
} from '@rex/protos';
import { toAttributeDetails, toFieldValues } from '../domain/values.ts';
import type { Occurrences } from '../occurrences.ts';

const SERVICE = 'records.v1.RecordsService';

function recordId(id: string): string {
  if (!/^[1-9]\d{0,17}$/.test(id)) throw invalid({ 'occurrence:id': 'Must be a positive whole number.' });
  return id;
}

type OccurrenceHandlers = Pick<RecordsServiceHandlers, 'CreateOccurrence' | 'CreateOccurrences' | 'GetOccurrence' | 'ListOccurrences' | 'UpdateOccurrence' | 'DeleteOccurrence'>;

export function occurrenceHandlers(occurrences: Occurrences, logger: Logger): OccurrenceHandlers {
  return {
    CreateOccurrence: unary<CreateOccurrenceRequest__Output, CreateOccurrenceResponse>(SERVICE, 'CreateOccurrence', logger, async (request) => ({
      saved: await occurrences.create(request.auth, request.submission, request.idempotencyKey),
    })),
    CreateOccurrences: unary<CreateOccurrencesRequest__Output, CreateOccurrencesResponse>(SERVICE, 'CreateOccurrences', logger, async (request) => ({
      saved: await occurrences.createMany(request.auth, request.submissions, request.idempotencyKey),
    })),
    GetOccurrence: unary<GetOccurrenceRequest__Output, GetOccurrenceResponse>(SERVICE, 'GetOccurrence', logger, async (request) => {
      const occurrence = await occurrences.get(request.auth, recordId(request.id), request.verbose);
      return {
        values: toFieldValues(occurrence.values),
        version: occurrence.version,
        attributes: toAttributeDetails(occurrence.attributes),
        associations: (occurrence.associations ?? []).map((association) => ({ values: toFieldValues(association) })),
      };
    }),
    ListOccurrences: unary<ListOccurrencesRequest__Output, ListOccurrencesResponse>(SERVICE, 'ListOccurrences', logger, async (request) => {
      const limit = Math.min(Math.max(request.limit || 100, 1), 1000);
      const page = await occurrences.list(request.auth, request.filters, limit, Math.max(request.offset, 0));
      return { occurrences: page.occurrences.map((values) => ({ values: toFieldValues(values) })), more: page.more };
    }),
    UpdateOccurrence: unary<UpdateOccurrenceRequest__Output, UpdateOccurrenceResponse>(SERVICE, 'UpdateOccurrence', logger, async (request) => ({
      saved: await occurrences.update(request.auth, recordId(request.id), request.submission, request.ifMatch),
    })),
    DeleteOccurrence: unary<DeleteOccurrenceRequest__Output, DeleteOccurrenceResponse>(SERVICE, 'DeleteOccurrence', logger, async (request) => {
      await occurrences.remove(request.auth, recordId(request.id), request.ifMatch);
      return {};
    }),
  };
}
