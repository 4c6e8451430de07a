export { createPool, withTransaction, isReachable, QueryAbandoned, type Pool, type PoolClient, type QueryScope } from './pool.ts';
export { migrate, migrateCommand, pendingMigrations, readMigrations, type Migration } from './migrate.ts';
export { startEmbeddedPostgres, removeDataDirectory, freePort, ClusterInUse, type EmbeddedDatabase } from './embedded.ts';
export { createDatabase, dropDatabase, databaseUrl } from './databases.ts';
export { superviseDatabase } from './supervise.ts';
export { followNotifications } from './notifications.ts';
