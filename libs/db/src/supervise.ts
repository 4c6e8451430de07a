import type { Logger } from '@rex/logger';
import type pg from 'pg';
import { migrate, type Migration } from './migrate.ts';
import { isReachable } from './pool.ts';

/**
 * Keeps a service's view of its database: migrates its schema once the
 * database answers (retrying every second until it does), then checks every
 * few seconds that it still answers. `setReady` follows both, for health
 * checks; `onMigrated` runs once, after the first successful migration.
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
}): Promise<{ stop: () => void }> {
  let migrated = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const check = async () => {
    if (stopped) return;
    if (!migrated) {
      try {
        const applied = await migrate(options.pool, options.schema, options.migrations);
        if (applied.length) options.logger.info({ applied }, 'migrations applied');
        migrated = true;
        options.onMigrated?.();
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
