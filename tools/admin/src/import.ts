import { migrate, withTransaction, type Pool, type PoolClient } from '@rex/db';
import { SCHEMA as AUTH_SCHEMA, migrations as authMigrations } from '@rex/gateway/migrations';
import { hashSecret, verifySecret } from '@rex/gateway/secrets';
import { SCHEMA as RECORDS_SCHEMA, migrations as recordsMigrations } from '@rex/records/migrations';
import { srefToGeometry } from '@rex/spatial-ref';
import type { Fixtures } from './fixtures.ts';

export class ImportError extends Error {}

/** Brings the auth and records schemas up to date, so an import works before the suite first starts. */
export async function migrateAll(pool: Pool): Promise<void> {
  await migrate(pool, AUTH_SCHEMA, authMigrations());
  await migrate(pool, RECORDS_SCHEMA, recordsMigrations());
}

type Counts = Record<string, number>;

async function upsert(client: PoolClient, table: string, row: Record<string, unknown>, where: string): Promise<void> {
  const names = Object.keys(row);
  const updates = names.filter((name) => name !== 'id').map((name) => `${name} = EXCLUDED.${name}`);
  try {
    await client.query(
      `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`,
      names.map((name) => row[name]),
    );
  } catch (error) {
    throw new ImportError(`${where}: ${(error as Error & { detail?: string }).detail ?? (error as Error).message}`);
  }
}

/** Attribute terms and sample methods share one series of ids: a term given for one must not be the other's. */
async function checkTermOwner(client: PoolClient, id: number, owner: { attributeId: number } | { termlist: string }, where: string): Promise<void> {
  const { rows } = await client.query<{ attribute_id: string | null; termlist: string | null }>('SELECT attribute_id, termlist FROM records.attribute_terms WHERE id = $1', [id]);
  const stored = rows[0];
  if (!stored) return;
  if ('attributeId' in owner && stored.termlist !== null) throw new ImportError(`${where}: term ${id} is a term of the ${stored.termlist} list; give the attribute's terms other ids`);
  if ('termlist' in owner && stored.attribute_id !== null) throw new ImportError(`${where}: term ${id} is a term of attribute ${stored.attribute_id}; give the ${owner.termlist} other ids`);
}

