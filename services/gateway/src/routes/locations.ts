import type { RecordsClient } from '../clients/records.ts';
import { recordResourceRoutes } from './record-resource.ts';
import type { Route } from './route.ts';

/** /locations and /locations/:id, forwarded to the records service. */
export function locationRoutes(records: RecordsClient): Route[] {
  return recordResourceRoutes({
    resource: 'locations',
    entity: 'location',
    noun: 'location',
    calls: {
      list: async (auth, filters, limit, offset) => {
        const page = await records.listLocations(auth, filters, limit, offset);
        return { rows: page.locations, more: page.more };
      },
      create: (auth, submission, key) => records.createLocation(auth, submission, key),
      get: (auth, id, verbose) => records.getLocation(auth, id, verbose),
      update: (auth, id, submission, ifMatch) => records.updateLocation(auth, id, submission, ifMatch),
      remove: (auth, id, ifMatch) => records.deleteLocation(auth, id, ifMatch),
    },
    verbose: true,
    listSummary: "List the authenticated user's locations in this website and every public location; any location field given as a parameter filters by equality.",
    createSummary: "Create a location (name, centroid_sref and centroid_sref_system required) with custom attribute values (locAttr:<id>, attributes of the website); it is not public.",
    listFilterExample: { name: 'location_type_id', in: 'query', type: 'integer', description: 'Only locations of this type (any field works the same way)' },
    createResponses: {
      201: 'Created; Location and ETag. With an Idempotency-Key header, a retry answers the same and writes nothing',
      400: 'Validation failed; message maps location:<field> to the problem',
      409: 'The Idempotency-Key was used for a different submission',
    },
  });
}
