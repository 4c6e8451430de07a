import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, inject } from 'vitest';
import { DEMO, migrateAll, seedDemo } from '@rex/admin';
import { createPool } from '@rex/db';
import { api, dbQuery, freshDatabase, sampleSubmission, token } from './support/world.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'rex-admin-'));

/** `pnpm admin import --file <file>` as an operator runs it (through the root command). */
function adminImport(document: unknown): { status: number; output: string } {
  const file = join(dir, `fixtures-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof document === 'string' ? document : JSON.stringify(document));
  const result = spawnSync(process.execPath, ['scripts/bootstrap.mjs', 'admin', 'import', '--file', file], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: inject('databaseUrl') },
    encoding: 'utf8',
  });
  return { status: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}

const FIXTURES = {
  websites: [{ id: 40, title: 'Imported', url: 'https://imported.example.org', password: 'imported-secret' }],
  users: [{ id: 41, username: 'imported-user', email: 'i@example.org', websites: [{ website_id: 40, role: 'editor' }] }],
  surveys: [{ id: 42, website_id: 40, title: 'Imported survey' }],
  taxa: [{ id: 43, taxon: 'Bombus terrestris', preferred_taxon: 'Bombus terrestris', taxon_group: 'insects', external_key: 'NBNSYS0000000001' }],
  attributes: [{ id: 44, entity: 'occurrence', caption: 'Abundance', data_type: 'I', survey_ids: [42] }],
  clients: [
    {
      id: 45,
      username: 'imported-client',
      secret: 'client-secret',
      connections: [{ proj_id: 'P45', website_id: 40, title: 'Project', sharing: 'verification', allow_confidential: true, search_index: ['es'] }],
    },
  ],
  locations: [{ id: 46, name: 'Meadow', website_id: 40, public: true, centroid_sref: 'SU1234', centroid_sref_system: 'OSGB' }],
};

describe('pnpm admin import', () => {
  it('when a fixtures file is imported twice, then the records exist once with the given ids', async () => {
    for (let run = 0; run < 2; run++) {
      const result = adminImport(FIXTURES);
      expect(result.status, result.output).toBe(0);
      expect(result.output).toMatch(/imported 1 websites, 1 users, 1 clients, 1 surveys, 1 taxa, 1 attributes, 1 locations/);
    }
    expect(await dbQuery('SELECT id, title FROM auth.websites WHERE id = 40')).toEqual([{ id: '40', title: 'Imported' }]);
    expect(await dbQuery('SELECT site_role_id FROM auth.users_websites WHERE user_id = 41')).toEqual([{ site_role_id: 2 }]);
    const [client] = await dbQuery<{ secret_hash: string }>('SELECT secret_hash FROM auth.clients WHERE id = 45');
    expect(client.secret_hash).toMatch(/^scrypt\$/);
    expect(client.secret_hash).not.toContain('client-secret');
    expect(await dbQuery("SELECT sharing, allow_confidential FROM auth.client_connections WHERE proj_id = 'P45'")).toEqual([
      { sharing: 'V', allow_confidential: true },
    ]);
    expect(await dbQuery('SELECT survey_id, required FROM records.survey_attributes WHERE attribute_id = 44')).toEqual([{ survey_id: '42', required: false }]);
  });

  it('when an import changes a record, then the change is applied in place', async () => {
    const changed = { ...FIXTURES, surveys: [{ id: 42, website_id: 40, title: 'Renamed survey' }] };
    expect(adminImport(changed).status).toBe(0);
    expect(await dbQuery('SELECT title FROM records.surveys WHERE id = 42')).toEqual([{ title: 'Renamed survey' }]);
  });

  it('when an entry is bad, then the command names it and nothing at all is imported', async () => {
    const result = adminImport({
      websites: [{ id: 50, title: 'Half', url: 'https://half.example.org', password: 'p' }],
      surveys: [{ id: 51, website_id: 999, title: 'Orphan survey' }],
    });
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/surveys\[0\]: website 999 does not exist/);
    expect(result.output).toMatch(/nothing was changed/);
    expect(await dbQuery('SELECT id FROM auth.websites WHERE id = 50')).toEqual([]);
  });

  it('when a key is unknown, then the command names it and changes nothing', async () => {
    const result = adminImport({ websites: [{ id: 52, title: 'x', url: 'u', password: 'p', colour: 'red' }] });
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/websites\[0\]: unknown key\(s\) colour/);
    expect(await dbQuery('SELECT id FROM auth.websites WHERE id = 52')).toEqual([]);
  });

  it('when the file is not JSON, then the command says so', () => {
    const result = adminImport('{ not json');
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/cannot read .*fixtures-/);
  });

  it('when a survey is imported for another website, then the demo website cannot post to it', async () => {
    const response = await api('POST', '/samples', { token: await token(), body: sampleSubmission({ survey_id: 42 }) });
    // The demo website does not own survey 42.
    expect(response.status).toBe(400);
    expect(response.body.message).toHaveProperty('sample:survey_id');
  });
});

describe('the demo data', () => {
  it('when the suite starts on a database that already holds data, then the demo data is not seeded over it', async () => {
    const fresh = await freshDatabase('rex_demo_seed');
    const pool = createPool(fresh.url, { max: 1 });
    const dataDir = mkdtempSync(join(tmpdir(), 'rex-demo-'));
    try {
      await migrateAll(pool);
      expect((await seedDemo(pool, dataDir)).seeded).toBe(true);
      // An operator's own settings for website 1 and user 2.
      await pool.query(`UPDATE auth.websites SET url = 'https://recording.example.org', password = 'operator-secret', public_key = NULL WHERE id = $1`, [DEMO.websiteId]);
      await pool.query(`UPDATE auth.users SET username = 'operator' WHERE id = $1`, [DEMO.userId]);
      expect((await seedDemo(pool, dataDir)).seeded).toBe(false);
      const { rows } = await pool.query('SELECT w.url, w.password, w.public_key, u.username FROM auth.websites w, auth.users u WHERE w.id = $1 AND u.id = $2', [DEMO.websiteId, DEMO.userId]);
      expect(rows[0]).toEqual({ url: 'https://recording.example.org', password: 'operator-secret', public_key: null, username: 'operator' });
    } finally {
      await pool.end();
      await fresh.drop();
    }
  });
});