/** Moves each id sequence past the ids given in the file, so later inserts do not collide. */
async function bumpSequences(client: PoolClient): Promise<void> {
  for (const table of [
    'auth.websites',
    'auth.users',
    'auth.clients',
    'records.surveys',
    'records.taxa',
    'records.attributes',
    'records.attribute_terms',
    'records.licences',
    'records.groups',
    'records.locations',
  ]) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT COALESCE(max(id), 0) FROM ${table}), 1))`,
    );
  }
}

/**
 * Creates or updates everything in the fixtures, keeping the given ids, in
 * one transaction: a bad entry leaves the database as it was.
 */
export async function importFixtures(pool: Pool, fixtures: Fixtures): Promise<Counts> {
  await migrateAll(pool);
  return withTransaction(pool, async (client) => {
    const counts: Counts = {};
    const count = (key: string) => (counts[key] = (counts[key] ?? 0) + 1);

    for (const [i, w] of fixtures.websites.entries()) {
      await upsert(
        client,
        'auth.websites',
        {
          id: w.id,
          title: w.title,
          url: w.url,
          staging_urls: w.staging_urls,
          password: w.password,
          public_key: w.public_key ?? null,
          jwks_url: w.jwks_url ?? null,
          allow_anon_jwt_post: w.allow_anon_jwt_post,
          jwt_require_exp: w.jwt_require_exp,
          jwt_max_age_s: w.jwt_max_age_s,
          jwt_audience: w.jwt_audience,
          deleted: false,
          updated_on: new Date(),
        },
        `websites[${i}]`,
      );
      count('websites');
    }
    for (const [i, u] of fixtures.users.entries()) {
      await upsert(client, 'auth.users', { id: u.id, username: u.username, email: u.email ?? null, deleted: false, updated_on: new Date() }, `users[${i}]`);
      await client.query('DELETE FROM auth.users_websites WHERE user_id = $1', [u.id]);
      for (const [j, role] of u.websites.entries()) {
        try {
          await client.query('INSERT INTO auth.users_websites (user_id, website_id, site_role_id, banned) VALUES ($1, $2, $3, $4)', [
            u.id,
            role.website_id,
            role.role,
            role.banned,
          ]);
        } catch (error) {
          throw new ImportError(`users[${i}].websites[${j}]: ${(error as Error & { detail?: string }).detail ?? (error as Error).message}`);
        }
      }
      count('users');
    }
    for (const [i, c] of fixtures.clients.entries()) {
      const { rows } = await client.query<{ secret_hash: string }>('SELECT secret_hash FROM auth.clients WHERE id = $1', [c.id]);
      const secretHash = rows[0] && (await verifySecret(c.secret, rows[0].secret_hash)) ? rows[0].secret_hash : hashSecret(c.secret);
      await upsert(
        client,
        'auth.clients',
        { id: c.id, username: c.username, title: c.title ?? c.username, website_id: c.website_id ?? null, secret_hash: secretHash, public_key: c.public_key ?? null, jwks_url: c.jwks_url ?? null, deleted: false },
        `clients[${i}]`,
      );
      for (const [j, conn] of c.connections.entries()) {
        try {
          await client.query(
            `INSERT INTO auth.client_connections (client_id, proj_id, website_id, title, sharing, allow_reports, limit_to_reports,
               allow_data_resources, limit_to_data_resources, allow_confidential, allow_sensitive, allow_unreleased,
               full_precision_sensitive_records, search_index, allow_change_feed, deleted)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, false)
             ON CONFLICT (client_id, proj_id) DO UPDATE SET website_id = EXCLUDED.website_id, title = EXCLUDED.title,
               sharing = EXCLUDED.sharing, allow_reports = EXCLUDED.allow_reports, limit_to_reports = EXCLUDED.limit_to_reports,
               allow_data_resources = EXCLUDED.allow_data_resources, limit_to_data_resources = EXCLUDED.limit_to_data_resources,
               allow_confidential = EXCLUDED.allow_confidential, allow_sensitive = EXCLUDED.allow_sensitive,
               allow_unreleased = EXCLUDED.allow_unreleased, full_precision_sensitive_records = EXCLUDED.full_precision_sensitive_records,
               search_index = EXCLUDED.search_index, allow_change_feed = EXCLUDED.allow_change_feed, deleted = false`,
            [
              c.id, conn.proj_id, conn.website_id, conn.title, conn.sharing, conn.allow_reports, conn.limit_to_reports ?? null,
              conn.allow_data_resources, conn.limit_to_data_resources ?? null, conn.allow_confidential, conn.allow_sensitive,
              conn.allow_unreleased, conn.full_precision_sensitive_records, conn.search_index, conn.allow_change_feed,
            ],
          );
        } catch (error) {
          throw new ImportError(`clients[${i}].connections[${j}]: ${(error as Error & { detail?: string }).detail ?? (error as Error).message}`);
        }
      }
      count('clients');
    }
    for (const [i, share] of fixtures.website_sharing.entries()) {
      try {
        await client.query(
          `INSERT INTO auth.website_sharing (from_website_id, to_website_id, tasks) VALUES ($1, $2, $3)
           ON CONFLICT (from_website_id, to_website_id) DO UPDATE SET tasks = EXCLUDED.tasks`,
          [share.from_website_id, share.to_website_id, share.tasks],
        );
      } catch (error) {
        throw new ImportError(`website_sharing[${i}]: ${(error as Error & { detail?: string }).detail ?? (error as Error).message}`);
      }
      count('website_sharing');
    }
    const websiteIds = new Set((await client.query<{ id: string }>('SELECT id FROM auth.websites WHERE NOT deleted')).rows.map((r) => Number(r.id)));
    for (const [i, s] of fixtures.surveys.entries()) {
      if (!websiteIds.has(s.website_id)) throw new ImportError(`surveys[${i}]: website ${s.website_id} does not exist`);
      await upsert(client, 'records.surveys', { id: s.id, website_id: s.website_id, title: s.title, description: s.description ?? null, deleted: false, updated_on: new Date() }, `surveys[${i}]`);
      count('surveys');
    }
    for (const [i, t] of fixtures.taxa.entries()) {
      await upsert(
        client,
        'records.taxa',
        {
          id: t.id,
          taxon: t.taxon,
          preferred_taxon: t.preferred_taxon ?? t.taxon,
          default_common_name: t.default_common_name ?? null,
          taxon_group: t.taxon_group ?? null,
          external_key: t.external_key ?? null,
          deleted: false,
        },
        `taxa[${i}]`,
      );
      count('taxa');
    }
    for (const [i, a] of fixtures.attributes.entries()) {
      await upsert(client, 'records.attributes', { id: a.id, entity: a.entity, caption: a.caption, data_type: a.data_type, multi_value: a.multi_value, deleted: false }, `attributes[${i}]`);
      for (const [j, term] of a.terms.entries()) {
        await checkTermOwner(client, term.id, { attributeId: a.id }, `attributes[${i}].terms[${j}]`);
        await upsert(client, 'records.attribute_terms', { id: term.id, attribute_id: a.id, term: term.term }, `attributes[${i}].terms[${j}]`);
      }
      await client.query('DELETE FROM records.survey_attributes WHERE attribute_id = $1', [a.id]);
      for (const [j, surveyId] of a.survey_ids.entries()) {
        try {
          await client.query('INSERT INTO records.survey_attributes (survey_id, attribute_id, required) VALUES ($1, $2, $3)', [surveyId, a.id, a.required]);
        } catch (error) {
          throw new ImportError(`attributes[${i}].survey_ids[${j}]: survey ${surveyId} does not exist`);
        }
      }
      await client.query('DELETE FROM records.location_attribute_websites WHERE attribute_id = $1', [a.id]);
      for (const [j, websiteId] of a.website_ids.entries()) {
        if (!websiteIds.has(websiteId)) throw new ImportError(`attributes[${i}].website_ids[${j}]: website ${websiteId} does not exist`);
        try {
          await client.query('INSERT INTO records.location_attribute_websites (website_id, attribute_id, required, location_type_id) VALUES ($1, $2, $3, $4)', [
            websiteId,
            a.id,
            a.required,
            a.location_type_id ?? null,
          ]);
        } catch (error) {
          throw new ImportError(`attributes[${i}].website_ids[${j}]: ${(error as Error & { detail?: string }).detail ?? (error as Error).message}`);
        }
      }
      count('attributes');
    }
    for (const [i, l] of fixtures.licences.entries()) {
      await upsert(
        client,
        'records.licences',
        { id: l.id, code: l.code, title: l.title, url_readable: l.url_readable ?? null, version: l.version ?? null, deleted: false },
        `licences[${i}]`,
      );
      count('licences');
    }
    for (const [i, g] of fixtures.groups.entries()) {
      if (!websiteIds.has(g.website_id)) throw new ImportError(`groups[${i}]: website ${g.website_id} does not exist`);
      await upsert(
        client,
        'records.groups',
        { id: g.id, website_id: g.website_id, title: g.title, code: g.code ?? null, description: g.description ?? null, deleted: false, updated_on: new Date() },
        `groups[${i}]`,
      );
      count('groups');
    }
    for (const [i, m] of fixtures.sample_methods.entries()) {
      await checkTermOwner(client, m.id, { termlist: 'sample_methods' }, `sample_methods[${i}]`);
      await upsert(client, 'records.attribute_terms', { id: m.id, termlist: 'sample_methods', term: m.term }, `sample_methods[${i}]`);
      count('sample_methods');
    }
    for (const [i, l] of fixtures.locations.entries()) {
      let geometry: Buffer | null = null;
      let centroid: { lat: number; lon: number } | null = null;
      if (l.centroid_sref && l.centroid_sref_system) {
        try {
          const computed = srefToGeometry(l.centroid_sref, l.centroid_sref_system);
          geometry = Buffer.from(computed.wkbHex, 'hex');
          centroid = computed.centroid;
        } catch (error) {
          throw new ImportError(`locations[${i}]: ${(error as Error).message}`);
        }
      }
      await upsert(
        client,
        'records.locations',
        {
          id: l.id, name: l.name, website_id: l.website_id, public: l.public, location_type_id: l.location_type_id ?? null, code: l.code ?? null, centroid_sref: l.centroid_sref ?? null,
          centroid_sref_system: l.centroid_sref_system ?? null, centroid_geom: geometry, centroid_lat: centroid?.lat ?? null,
          centroid_lon: centroid?.lon ?? null, created_by_id: l.created_by_id,
          updated_by_id: l.created_by_id, deleted: false,
        },
        `locations[${i}]`,
      );
      await client.query(
        "INSERT INTO records.outbox (entity, entity_id, operation, website_id, user_id) VALUES ('location', $1, 'update', $2, $3)",
        [l.id, l.website_id, l.created_by_id],
      );
      count('locations');
    }
    for (const [i, c] of fixtures.occurrence_comments.entries()) {
      try {
        await client.query(
          `WITH added AS (
             INSERT INTO records.occurrence_comments (occurrence_id, comment, person_name, created_by_id, updated_by_id)
             SELECT $1, $2, $3, $4, $4 WHERE NOT EXISTS (
               SELECT 1 FROM records.occurrence_comments WHERE occurrence_id = $1 AND comment = $2 AND NOT deleted)
             RETURNING id, occurrence_id)
           INSERT INTO records.outbox (entity, entity_id, operation, website_id, user_id)
           SELECT 'occurrence_comment', a.id, 'create', o.website_id, $4 FROM added a JOIN records.occurrences o ON o.id = a.occurrence_id`,
          [c.occurrence_id, c.comment, c.person_name ?? null, c.created_by_id],
        );
      } catch (error) {
        throw new ImportError(`occurrence_comments[${i}]: ${(error as Error & { detail?: string }).detail ?? (error as Error).message}`);
      }
      count('occurrence_comments');
    }
    await bumpSequences(client);
    return counts;
  });
}
