import { z } from '@rex/config';

const id = z.number().int().positive();
const ROLES = { admin: 1, editor: 2, user: 3 } as const;
const SHARING_CODES = { reporting: 'R', verification: 'V', data_flow: 'D', moderation: 'M', peer_review: 'P', editing: 'E' } as const;

const sharing = z
  .string()
  .transform((value, ctx) => {
    const code = SHARING_CODES[value as keyof typeof SHARING_CODES] ?? value.toUpperCase();
    if (!Object.values(SHARING_CODES).includes(code as 'R')) {
      ctx.addIssue({ code: 'custom', message: `unknown sharing ${value}; one of ${Object.keys(SHARING_CODES).join(', ')} or R, V, D, M, P, E` });
      return z.NEVER;
    }
    return code;
  });

export const Fixtures = z
  .object({
    websites: z
      .array(
        z
          .object({
            id,
            title: z.string().min(1),
            url: z.string().min(1),
            password: z.string().min(1),
            public_key: z.string().nullable().optional(),
            jwks_url: z.string().url().nullable().optional(),
            allow_anon_jwt_post: z.boolean().default(false),
            jwt_require_exp: z.boolean().default(false),
            jwt_max_age_s: z.number().int().positive().nullable().default(null),
            jwt_audience: z.string().min(1).nullable().default(null),
            staging_urls: z.array(z.string()).default([]),
          })
          .strict(),
      )
      .default([]),
    users: z
      .array(
        z
          .object({
            id,
            username: z.string().min(1),
            email: z.string().optional(),
            websites: z
              .array(z.object({ website_id: id, role: z.enum(['admin', 'editor', 'user']).transform((r) => ROLES[r]), banned: z.boolean().default(false) }).strict())
              .default([]),
          })
          .strict(),
      )
      .default([]),
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
    clients: z
      .array(
        z
          .object({
            id,
            username: z.string().min(1),
            title: z.string().optional(),
            website_id: id.optional(),
            secret: z.string().min(1),
            public_key: z.string().nullable().optional(),
            jwks_url: z.string().url().nullable().optional(),
            connections: z
              .array(
                z
                  .object({
                    proj_id: z.string().min(1),
                    website_id: id,
                    title: z.string().min(1),
                    sharing: sharing.default('R'),
                    allow_reports: z.boolean().default(true),
                    limit_to_reports: z.array(z.string()).optional(),
                    allow_data_resources: z.boolean().default(true),
                    limit_to_data_resources: z.array(z.string()).optional(),
                    allow_confidential: z.boolean().default(false),
                    allow_sensitive: z.boolean().default(true),
                    allow_unreleased: z.boolean().default(false),
                    full_precision_sensitive_records: z.boolean().default(false),
                    search_index: z.array(z.string()).default([]),
                    allow_change_feed: z.boolean().default(false),
                  })
                  .strict(),
              )
              .default([]),
          })
          .strict(),
      )
      .default([]),
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
    website_sharing: z
      .array(
        z
          .object({
            from_website_id: id,
            to_website_id: id,
            tasks: z.array(sharing).min(1),
          })
          .strict(),
      )
      .default([]),
    occurrence_comments: z
      .array(
        z
          .object({ occurrence_id: id, comment: z.string().min(1), person_name: z.string().optional(), created_by_id: id.default(1) })
          .strict(),
      )
      .default([]),
  })
  .strict();

export type Fixtures = z.infer<typeof Fixtures>;

export class FixturesError extends Error {}

/** Validates a fixtures document; every problem names its entry, e.g. `users[1].websites[0].role`. */
export function parseFixtures(raw: unknown): Fixtures {
  const result = Fixtures.safeParse(raw);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const path = issue.path.reduce<string>(
      (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
      '',
    );
    const message = issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}` : issue.message;
    return `  ${path || '(document)'}: ${message}`;
  });
  throw new FixturesError(`the fixtures file is not valid:\n${lines.join('\n')}`);
}
