import { z } from '@rex/config';
import { bumpIdSequences, FixtureError, forEntry, upsertById, type PoolClient } from '@rex/db';
import { srefToGeometry } from '@rex/spatial-ref';
import { insertOutboxRows } from '../db/outbox-repo.ts';

// The records schema's part of a fixtures file (the admin tool's import): surveys, taxa, custom
// attributes, licences, groups, sample methods, locations and occurrence comments; checked here and
// written here, by the schema's owner, with the outbox events the read model needs.

const id = z.number().int().positive();

/** The records entries of a fixtures file, as zod object fields (the admin tool joins them with the auth ones). */
export const RECORDS_FIXTURES = {
  surveys: z.array(z.object({ id, website_id: id, title: z.string().min(1), description: z.string().optional() }).strict()).default([]),
  taxa: z
    .array(
      z
        .object({
          id,
          taxon: z.string().min(1),
          preferred_taxon: z.string().optional(),
          default_common_name: z.string().optional(),
          taxon_group: z.string().optional(),
          external_key: z.string().optional(),
        })
        .strict(),
    )
    .default([]),
  attributes: z
    .array(
      z
        .object({
          id,
          entity: z.enum(['sample', 'occurrence', 'location']),
          caption: z.string().min(1),
          data_type: z.enum(['T', 'I', 'F', 'D', 'V', 'B', 'L']),
          multi_value: z.boolean().default(false),
          required: z.boolean().default(false),
          /** Sample and occurrence attributes: the surveys they are attached to. */
          survey_ids: z.array(id).default([]),
          /** Location attributes: the websites they are attached to, optionally only for one location type. */
          website_ids: z.array(id).default([]),
          location_type_id: id.optional(),
          terms: z.array(z.object({ id, term: z.string().min(1) }).strict()).default([]),
        })
        .strict()
        .superRefine((attribute, ctx) => {
          const misplaced = (key: string, message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
          if (attribute.entity === 'location') {
            if (attribute.survey_ids.length) misplaced('survey_ids', 'location attributes are attached to websites (website_ids), not surveys');
          } else {
            if (attribute.website_ids.length) misplaced('website_ids', `${attribute.entity} attributes are attached to surveys (survey_ids), not websites`);
            if (attribute.location_type_id !== undefined) misplaced('location_type_id', 'only location attributes are restricted to a location type');
          }
        }),
    )
    .default([]),
  /** Licences beyond the four standard ones every database starts with (ids 1-4: CC-BY, CC-BY-NC, CC0, OGL). */
  licences: z
    .array(z.object({ id, code: z.string().min(1), title: z.string().min(1), url_readable: z.string().url().optional(), version: z.string().optional() }).strict())
    .default([]),
  /** Recording groups; a sample may name only a group of its own website. */
  groups: z
    .array(z.object({ id, website_id: id, title: z.string().min(1), code: z.string().optional(), description: z.string().optional() }).strict())
    .default([]),
  /** Terms of the sample-methods list; their ids share one series with the attributes' terms. */
  sample_methods: z.array(z.object({ id, term: z.string().min(1) }).strict()).default([]),
  locations: z
    .array(
      z
        .object({
          id,
          name: z.string().min(1),
          website_id: id,
          public: z.boolean().default(false),
          location_type_id: id.optional(),
          code: z.string().optional(),
          created_by_id: id.default(1),
          centroid_sref: z.string().optional(),
          centroid_sref_system: z.string().optional(),
        })
        .strict(),
    )
    .default([]),
  occurrence_comments: z
    .array(z.object({ occurrence_id: id, comment: z.string().min(1), person_name: z.string().optional(), created_by_id: id.default(1) }).strict())
    .default([]),
};

const RecordsFixtures = z.object(RECORDS_FIXTURES);
export type RecordsFixtures = z.infer<typeof RecordsFixtures>;

/** Attribute terms and sample methods share one series of ids: a term given for one must not be the other's. */
async function checkTermOwner(client: PoolClient, termId: number, owner: { attributeId: number } | { termlist: string }, where: string): Promise<void> {
  const { rows } = await client.query<{ attribute_id: string | null; termlist: string | null }>('SELECT attribute_id, termlist FROM records.attribute_terms WHERE id = $1', [termId]);
  const stored = rows[0];
  if (!stored) return;
  if ('attributeId' in owner && stored.termlist !== null) throw new FixtureError(`${where}: term ${termId} is a term of the ${stored.termlist} list; give the attribute's terms other ids`);
  if ('termlist' in owner && stored.attribute_id !== null) throw new FixtureError(`${where}: term ${termId} is a term of attribute ${stored.attribute_id}; give the ${owner.termlist} other ids`);
}

/** A custom attribute, its terms and where it is attached: surveys (sample and occurrence attributes) or websites (location attributes). */
async function importAttribute(client: PoolClient, a: RecordsFixtures['attributes'][number], where: string, websiteIds: Set<number>): Promise<void> {
  await upsertById(client, 'records.attributes', { id: a.id, entity: a.entity, caption: a.caption, data_type: a.data_type, multi_value: a.multi_value, deleted: false }, where);
  for (const [j, term] of a.terms.entries()) {
    await checkTermOwner(client, term.id, { attributeId: a.id }, `${where}.terms[${j}]`);
    await upsertById(client, 'records.attribute_terms', { id: term.id, attribute_id: a.id, term: term.term }, `${where}.terms[${j}]`);
  }
  await client.query('DELETE FROM records.survey_attributes WHERE attribute_id = $1', [a.id]);
  for (const [j, surveyId] of a.survey_ids.entries()) {
    await client.query('INSERT INTO records.survey_attributes (survey_id, attribute_id, required) VALUES ($1, $2, $3)', [surveyId, a.id, a.required]).catch(() => {
      throw new FixtureError(`${where}.survey_ids[${j}]: survey ${surveyId} does not exist`);
    });
  }
  await client.query('DELETE FROM records.location_attribute_websites WHERE attribute_id = $1', [a.id]);
  for (const [j, websiteId] of a.website_ids.entries()) {
    if (!websiteIds.has(websiteId)) throw new FixtureError(`${where}.website_ids[${j}]: website ${websiteId} does not exist`);
    await forEntry(`${where}.website_ids[${j}]`, () =>
      client.query('INSERT INTO records.location_attribute_websites (website_id, attribute_id, required, location_type_id) VALUES ($1, $2, $3, $4)', [
        websiteId,
        a.id,
        a.required,
        a.location_type_id ?? null,
      ]),
    );
  }
}

/** A location, with its centroid made from its spatial reference, and the event that puts it in the read model. */
async function importLocation(client: PoolClient, l: RecordsFixtures['locations'][number], where: string): Promise<void> {
  let geometry: Buffer | null = null;
  let centroid: { lat: number; lon: number } | null = null;
  if (l.centroid_sref && l.centroid_sref_system) {
    try {
      const computed = srefToGeometry(l.centroid_sref, l.centroid_sref_system);
      geometry = Buffer.from(computed.wkbHex, 'hex');
      centroid = computed.centroid;
    } catch (error) {
      throw new FixtureError(`${where}: ${(error as Error).message}`);
    }
  }
  await upsertById(
    client,
    'records.locations',
    {
      id: l.id,
      name: l.name,
      website_id: l.website_id,
      public: l.public,
      location_type_id: l.location_type_id ?? null,
      code: l.code ?? null,
      centroid_sref: l.centroid_sref ?? null,
      centroid_sref_system: l.centroid_sref_system ?? null,
      centroid_geom: geometry,
      centroid_lat: centroid?.lat ?? null,
      centroid_lon: centroid?.lon ?? null,
      created_by_id: l.created_by_id,
      updated_by_id: l.created_by_id,
      deleted: false,
    },
    where,
  );
  await client.query(insertOutboxRows("SELECT 'location', $1::bigint, 'update', $2::bigint, NULL::bigint, $3::bigint"), [l.id, l.website_id, l.created_by_id]);
}

/**
 * Creates or updates the records entries, keeping their ids, in the caller's transaction;
 * `websiteIds` are the websites that exist, `count` is told of each entry written. Throws
 * FixtureError naming the first entry refused.
 */
export async function importRecordsFixtures(client: PoolClient, fixtures: RecordsFixtures, websiteIds: Set<number>, count: (kind: string) => void): Promise<void> {
  const website = (websiteId: number, where: string) => {
    if (!websiteIds.has(websiteId)) throw new FixtureError(`${where}: website ${websiteId} does not exist`);
  };
  for (const [i, s] of fixtures.surveys.entries()) {
    website(s.website_id, `surveys[${i}]`);
    await upsertById(client, 'records.surveys', { id: s.id, website_id: s.website_id, title: s.title, description: s.description ?? null, deleted: false, updated_on: new Date() }, `surveys[${i}]`);
    count('surveys');
  }
  for (const [i, t] of fixtures.taxa.entries()) {
    const row = { id: t.id, taxon: t.taxon, preferred_taxon: t.preferred_taxon ?? t.taxon, default_common_name: t.default_common_name ?? null, taxon_group: t.taxon_group ?? null, external_key: t.external_key ?? null, deleted: false };
    await upsertById(client, 'records.taxa', row, `taxa[${i}]`);
    count('taxa');
  }
  for (const [i, a] of fixtures.attributes.entries()) {
    await importAttribute(client, a, `attributes[${i}]`, websiteIds);
    count('attributes');
  }
  for (const [i, l] of fixtures.licences.entries()) {
    await upsertById(client, 'records.licences', { id: l.id, code: l.code, title: l.title, url_readable: l.url_readable ?? null, version: l.version ?? null, deleted: false }, `licences[${i}]`);
    count('licences');
  }
  for (const [i, g] of fixtures.groups.entries()) {
    website(g.website_id, `groups[${i}]`);
    await upsertById(
      client,
      'records.groups',
      { id: g.id, website_id: g.website_id, title: g.title, code: g.code ?? null, description: g.description ?? null, deleted: false, updated_on: new Date() },
      `groups[${i}]`,
    );
    count('groups');
  }
  for (const [i, m] of fixtures.sample_methods.entries()) {
    await checkTermOwner(client, m.id, { termlist: 'sample_methods' }, `sample_methods[${i}]`);
    await upsertById(client, 'records.attribute_terms', { id: m.id, termlist: 'sample_methods', term: m.term }, `sample_methods[${i}]`);
    count('sample_methods');
  }
  for (const [i, l] of fixtures.locations.entries()) {
    await importLocation(client, l, `locations[${i}]`);
    count('locations');
  }
  for (const [i, c] of fixtures.occurrence_comments.entries()) {
    await forEntry(`occurrence_comments[${i}]`, () =>
      client.query(
        `WITH added AS (
           INSERT INTO records.occurrence_comments (occurrence_id, comment, person_name, created_by_id, updated_by_id)
           SELECT $1, $2, $3, $4, $4 WHERE NOT EXISTS (
             SELECT 1 FROM records.occurrence_comments WHERE occurrence_id = $1 AND comment = $2 AND NOT deleted)
           RETURNING id, occurrence_id)
         ${insertOutboxRows("SELECT 'occurrence_comment', a.id, 'create', o.website_id, NULL::bigint, $4::bigint FROM added a JOIN records.occurrences o ON o.id = a.occurrence_id")}`,
        [c.occurrence_id, c.comment, c.person_name ?? null, c.created_by_id],
      ),
    );
    count('occurrence_comments');
  }
  await bumpIdSequences(client, ['records.surveys', 'records.taxa', 'records.attributes', 'records.attribute_terms', 'records.licences', 'records.groups', 'records.locations']);
}
