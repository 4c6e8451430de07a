import type { Request } from 'express';
import { fromJsonValues, isRecordId } from '@rex/protos';
import type { MediaParent } from '@rex/protos';
import { toAuthContext } from '../auth/caller.ts';
import type { MediaClient } from '../clients/media.ts';
import type { RecordsClient } from '../clients/records.ts';
import { HttpError } from '../http-error.ts';
import { backend } from './context.ts';
import { pipeFile } from './media-queue.ts';
import { recordResourceRoutes } from './record-resource.ts';
import type { Route } from './route.ts';

function mediumId(req: Request): string {
  const id = String(req.params.id);
  if (!isRecordId(id)) throw new HttpError(404);
  return id;
}

/** GET /<kind>_media/:id/file: the medium's file, to whoever may read the medium. */
function fileRoute(kind: string, parent: MediaParent, records: RecordsClient, media: MediaClient): Route {
  return {
    resource: `${kind}_media`,
    method: 'get',
    path: `/${kind}_media/:id/file`,
    summary: `The file of one of the authenticated user's ${kind} media, with its content type.`,
    parameters: [{ name: 'id', in: 'path', type: 'integer', description: 'Medium id', required: true }],
    responses: { 200: 'The file', 403: "Another user's medium", 404: 'No such medium, or its file is gone' },
    handler: async (req, res) => {
      const auth = toAuthContext(req.caller!);
      const { values } = await backend('records', records.getMedium(auth, parent, mediumId(req)));
      await backend('media', pipeFile(media.download(auth, String(fromJsonValues(values).path), 'DOWNLOAD_OF_READABLE_MEDIUM'), res));
    },
  };
}

const KINDS: { kind: 'sample' | 'occurrence' | 'location'; parent: MediaParent }[] = [
  { kind: 'sample', parent: 'MEDIA_PARENT_SAMPLE' },
  { kind: 'occurrence', parent: 'MEDIA_PARENT_OCCURRENCE' },
  { kind: 'location', parent: 'MEDIA_PARENT_LOCATION' },
];

/** /sample_media, /occurrence_media and /location_media (also spelt with a hyphen), forwarded to the records service. */
export function mediaRoutes(records: RecordsClient, media: MediaClient): Route[] {
  return KINDS.flatMap(({ kind, parent }) => [
    ...recordResourceRoutes({
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
      createSummary: `Add a medium to one of the authenticated user's ${kind}s: values.${kind}_id and either values.queued, the name the media queue gave the uploaded file, or a link: values.path an https:// URL and values.media_type one of Video:Youtube, Video:Vimeo, Audio:SoundCloud, Image:Flickr, Image:iNaturalist, Social:Facebook, Social:Twitter (stored, never fetched).`,
      listFilterExample: { name: `${kind}_id`, in: 'query', type: 'integer', description: `Only media of this ${kind} (any field works the same way)` },
      createResponses: {
        201: 'Created; Location and ETag. With an Idempotency-Key header, a retry answers the same and writes nothing',
        400: `Validation failed: ${kind}_medium:queued names a file that is not in the queue or already used; ${kind}_medium:path is not an https:// link; ${kind}_medium:media_type is not an external type`,
        409: 'The Idempotency-Key was used for a different submission',
      },
    }),
    fileRoute(kind, parent, records, media),
  ]);
}

/** `occurrence-media` is the same resource as `occurrence_media` (and so for samples and locations). */
export const MEDIA_ALIAS = /\/(sample|occurrence|location)-media(?=\/|\?|$)/;
