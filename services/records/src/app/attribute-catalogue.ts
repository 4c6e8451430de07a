import type { Pool } from '@rex/db';
import { invalid, notFound } from '@rex/grpc';
import { type AuthContext__Output, type JsonValues, toJsonValues } from '@rex/protos';
import { readFilters, type Errors } from '../domain/fields.ts';
import { type Value } from '../domain/values.ts';
import { locationAttributes, surveyAttributes, type AttributeListing } from '../db/attributes-repo.ts';

const ENTITIES = ['sample', 'occurrence', 'location'] as const;
type AttributeEntity = (typeof ENTITIES)[number];

const FILTERS: Record<AttributeEntity, Record<string, 'integer'>> = {
  sample: { restrict_to_survey_id: 'integer' },
  occurrence: { restrict_to_survey_id: 'integer' },
  location: { location_type_id: 'integer' },
};

/** Flags as the rest of the API writes them ('t'/'f'), numbers and lists as text. */
function values(row: AttributeListing): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [key, value] of Object.entries(row)) out[key] = typeof value === 'boolean' ? (value ? 't' : 'f') : value;
  return out;
}

/**
 * The custom attributes the caller's website may use (`sample-attributes`,
 * `occurrence-attributes`, `location-attributes`): any caller of the website
 * reads them, as it reads the website's surveys.
 */
export function createAttributeCatalogue(db: Pool) {
  return {
    async list(auth: AuthContext__Output | null, entity: string, id: string, given: Record<string, string>): Promise<{ values: JsonValues }[]> {
      if (!(ENTITIES as readonly string[]).includes(entity)) throw invalid({ 'attribute:entity': `Must be one of ${ENTITIES.join(', ')}.` });
      const kind = entity as AttributeEntity;
      const errors: Errors = {};
      const filters = readFilters(`${kind}_attribute`, given, FILTERS[kind], errors);
      if (Object.keys(errors).length) throw invalid(errors);
      const websiteId = auth?.websiteId ?? '0';
      const one = id && id !== '0' ? id : undefined;
      const rows =
        kind === 'location'
          ? await locationAttributes(db, websiteId, { id: one, locationTypeId: filters.location_type_id })
          : await surveyAttributes(db, kind, websiteId, { id: one, surveyId: filters.restrict_to_survey_id });
      if (one && !rows.length) throw notFound();
      return rows.map((row) => ({ values: toJsonValues(values(row)) }));
    },
  };
}

export type AttributeCatalogue = ReturnType<typeof createAttributeCatalogue>;
