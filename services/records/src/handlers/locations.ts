import { invalid, type Handlers } from '@rex/grpc';
import { isRecordId, toJsonValues } from '@rex/protos';
import type { RecordsServiceHandlers } from '@rex/protos';
import { toAttributeDetails } from '../domain/values.ts';
import type { Locations } from '../app/locations.ts';

function recordId(id: string): string {
  if (!isRecordId(id)) throw invalid({ 'location:id': 'Must be a positive whole number.' });
  return id;
}

type LocationHandlers = Pick<Handlers<RecordsServiceHandlers>, 'CreateLocation' | 'GetLocation' | 'ListLocations' | 'UpdateLocation' | 'DeleteLocation'>;

export function locationHandlers(locations: Locations): LocationHandlers {
  return {
    CreateLocation: async (request) => ({
      saved: await locations.create(request.auth, request.submission, request.idempotencyKey),
    }),
    GetLocation: async (request) => {
      const location = await locations.get(request.auth, recordId(request.id), request.verbose);
      return { values: toJsonValues(location.values), version: location.version, attributes: toAttributeDetails(location.attributes) };
    },
    ListLocations: async (request) => {
      const limit = Math.min(Math.max(request.limit || 100, 1), 1000);
      const page = await locations.list(request.auth, request.filters, limit, Math.max(request.offset, 0));
      return { locations: page.locations.map((values) => ({ values: toJsonValues(values) })), more: page.more };
    },
    UpdateLocation: async (request) => ({
      saved: await locations.update(request.auth, recordId(request.id), request.submission, request.ifMatch),
    }),
    DeleteLocation: async (request) => {
      await locations.remove(request.auth, recordId(request.id), request.ifMatch);
      return {};
    },
  };
}
