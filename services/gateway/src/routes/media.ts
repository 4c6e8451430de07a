import type { MediaParent } from '@rex/protos';
import type { RecordsClient } from '../clients/records.ts';
import { recordResourceRoutes } from './record-resource.ts';
import type { Route } from './route.ts';

const KINDS: { kind: 'sample' | 'occurrence' | 'location'; parent: MediaParent }[] = [
  { kind: 'sample', parent: 'MEDIA_PARENT_SAMPLE' },
  { kind: 'occurrence', parent: 'MEDIA_PARENT_OCCURRENCE' },
  { kind: 'location', parent: 'MEDIA_PARENT_LOCATION' },
];

/** /sample_media, /occurrence_media and /location_media (also spelt with a hyphen), forwarded to the records service. */
export function mediaRoutes(records: RecordsClient): Route[] {
  return KINDS.flatMap(({ kind, parent }) =>
    recordResourceRoutes({
      resource: `${kind}_media`,
      entity: `${kind}_medium`,
      noun: `${kind} medium`,
      calls: {
        list: async (auth, filters, limit, offset) => {
          const page = await records.listMedia(auth, parent, filters, limit, offset);
          return { rows: page.media, more: page.more };
        },
        create: (auth, submission, key) => records.createMedium(auth, parent, submission, key),
        get: (auth, id) => records.getMedium(auth, parent, id),
        update: (auth, id, submission, ifMatch) => records.updateMedium(auth, parent, id, submission, ifMatch),
        remove: (auth, id, ifMatch) => records.deleteMedium(auth, parent, id, ifMatch),
      },
      listSummary: `List the authenticated user's ${kind} media; any field given as a parameter filters by equality.`,
      createSummary: `Add a medium to one of the authenticated user's ${kind}s: values.${kind}_id and values.queued, the name the media queue gave the uploaded file.`,
      listFilterExample: { name: `${kind}_id`, in: 'query', type: 'integer', description: `Only media of this ${kind} (any field works the same way)` },
      createResponses: {
        201: 'Created; Location and ETag. With an Idempotency-Key header, a retry answers the same and writes nothing',
        400: `Validation failed: ${kind}_medium:queued names a file that is not in the queue or already used`,
        409: 'The Idempotency-Key was used for a different submission',
      },
    }),
  );
}

/** `occurrence-media` is the same resource as `occurrence_media` (and so for samples and locations). */
export const MEDIA_ALIAS = /\/(sample|occurrence|location)-media(?=\/|\?|$)/;
