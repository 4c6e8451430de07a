import type { Logger } from '@rex/logger';
import type pg from 'pg';
import { migrate, pendingMigrations, type Migration } from './migrate.ts';
import { isReachable } from './pool.ts';

/**
 * Keeps a service's view of its database: migrates its schema once the
 * database answers (retrying every second until it does), then checks every
 * few seconds that it still answers. With `applyMigrations: false` (a cluster
 * runs them as a step before the rollout, see the `migrate` command) it
 * migrates nothing and waits until the schema has every migration it knows.
 * `setReady` follows both, for health checks; `onMigrated` runs once, when
 * the schema is first up to date.
 */
export async function superviseDatabase(options: {
  pool: pg.Pool;
  /** The pool the service serves reads from, when it is another database. */
  readPool?: pg.Pool;
  schema: string;
  migrations: Migration[];
  logger: Logger;
  setReady: (ready: boolean) => void;
  onMigrated?: () => void;
  /** Apply pending migrations (default), or only wait for them to be applied. */
  applyMigrations?: boolean;
}): Promise<{ stop: () => void }> {
  let migrated = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const check = async () => {
    if (stopped) return;
    if (!migrated) {
      try {
        if (options.applyMigrations === false) {
          const pending = await pendingMigrations(options.pool, options.schema, options.migrations);
          if (pending.length) options.logger.warn({ pending }, 'waiting for the schema to be migrated (the migrate command)');
          migrated = pending.length === 0;
        } else {
          const applied = await migrate(options.pool, options.schema, options.migrations);
          if (applied.length) options.logger.info({ applied }, 'migrations applied');
          migrated = true;
        }
        if (migrated) options.onMigrated?.();
      } catch (error) {
        options.logger.warn({ err: error }, 'database not ready');
      }
    }
    const ready = migrated && (await isReachable(options.readPool ?? options.pool));
    if (stopped) return;
    options.setReady(ready);
    timer = setTimeout(check, migrated ? 5_000 : 1_000);
    timer.unref();
  };
  await check();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
