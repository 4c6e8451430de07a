import type { Pool } from '@rex/db';

/** A custom attribute as listed for a website: lookups carry their terms as `<id>:<term>`. */
export type AttributeListing = Record<string, string | boolean | string[] | null>;

const TERMS = `COALESCE((SELECT array_agg(t.id || ':' || t.term ORDER BY t.id) FROM records.attribute_terms t WHERE t.attribute_id = a.id), '{}') AS terms`;

/**
 * Sample or occurrence attributes attached to the website's surveys, each once,
 * with the surveys it is attached to and those that require it (`surveyId`: only
 * attributes of that survey, with its required flag).
 */
export async function surveyAttributes(db: Pool, entity: 'sample' | 'occurrence', websiteId: string, filter: { id?: string; surveyId?: string }): Promise<AttributeListing[]> {
  const { rows } = await db.query<AttributeListing>(
    `SELECT a.id::text, a.caption, a.data_type, a.multi_value, ${TERMS},
            array_agg(sa.survey_id::text ORDER BY sa.survey_id) AS restrict_to_survey_ids,
            COALESCE(array_agg(sa.survey_id::text ORDER BY sa.survey_id) FILTER (WHERE sa.required), '{}') AS required_in_survey_ids,
            bool_or(sa.required) AS required
       FROM records.attributes a
       JOIN records.survey_attributes sa ON sa.attribute_id = a.id
       JOIN records.surveys s ON s.id = sa.survey_id AND s.website_id = $1 AND NOT s.deleted
      WHERE a.entity = $2 AND NOT a.deleted AND ($3::bigint IS NULL OR a.id = $3) AND ($4::bigint IS NULL OR sa.survey_id = $4)
      GROUP BY a.id ORDER BY a.id`,
    [websiteId, entity, filter.id ?? null, filter.surveyId ?? null],
  );
  return rows.map(({ required, ...row }) => (filter.surveyId ? { ...row, required } : row));
}

/** Location attributes attached to the website; `locationTypeId`: those for locations of that type (and of any type). */
export async function locationAttributes(db: Pool, websiteId: string, filter: { id?: string; locationTypeId?: string }): Promise<AttributeListing[]> {
  const { rows } = await db.query<AttributeListing>(
    `SELECT a.id::text, a.caption, a.data_type, a.multi_value, ${TERMS}, law.required, law.location_type_id::text
       FROM records.location_attribute_websites law
       JOIN records.attributes a ON a.id = law.attribute_id
      WHERE law.website_id = $1 AND a.entity = 'location' AND NOT a.deleted AND ($2::bigint IS NULL OR a.id = $2)
        AND ($3::bigint IS NULL OR law.location_type_id IS NULL OR law.location_type_id = $3)
      ORDER BY a.id`,
    [websiteId, filter.id ?? null, filter.locationTypeId ?? null],
  );
  return rows;
}
