import type { Logger } from '@rex/logger';

/**
 * Watches a service's database and tells the hooks (`superviseDatabase` of
 * @rex/db, given them): `setReady` on every check, `onMigrated` once the
 * schema is up to date.
 */
export type DatabaseSupervisor = (hooks: { setReady: (ready: boolean) => void; onMigrated: () => void }) => Promise<{ stop: () => void }>;

/** Work that runs every `everyMs` while the service is ready (a tick is skipped while it is not); a failure is logged and the next tick tries again. */
export type Sweep = { name: string; everyMs: number; run: () => Promise<unknown> };

/**
 * Work that runs from the moment the database schema is up to date (at once
 * without a database) until the service stops; it retries through database
 * outages on its own (the reports projector).
 */
export type Worker = { name: string; start: () => { stop: () => Promise<void> } };

export type Job = Sweep | Worker;

export type Readiness = {
  /** The database answers and its schema is up to date (always, without a database), and stop has not been called. */
  readonly ready: boolean;
  /** Not ready from now on: the database is no longer watched and sweeps stop. */
  stop: () => void;
  /** Stops the workers and waits for them. */
  stopWorkers: () => Promise<void>;
};

/**
 * Whether a service may take calls: from its database supervisor, or at once
 * when it has no database. `onChange` hears every verdict until stop; jobs
 * run as their kind says.
 */
export async function superviseReadiness(options: {
  logger: Logger;
  database?: DatabaseSupervisor;
  jobs?: Job[];
  onChange?: (ready: boolean) => void;
}): Promise<Readiness> {
  const { logger } = options;
  const jobs = options.jobs ?? [];
  let ready = false;
  let stopped = false;
  const running: { stop: () => Promise<void> }[] = [];
  const setReady = (verdict: boolean) => {
    if (stopped) return;
    ready = verdict;
    options.onChange?.(verdict);
  };
  const startWorkers = () => {
    if (stopped) return;
    for (const job of jobs) if ('start' in job) running.push(job.start());
  };
  const timers = jobs.flatMap((job) => {
    if (!('everyMs' in job)) return [];
    // A run still going when the next is due is let finish: the next one is skipped, not started beside it.
    let inFlight = false;
    const timer = setInterval(() => {
      if (!ready || inFlight) return;
      inFlight = true;
      job
        .run()
        .catch((error: unknown) => logger.warn({ err: error }, `${job.name} failed`))
        .finally(() => {
          inFlight = false;
        });
    }, job.everyMs);
    timer.unref();
    return [timer];
  });
  let database: { stop: () => void } | undefined;
  if (options.database) {
    database = await options.database({ setReady, onMigrated: startWorkers });
  } else {
    setReady(true);
    startWorkers();
  }
  return {
    get ready() {
      return ready;
    },
    stop() {
      stopped = true;
      ready = false;
      for (const timer of timers) clearInterval(timer);
      database?.stop();
    },
    async stopWorkers() {
      await Promise.all(running.splice(0).map((worker) => worker.stop()));
    },
  };
}
