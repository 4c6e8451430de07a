export { createPool, withTransaction, DEFAULT_STATEMENT_TIMEOUT_MS, isReachable, QueryAbandoned, type Pool, type PoolClient, type QueryScope } from './pool.ts';
export { migrate, migrateCommand, pendingMigrations, readMigrations, type Migration } from './migrate.ts';
export { startEmbeddedPostgres, removeDataDirectory, ClusterInUse, type EmbeddedDatabase } from './embedded.ts';
export { freePort, ephemeralRangeStart } from './free-port.ts';
export { createDatabase, dropDatabase, databaseUrl } from './databases.ts';
export { superviseDatabase } from './supervise.ts';
export { followNotifications } from './notifications.ts';
export { FixtureError, bumpIdSequences, forEntry, updateWhere, upsertById } from './admin-writes.ts';
export { analyzeChangedTables } from './statistics.ts';
