import type { Pool } from '@rex/db';
import type { Handlers } from '@rex/grpc';
import type { RecordsServiceHandlers } from '@rex/protos';
import { createAttributeCatalogue } from '../app/attribute-catalogue.ts';
import type { ReferenceData } from '../db/reference-repo.ts';
import { createLocations } from '../app/locations.ts';
import { createMedia } from '../app/media.ts';
import type { MediaClaims } from '../app/media-claims.ts';
import { createOccurrences } from '../app/occurrences.ts';
import { createSamples } from '../app/samples.ts';
import { createSurveys } from '../app/surveys.ts';
import { locationHandlers } from './locations.ts';
import { mediaHandlers } from './media.ts';
import { occurrenceHandlers } from './occurrences.ts';
import { sampleHandlers } from './samples.ts';
import { surveyHandlers } from './surveys.ts';

/** Every RecordsService method, each over its use case. */
export function recordsServiceHandlers(pool: Pool, reference: ReferenceData, claims: MediaClaims): Handlers<RecordsServiceHandlers> {
  return {
    ...sampleHandlers(createSamples(pool, reference, claims)),
    ...occurrenceHandlers(createOccurrences(pool, reference, claims)),
    ...locationHandlers(createLocations(pool, reference, claims)),
    ...mediaHandlers({
      sample: createMedia(pool, reference, claims, 'sample'),
      occurrence: createMedia(pool, reference, claims, 'occurrence'),
      location: createMedia(pool, reference, claims, 'location'),
    }),
    ...surveyHandlers(createSurveys(pool, reference), createAttributeCatalogue(pool)),
  };
}
