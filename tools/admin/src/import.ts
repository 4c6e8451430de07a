import { migrate, withTransaction, type Pool } from '@rex/db';
import { SCHEMA as AUTH_SCHEMA, migrations as authMigrations } from '@rex/gateway/migrations';
import { importAuthFixtures, liveWebsiteIds } from '@rex/gateway/admin';
import { SCHEMA as RECORDS_SCHEMA, migrations as recordsMigrations } from '@rex/records/migrations';
import { importRecordsFixtures } from '@rex/records/admin';
import type { Fixtures } from './fixtures.ts';

/** Brings the auth and records schemas up to date, so an import works before the suite first starts. */
export async function migrateAll(pool: Pool): Promise<void> {
  await migrate(pool, AUTH_SCHEMA, authMigrations());
  await migrate(pool, RECORDS_SCHEMA, recordsMigrations());
}

/**
 * Creates or updates everything in the fixtures, keeping the given ids, in
 * one transaction: a bad entry (a FixtureError naming it) leaves the database
 * as it was. Each schema's owner writes its part; answers how many entries of
 * each kind were written.
 */
export async function importFixtures(pool: Pool, fixtures: Fixtures): Promise<Record<string, number>> {
  await migrateAll(pool);
  return withTransaction(pool, async (client) => {
    const counts: Record<string, number> = {};
    const count = (kind: string) => (counts[kind] = (counts[kind] ?? 0) + 1);
    await importAuthFixtures(client, fixtures, count);
    await importRecordsFixtures(client, fixtures, await liveWebsiteIds(client), count);
    return counts;
  });
}
