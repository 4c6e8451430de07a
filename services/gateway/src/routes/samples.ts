import type { Request } from 'express';
import type { RecordsClient } from '../clients/records.ts';
import { HttpError } from '../http-error.ts';
import { recordResourceRoutes } from './record-resource.ts';
import type { Route } from './route.ts';

/** Callers without a user may create samples only where their website allows anonymous posts. */
function requireUserForPost(req: Request): void {
  const caller = req.caller!;
  if (!caller.userId && !caller.mayPostAnonymously) {
    throw new HttpError(400, { 'sample:created_by_id': 'Cannot POST without user authentication.' });
  }
}

/** /samples and /samples/:id, forwarded to the records service. */
export function sampleRoutes(records: RecordsClient): Route[] {
  return recordResourceRoutes({
    resource: 'samples',
    entity: 'sample',
    noun: 'sample',
    calls: {
      list: async (auth, filters, limit, offset) => {
        const page = await records.listSamples(auth, filters, limit, offset);
        return { rows: page.samples, more: page.more };
      },
      create: (auth, submission, key) => records.createSample(auth, submission, key),
      get: (auth, id, verbose) => records.getSample(auth, id, verbose),
      update: (auth, id, submission, ifMatch) => records.updateSample(auth, id, submission, ifMatch),
      remove: (auth, id, ifMatch) => records.deleteSample(auth, id, ifMatch),
      createMany: (auth, submissions, key) => records.createSamples(auth, submissions, key),
    },
    beforeCreate: requireUserForPost,
    verbose: true,
    listSummary:
      "List the authenticated user's samples (in this website, or in every website with scope=user), oldest first; " +
      'any sample field given as a parameter filters by equality.',
    createSummary: 'Create a sample with nested occurrences, child samples and custom attribute values, in one transaction.',
    listFilterExample: { name: 'survey_id', in: 'query', type: 'integer', description: 'Only samples of this survey (any sample field works the same way)' },
    createResponses: {
      201: 'Created; Location names the new sample, ETag its version. With an Idempotency-Key header, a retry of the same submission answers the same (Idempotent-Replayed: true) and writes nothing',
      400: 'Validation failed; message maps <entity>:<field> to the problem',
      409: 'external_key is already used by another sample of the website (duplicate_of names it), or the Idempotency-Key was used for a different submission',
    },
  });
}
