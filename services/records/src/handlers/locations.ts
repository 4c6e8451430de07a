import { invalid, unary } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import type {
  CreateLocationRequest__Output,
  CreateLocationResponse,
  DeleteLocationRequest__Output,
  DeleteLocationResponse,
  GetLocationRequest__Output,
  GetLocationResponse,
  ListLocationsRequest__Output,
  ListLocationsResponse,
  RecordsServiceHandlers,
  UpdateLocationRequest__Output,
  UpdateLocationResponse,
} from '@rex/protos';
import { toAttributeDetails, toFieldValues } from '../domain/values.ts';
import type { Locations } from '../locations.ts';

const SERVICE = 'records.v1.RecordsService';

function recordId(id: string): string {
  if (!/^[1-9]\d{0,17}$/.test(id)) throw invalid({ 'location:id': 'Must be a positive whole number.' });
  return id;
}

type LocationHandlers = Pick<RecordsServiceHandlers, 'CreateLocation' | 'GetLocation' | 'ListLocations' | 'UpdateLocation' | 'DeleteLocation'>;

export function locationHandlers(locations: Locations, logger: Logger): LocationHandlers {
  return {
    CreateLocation: unary<CreateLocationRequest__Output, CreateLocationResponse>(SERVICE, 'CreateLocation', logger, async (request) => ({
      saved: await locations.create(request.auth, request.submission, request.idempotencyKey),
    })),
    GetLocation: unary<GetLocationRequest__Output, GetLocationResponse>(SERVICE, 'GetLocation', logger, async (request) => {
      const location = await locations.get(request.auth, recordId(request.id), request.verbose);
      return { values: toFieldValues(location.values), version: location.version, attributes: toAttributeDetails(location.attributes) };
    }),
    ListLocations: unary<ListLocationsRequest__Output, ListLocationsResponse>(SERVICE, 'ListLocations', logger, async (request) => {
      const limit = Math.min(Math.max(request.limit || 100, 1), 1000);
      const page = await locations.list(request.auth, request.filters, limit, Math.max(request.offset, 0));
      return { locations: page.locations.map((values) => ({ values: toFieldValues(values) })), more: page.more };
    }),
    UpdateLocation: unary<UpdateLocationRequest__Output, UpdateLocationResponse>(SERVICE, 'UpdateLocation', logger, async (request) => ({
      saved: await locations.update(request.auth, recordId(request.id), request.submission, request.ifMatch),
    })),
    DeleteLocation: unary<DeleteLocationRequest__Output, DeleteLocationResponse>(SERVICE, 'DeleteLocation', logger, async (request) => {
      await locations.remove(request.auth, recordId(request.id), request.ifMatch);
      return {};
    }),
  };
}
