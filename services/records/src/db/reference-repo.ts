import { TtlCache } from '@rex/cache';
import type { Pool } from '@rex/db';
import type { AttributeDefinition, RecordEntity } from '../domain/attributes.ts';
import type { LocationAttribute } from '../domain/locations.ts';
import type { SurveyReference } from '../domain/samples.ts';

type SurveyAttributeRow = {
  id: string;
  website_id: string;
  attribute_id: string | null;
  entity: RecordEntity | null;
  caption: string | null;
  data_type: AttributeDefinition['dataType'] | null;
  multi_value: boolean | null;
  required: boolean | null;
  terms: Record<string, string> | null;
};

/** The website's surveys among `ids`, with the sample and occurrence attributes linked to each. */
export async function loadSurveys(db: Pool, websiteId: string, ids: string[]): Promise<Map<string, SurveyReference>> {
  const surveys = new Map<string, SurveyReference>();
  if (!ids.length) return surveys;
  const { rows } = await db.query<SurveyAttributeRow>(
    `SELECT s.id, s.website_id, a.id AS attribute_id, a.entity, a.caption, a.data_type, a.multi_value, sa.required,
            (SELECT json_object_agg(t.id, t.term) FROM records.attribute_terms t WHERE t.attribute_id = a.id) AS terms
       FROM records.surveys s
       LEFT JOIN records.survey_attributes sa ON sa.survey_id = s.id
       LEFT JOIN records.attributes a ON a.id = sa.attribute_id AND NOT a.deleted
      WHERE s.id = ANY($1::bigint[]) AND s.website_id = $2 AND NOT s.deleted`,
    [ids, websiteId],
  );
  for (const row of rows) {
    let survey = surveys.get(row.id);
    if (!survey) {
      survey = { id: row.id, websiteId: row.website_id, attributes: { sample: new Map(), occurrence: new Map() } };
      surveys.set(row.id, survey);
    }
    if (row.attribute_id === null || (row.entity !== 'sample' && row.entity !== 'occurrence')) continue;
    survey.attributes[row.entity].set(row.attribute_id, {
      id: row.attribute_id,
      entity: row.entity,
      caption: row.caption ?? '',
      dataType: row.data_type!,
      multiValue: row.multi_value ?? false,
      required: row.required ?? false,
      terms: new Map(Object.entries(row.terms ?? {})),
    });
  }
  return surveys;
}

type LocationAttributeRow = {
  attribute_id: string;
  caption: string;
  data_type: AttributeDefinition['dataType'];
  multi_value: boolean;
  required: boolean;
  location_type_id: string | null;
  terms: Record<string, string> | null;
};

/** The location attributes attached to the website. */
export async function loadLocationAttributes(db: Pool, websiteId: string): Promise<LocationAttribute[]> {
  const { rows } = await db.query<LocationAttributeRow>(
    `SELECT a.id AS attribute_id, a.caption, a.data_type, a.multi_value, law.required, law.location_type_id::text AS location_type_id,
            (SELECT json_object_agg(t.id, t.term) FROM records.attribute_terms t WHERE t.attribute_id = a.id) AS terms
       FROM records.location_attribute_websites law
       JOIN records.attributes a ON a.id = law.attribute_id AND a.entity = 'location' AND NOT a.deleted
      WHERE law.website_id = $1
      ORDER BY a.id`,
    [websiteId],
  );
  return rows.map((row) => ({
    id: row.attribute_id,
    entity: 'location',
    caption: row.caption,
    dataType: row.data_type,
    multiValue: row.multi_value,
    required: row.required,
    terms: new Map(Object.entries(row.terms ?? {})),
    locationTypeId: row.location_type_id,
  }));
}

/** The ids among `ids` that name a taxon. */
export async function knownTaxa(db: Pool, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const { rows } = await db.query<{ id: string }>('SELECT id FROM records.taxa WHERE id = ANY($1::bigint[]) AND NOT deleted', [ids]);
  return new Set(rows.map((row) => row.id));
}

/** What a record's licence_id, group_id and sample_method_id name. */
export type NamedKind = 'licence' | 'group' | 'sample_method';
export type NamedIds = Record<NamedKind, Set<string>>;

