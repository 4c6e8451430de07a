import { invalid, type Handlers } from '@rex/grpc';
import { isRecordId, toJsonValues } from '@rex/protos';
import type { MediaParent, RecordsServiceHandlers } from '@rex/protos';
import type { MediaKind } from '../domain/media.ts';

import type { Media } from '../app/media.ts';

const KINDS: Partial<Record<MediaParent, MediaKind>> = {
  MEDIA_PARENT_SAMPLE: 'sample',
  MEDIA_PARENT_OCCURRENCE: 'occurrence',
  MEDIA_PARENT_LOCATION: 'location',
};

type MediaHandlers = Pick<Handlers<RecordsServiceHandlers>, 'CreateMedium' | 'GetMedium' | 'ListMedia' | 'UpdateMedium' | 'DeleteMedium'>;

export function mediaHandlers(media: Record<MediaKind, Media>): MediaHandlers {
  const of = (parent: MediaParent | undefined): Media => {
    const kind = parent && KINDS[parent];
    if (!kind) throw invalid({ parent: 'Must name samples, occurrences or locations.' });
    return media[kind];
  };
  const recordId = (id: string): string => {
    if (!isRecordId(id)) throw invalid({ id: 'Must be a positive whole number.' });
    return id;
  };
  return {
    CreateMedium: async (request) => ({
      saved: await of(request.parent).create(request.auth, request.submission, request.idempotencyKey),
    }),
    GetMedium: async (request) => {
      const medium = await of(request.parent).get(request.auth, recordId(request.id));
      return { values: toJsonValues(medium.values), version: medium.version };
    },
    ListMedia: async (request) => {
      const limit = Math.min(Math.max(request.limit || 100, 1), 1000);
      const page = await of(request.parent).list(request.auth, request.filters, limit, Math.max(request.offset, 0));
      return { media: page.rows.map((values) => ({ values: toJsonValues(values) })), more: page.more };
    },
    UpdateMedium: async (request) => ({
      saved: await of(request.parent).update(request.auth, recordId(request.id), request.submission, request.ifMatch),
    }),
    DeleteMedium: async (request) => {
      await of(request.parent).remove(request.auth, recordId(request.id), request.ifMatch);
      return {};
    },
  };
}
