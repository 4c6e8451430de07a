import type { Handlers } from '@rex/grpc';
import type { RecordsServiceHandlers } from '@rex/protos';
import type { Locations } from '../app/locations.ts';
import { recordHandlers } from './record-handlers.ts';

type LocationHandlers = Pick<Handlers<RecordsServiceHandlers>, 'CreateLocation' | 'GetLocation' | 'ListLocations' | 'UpdateLocation' | 'DeleteLocation'>;

export function locationHandlers(locations: Locations): LocationHandlers {
  const records = recordHandlers('location', locations);
  return {
    CreateLocation: async (request) => ({ saved: await locations.create(request.auth, request.submission, request.idempotencyKey) }),
    GetLocation: records.get,
    ListLocations: async (request) => {
      const page = await records.list(request);
      return { locations: page.rows, more: page.more };
    },
    UpdateLocation: async (request) => ({ saved: await locations.update(request.auth, records.recordId(request.id), request.submission, request.ifMatch) }),
    DeleteLocation: records.remove,
  };
}
