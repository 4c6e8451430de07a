import type { PoolClient } from '@rex/db';
import type { Column } from '../domain/fields.ts';

/** A timestamptz column as ISO 8601 with a numeric offset, in UTC. */
export const iso = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')`;

/** UPDATE of the planned columns (names come from the domain's own field lists, never from input). */
export async function updateRow(
  client: PoolClient,
  table: string,
  id: string,
  columns: Column,
): Promise<{ id: string; created_on: string; updated_on: string; version: string }> {
  const names = Object.keys(columns);
  const sets = [...names.map((name, index) => `${name} = $${index + 2}`), 'updated_on = now()'];
  const { rows } = await client.query(
    `UPDATE ${table} SET ${sets.join(', ')} WHERE id = $1
     RETURNING id, ${iso('created_on')} AS created_on, ${iso('updated_on')} AS updated_on, xmin::text AS version`,
    [id, ...names.map((name) => columns[name])],
  );
  return rows[0];
}

/** A unique constraint's violation, by the constraint's name. */
export const isUniqueViolation = (error: unknown, constraint: string): boolean =>
  (error as { code?: string }).code === '23505' && (error as { constraint?: string }).constraint === constraint;
