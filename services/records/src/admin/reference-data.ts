import { updateWhere, type Pool } from '@rex/db';

// The reference data an operator keeps in the records schema (the admin tool's commands):
// recording groups, sample methods and licences. Only reads and writes; the tool parses and reports.

type Row = Record<string, unknown>;

export const groups = {
  /** Those of `websiteId` when given, else all. */
  list: async (db: Pool, websiteId: unknown): Promise<Row[]> =>
    (await db.query('SELECT id, website_id, title, code, description, deleted AS disabled FROM records.groups WHERE $1::bigint IS NULL OR website_id = $1 ORDER BY id', [websiteId ?? null]))
      .rows,

  async add(db: Pool, group: { websiteId: unknown; title: string; code: string | null; description: string | null }): Promise<string> {
    const { rows } = await db.query<{ id: string }>('INSERT INTO records.groups (website_id, title, code, description) VALUES ($1, $2, $3, $4) RETURNING id', [
      group.websiteId,
      group.title,
      group.code,
      group.description,
    ]);
    return rows[0].id;
  },

  /** Changes (undefined columns kept); false when there is no such group. */
  update: (db: Pool, id: unknown, changes: Record<string, unknown>): Promise<boolean> => updateWhere(db, 'records.groups', { id }, { ...changes, updated_on: new Date() }),
};

export const sampleMethods = {
  list: async (db: Pool): Promise<Row[]> => (await db.query("SELECT id, term FROM records.attribute_terms WHERE termlist = 'sample_methods' ORDER BY id")).rows,

  async add(db: Pool, term: string): Promise<string> {
    const { rows } = await db.query<{ id: string }>("INSERT INTO records.attribute_terms (termlist, term) VALUES ('sample_methods', $1) RETURNING id", [term]);
    return rows[0].id;
  },
};

export const licences = {
  list: async (db: Pool): Promise<Row[]> => (await db.query('SELECT id, code, title, version, url_readable, deleted AS disabled FROM records.licences ORDER BY id')).rows,

  async add(db: Pool, licence: { code: string; title: string; url: string | null; version: string | null }): Promise<string> {
    const { rows } = await db.query<{ id: string }>('INSERT INTO records.licences (code, title, url_readable, version) VALUES ($1, $2, $3, $4) RETURNING id', [
      licence.code,
      licence.title,
      licence.url,
      licence.version,
    ]);
    return rows[0].id;
  },
};