/** The ids among those asked for that exist: live licences, the website's live groups, terms of the sample-methods list. */
export async function knownNamedIds(db: Pool, websiteId: string, asked: Record<NamedKind, string[]>): Promise<NamedIds> {
  const known: NamedIds = { licence: new Set(), group: new Set(), sample_method: new Set() };
  if (!asked.licence.length && !asked.group.length && !asked.sample_method.length) return known;
  const { rows } = await db.query<{ kind: NamedKind; id: string }>(
    `SELECT 'licence' AS kind, id::text AS id FROM records.licences WHERE id = ANY($1::bigint[]) AND NOT deleted
     UNION ALL
     SELECT 'group', id::text FROM records.groups WHERE id = ANY($2::bigint[]) AND website_id = $4 AND NOT deleted
     UNION ALL
     SELECT 'sample_method', id::text FROM records.attribute_terms WHERE id = ANY($3::bigint[]) AND termlist = 'sample_methods'`,
    [asked.licence, asked.group, asked.sample_method, websiteId],
  );
  for (const row of rows) known[row.kind].add(row.id);
  return known;
}

/**
 * Surveys (with their attributes), websites' location attributes, taxa,
 * licences, groups and sample methods change rarely, so writes read them
 * through a short-lived cache; a change made with `pnpm admin` is seen within
 * `ttlMs`.
 */
export function createReferenceData(db: Pool, ttlMs: number) {
  const surveyCache = new TtlCache<SurveyReference | null>(ttlMs, 10_000);
  const taxonCache = new TtlCache<boolean>(ttlMs, 200_000);
  const locationAttributeCache = new TtlCache<LocationAttribute[]>(ttlMs, 10_000);
  const namedCache = new TtlCache<boolean>(ttlMs, 10_000);
  return {
    /** Drops a survey this process changed, so its next read sees the change. */
    forgetSurvey(websiteId: string, id: string): void {
      surveyCache.delete(`${websiteId}:${id}`);
    },
    async surveys(websiteId: string, ids: string[]): Promise<Map<string, SurveyReference>> {
      const found = new Map<string, SurveyReference>();
      const missing: string[] = [];
      for (const id of ids) {
        const cached = surveyCache.get(`${websiteId}:${id}`);
        if (cached === undefined) missing.push(id);
        else if (cached) found.set(id, cached);
      }
      if (missing.length) {
        const loaded = await loadSurveys(db, websiteId, missing);
        for (const id of missing) {
          const survey = loaded.get(id) ?? null;
          surveyCache.set(`${websiteId}:${id}`, survey);
          if (survey) found.set(id, survey);
        }
      }
      return found;
    },
    /** The location attributes attached to the website (see loadLocationAttributes). */
    async locationAttributes(websiteId: string): Promise<LocationAttribute[]> {
      return locationAttributeCache.getOrLoad(websiteId, () => loadLocationAttributes(db, websiteId));
    },
    async taxa(ids: string[]): Promise<Set<string>> {
      const known = new Set<string>();
      const missing: string[] = [];
      for (const id of ids) {
        const cached = taxonCache.get(id);
        if (cached === undefined) missing.push(id);
        else if (cached) known.add(id);
      }
      if (missing.length) {
        const loaded = await knownTaxa(db, missing);
        for (const id of missing) {
          taxonCache.set(id, loaded.has(id));
          if (loaded.has(id)) known.add(id);
        }
      }
      return known;
    },
    /** The ids among those asked for that exist (see knownNamedIds), in one query for whatever is not cached. */
    async named(websiteId: string, asked: Record<NamedKind, string[]>): Promise<NamedIds> {
      const keyOf = (kind: NamedKind, id: string) => (kind === 'group' ? `group:${websiteId}:${id}` : `${kind}:${id}`);
      const known: NamedIds = { licence: new Set(), group: new Set(), sample_method: new Set() };
      const missing: Record<NamedKind, string[]> = { licence: [], group: [], sample_method: [] };
      for (const kind of Object.keys(asked) as NamedKind[]) {
        for (const id of asked[kind]) {
          const cached = namedCache.get(keyOf(kind, id));
          if (cached === undefined) missing[kind].push(id);
          else if (cached) known[kind].add(id);
        }
      }
      const loaded = await knownNamedIds(db, websiteId, missing);
      for (const kind of Object.keys(missing) as NamedKind[]) {
        for (const id of missing[kind]) {
          namedCache.set(keyOf(kind, id), loaded[kind].has(id));
          if (loaded[kind].has(id)) known[kind].add(id);
        }
      }
      return known;
    },
  };
}

export type ReferenceData = ReturnType<typeof createReferenceData>;
