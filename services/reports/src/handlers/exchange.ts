import type { Pool } from '@rex/db';
import { forbidden, notFound, type Handlers } from '@rex/grpc';
import type { ExchangeRequest__Output, ReportsServiceHandlers } from '@rex/protos';
import { findAnnotations, findObservations, pageSizeOf } from '../db/exchange-repo.ts';
import { annotationFields, observationFields } from '../domain/exchange-format.ts';
import { NotAllowedError, visibilityFor } from '../domain/visibility.ts';

function visible(request: ExchangeRequest__Output, includeDeleted: boolean) {
  try {
    return visibilityFor('occurrences', request.auth, false, { includeDeleted });
  } catch (error) {
    if (error instanceof NotAllowedError) throw forbidden(error.message);
    throw error;
  }
}

/** taxon-observations and annotations (a deprecated exchange format) from the read model. */
export function exchangeHandlers(pool: Pool): Pick<Handlers<ReportsServiceHandlers>, 'ListTaxonObservations' | 'ListAnnotations'> {
  return {
    ListTaxonObservations: async (request) => {
      const rows = await findObservations(pool, visible(request, true), request);
      if (request.id && !rows.length) throw notFound();
      const size = pageSizeOf(request);
      return { items: rows.slice(0, size).map((row) => ({ fields: observationFields(row, request.idPrefix) })), more: rows.length > size };
    },

    ListAnnotations: async (request) => {
      const rows = await findAnnotations(pool, visible(request, false), request);
      if (request.id && !rows.length) throw notFound();
      const size = pageSizeOf(request);
      return { items: rows.slice(0, size).map((row) => ({ fields: annotationFields(row, request.idPrefix) })), more: rows.length > size };
    },
  };
}
