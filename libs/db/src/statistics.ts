import type pg from 'pg';

/**
 * Keeps the planner's statistics of a schema's tables close to their rows where the server's
 * autovacuum is off or behind (it looks once a minute by default, and a burst of writes lands
 * in between): analyzes each table changed by more than a tenth of its rows (and 500) since its
 * last analysis, unless it was analyzed within the last `everyMs`. A plan made for a table the
 * planner takes for a tenth of its size can read all of it where it meant to read a page. Run
 * by several replicas at once, a table may be analyzed twice; that costs a sample of its rows.
 * The tables analyzed.
 */
export async function analyzeChangedTables(db: Pick<pg.ClientBase, 'query'> | pg.Pool, schema: string, everyMs: number): Promise<string[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Not a schema name of the suite: ${schema}`);
  const { rows } = await db.query<{ name: string }>(
    `SELECT quote_ident(relname) AS name FROM pg_stat_user_tables
      WHERE schemaname = $1 AND n_mod_since_analyze > 500 + n_live_tup / 10
        AND coalesce(greatest(last_analyze, last_autoanalyze), '-infinity') < now() - make_interval(secs => $2::float8 / 1000)`,
    [schema, everyMs],
  );
  for (const { name } of rows) await db.query(`ANALYZE ${schema}.${name}`);
  return rows.map((row) => row.name);
}
