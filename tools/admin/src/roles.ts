// Least-privilege database roles for a deployment where each service connects
// as itself: each owns its schema (it migrates it), reports may read the
// records tables records grants it, and report queries run as a read-only role.
import type { Pool } from '@rex/db';

/** The role each service connects as, and the schema it owns. */
export const SERVICE_ROLES = [
  { role: 'rex_gateway', schema: 'auth' },
  { role: 'rex_records', schema: 'records' },
  { role: 'rex_media', schema: 'media' },
  { role: 'rex_reports', schema: 'reports' },
] as const;

/** Report queries (REPORTS_DATABASE_URL): SELECT on the read model, nothing else, read-only sessions. */
export const REPORTS_READER = 'rex_reports_reader';
/**
 * A group role: the records tables the projector reads are granted to it by
 * records' own migrations (records decides what others may read).
 */
export const RECORDS_READERS = 'rex_records_readers';

export const LOGIN_ROLES = [...SERVICE_ROLES.map((s) => s.role), REPORTS_READER];

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The bootstrap SQL: idempotent, run by a role that may create roles (the
 * database owner or a superuser) before the first install, and again
 * whenever its output changes. `passwords` sets the login passwords given.
 */
export function bootstrapSql(passwords: Partial<Record<string, string>> = {}): string {
  const lines: string[] = ['-- rex: database roles (idempotent; see docs/operations.md)'];
  for (const role of [...LOGIN_ROLES, RECORDS_READERS]) {
    const login = role === RECORDS_READERS ? 'NOLOGIN' : 'LOGIN';
    lines.push(`DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = ${literal(role)}) THEN CREATE ROLE ${role} ${login}; END IF; END $$;`);
  }
  for (const [role, password] of Object.entries(passwords)) {
    if (password !== undefined) lines.push(`ALTER ROLE ${role} PASSWORD ${literal(password)};`);
  }
  for (const { role, schema } of SERVICE_ROLES) {
    lines.push(
      `CREATE SCHEMA IF NOT EXISTS ${schema} AUTHORIZATION ${role};`,
      `ALTER SCHEMA ${schema} OWNER TO ${role};`,
      // Objects an earlier set-up created as another role pass to the schema's owner.
      `DO $$ DECLARE o record; BEGIN
  FOR o IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = ${literal(schema)} AND c.relkind IN ('r', 'p', 'v', 'm', 'S') LOOP
    EXECUTE format('ALTER %s ${schema}.%I OWNER TO ${role}', CASE o.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END, o.relname);
  END LOOP;
END $$;`,
      `REVOKE ALL ON SCHEMA ${schema} FROM PUBLIC;`,
    );
  }
  lines.push(
    // The projector reads what records grants RECORDS_READERS (records' migrations name the tables).
    `GRANT USAGE ON SCHEMA records TO ${RECORDS_READERS};`,
    `GRANT ${RECORDS_READERS} TO rex_reports;`,
    // Report queries: the read model only, read-only sessions.
    `GRANT USAGE ON SCHEMA reports TO ${REPORTS_READER};`,
    `GRANT SELECT ON ALL TABLES IN SCHEMA reports TO ${REPORTS_READER};`,
    `ALTER DEFAULT PRIVILEGES FOR ROLE rex_reports IN SCHEMA reports GRANT SELECT ON TABLES TO ${REPORTS_READER};`,
    `ALTER ROLE ${REPORTS_READER} SET default_transaction_read_only = on;`,
  );
  return `${lines.join('\n')}\n`;
}

/** Applies the bootstrap SQL in one transaction; the roles created or changed. */
export async function applyBootstrap(pool: Pool, passwords: Partial<Record<string, string>> = {}): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(bootstrapSql(passwords));
    // Records tables granted by records' migrations before the group role existed.
    // Records tables that exist already: records' own list of what it lets others read (its migrations call it too).
    await client.query(`DO $$ BEGIN IF to_regprocedure('records.grant_to_readers()') IS NOT NULL THEN PERFORM records.grant_to_readers(); END IF; END $$;`);
    await client.query('COMMIT');
    return LOGIN_ROLES;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
