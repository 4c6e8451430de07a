import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { databaseSocket } from './database-socket.ts';

export type Migration = { version: string; sql: string };

/** Reads `NNNN_verb_object.sql` files from `dir`, in order. */
export function readMigrations(dir: string): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ version: file.replace(/\.sql$/, ''), sql: readFileSync(join(dir, file), 'utf8') }));
}

/**
 * The `migrate` command of a service that owns a schema: applies its pending
 * migrations to DATABASE_URL, says which, and exits (1 on failure). A cluster
 * runs it as a step before each rollout (the charts' hook Job); it needs no
 * other setting.
 */
export async function migrateCommand(service: string, schema: string, migrations: Migration[]): Promise<never> {
  const url = process.env.DATABASE_URL;
  const say = (message: string) => process.stderr.write(`${JSON.stringify({ service, msg: message })}\n`);
  if (!url) {
    say('DATABASE_URL is required');
    process.exit(1);
  }
  const pool = new pg.Pool({ connectionString: url, stream: databaseSocket, max: 1, application_name: `rex-${service}-migrate`, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => undefined);
  try {
    const applied = await migrate(pool, schema, migrations);
    say(applied.length ? `applied ${applied.join(', ')}` : `schema ${schema} is up to date`);
    await pool.end();
    process.exit(0);
  } catch (error) {
    say(`migration failed: ${(error as Error).message}`);
    process.exit(1);
  }
}

/** The migrations of one schema not applied yet (all of them when the schema does not exist). */
export async function pendingMigrations(pool: pg.Pool, schema: string, migrations: Migration[]): Promise<string[]> {
  const { rows } = await pool.query<{ version: string }>(`SELECT version FROM ${schema}.schema_migrations`).catch((error: { code?: string }) => {
    // 42P01 / 3F000: the table or the schema does not exist yet.
    if (error.code === '42P01' || error.code === '3F000') return { rows: [] };
    throw error;
  });
  const done = new Set(rows.map((row) => row.version));
  return migrations.map((migration) => migration.version).filter((version) => !done.has(version));
}

/**
 * Applies the migrations of one schema that are not applied yet, each in its
 * own transaction. An advisory lock per schema lets every replica call this at
 * start-up: one migrates, the others wait and then find nothing to do.
 */
export async function migrate(pool: pg.Pool, schema: string, migrations: Migration[]): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`rex:migrate:${schema}`]);
    // Only when missing: a role that owns its schema but may not create schemas (a least-privilege deployment) migrates too.
    const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (!rowCount) await client.query(`CREATE SCHEMA ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (version text PRIMARY KEY, applied_on timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: string }>(`SELECT version FROM ${schema}.schema_migrations`);
    const done = new Set(rows.map((row) => row.version));
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query(`INSERT INTO ${schema}.schema_migrations (version) VALUES ($1)`, [migration.version]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${schema}/${migration.version} failed: ${(error as Error).message}`);
      }
      applied.push(migration.version);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`rex:migrate:${schema}`]).catch(() => undefined);
    client.release();
  }
  return applied;
}
