import type { PoolClient } from './pool.ts';

// Writing fixtures (the admin tool's import): each schema's owner writes its own tables with these.

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
