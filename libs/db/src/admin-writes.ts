import type { Pool, PoolClient } from './pool.ts';

// An operator's writes (the admin tool's import and commands): each schema's owner writes its own
// tables with these.

/** An entry of a fixtures file that the database refused: where it is in the file, and why. */
export class FixtureError extends Error {}

/** Runs `write` for the entry at `where` (e.g. `users[1].websites[0]`); a refusal of the database becomes a FixtureError naming it. */
export async function forEntry<T>(where: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof FixtureError) throw error;
    throw new FixtureError(`${where}: ${(error as Error & { detail?: string }).detail ?? (error as Error).message}`);
  }
}

/** Inserts `row` into `table`, or updates the row of its id to it. */
export function upsertById(client: PoolClient, table: string, row: Record<string, unknown>, where: string): Promise<void> {
  const names = Object.keys(row);
  const updates = names.filter((name) => name !== 'id').map((name) => `${name} = EXCLUDED.${name}`);
  return forEntry(where, async () => {
    await client.query(
      `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`,
      names.map((name) => row[name]),
    );
  });
}

/** Moves each table's id sequence past its largest id, so later inserts do not collide with ids given in a file. */
export async function bumpIdSequences(client: PoolClient, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    await client.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT COALESCE(max(id), 0) FROM ${table}), 1))`);
  }
}

/** UPDATEs the rows matching `where` to the given columns (undefined ones are left out); false when no row matched. */
export async function updateWhere(db: Pool | PoolClient, table: string, where: Record<string, unknown>, columns: Record<string, unknown>): Promise<boolean> {
  const set = Object.entries(columns).filter(([, value]) => value !== undefined);
  const conditions = Object.keys(where).map((key, i) => `${key} = $${set.length + i + 1}`);
  const result = await db.query(`UPDATE ${table} SET ${set.map(([name], i) => `${name} = $${i + 1}`).join(', ')} WHERE ${conditions.join(' AND ')}`, [
    ...set.map(([, value]) => value),
    ...Object.values(where),
  ]);
  return (result.rowCount ?? 0) > 0;
}
