import type { RecordsClient } from '../clients/records.ts';
import { recordResourceRoutes } from './record-resource.ts';
import type { Route } from './route.ts';

/** /occurrences and /occurrences/:id, forwarded to the records service. */
export function occurrenceRoutes(records: RecordsClient): Route[] {
  return recordResourceRoutes({
    resource: 'occurrences',
    entity: 'occurrence',
    noun: 'occurrence',
    calls: {
      list: async (auth, filters, limit, offset) => {
        const page = await records.listOccurrences(auth, filters, limit, offset);
        return { rows: page.occurrences, more: page.more };
      },
      create: (auth, submission, key) => records.createOccurrence(auth, submission, key),
      get: (auth, id, verbose) => records.getOccurrence(auth, id, verbose),
      update: (auth, id, submission, ifMatch) => records.updateOccurrence(auth, id, submission, ifMatch),
      remove: (auth, id, ifMatch) => records.deleteOccurrence(auth, id, ifMatch),
      createMany: (auth, submissions, key) => records.createOccurrences(auth, submissions, key),
    },
    verbose: true,
    listSummary: "List the authenticated user's occurrences, oldest first; any occurrence field given as a parameter filters by equality.",
    createSummary: "Create an occurrence in one of the authenticated user's samples (values.sample_id).",
    listFilterExample: { name: 'sample_id', in: 'query', type: 'integer', description: 'Only occurrences of this sample (any field works the same way)' },
    createResponses: {
      201: 'Created; Location and ETag. With an Idempotency-Key header, a retry answers the same and writes nothing',
      400: "Validation failed, or the sample is not the caller's",
      409: 'The Idempotency-Key was used for a different submission',
    },
  });
}
