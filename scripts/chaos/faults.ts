// The faults of a chaos run, at random intervals: processes killed (SIGKILL)
// or stopped (SIGTERM) and started again, database connections terminated,
// and the database itself restarted once.
import type { Pool } from '@rex/db';
import type { Fleet, Member } from './fleet.ts';

export type FaultLog = { at: number; fault: string }[];

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function startFaults(options: {
  fleet: Fleet;
  admin: Pool;
  databaseName: string;
  /** Restarts the database server, or cuts every connection to the run's database where the server is not ours. */
  restartDatabase: () => Promise<string>;
  intervalMs: [number, number];
  log: (message: string) => void;
}): { stop: () => Promise<FaultLog> } {
  const { fleet, admin } = options;
  const started = Date.now();
  const done: FaultLog = [];
  let stopped = false;
  let databaseRestarted = false;
  const member = (service: Member['service']) => pick(fleet.members.filter((candidate) => candidate.service === service));

  const bounce = async (target: Member, signal: NodeJS.Signals) => {
    await fleet.stop(target, signal);
    await sleep(200 + Math.random() * 800);
    fleet.start(target);
    return `${signal} ${target.name}`;
  };

  const terminateConnections = async () => {
    const { rows } = await admin.query<{ pid: number; application_name: string }>(
      `SELECT pid, application_name FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name LIKE 'rex-%' AND application_name <> 'rex-chaos'`,
      [options.databaseName],
    );
    const chosen = rows.sort(() => Math.random() - 0.5).slice(0, 1 + Math.floor(Math.random() * 3));
    for (const row of chosen) await admin.query('SELECT pg_terminate_backend($1)', [row.pid]).catch(() => undefined);
    return `pg_terminate_backend ×${chosen.length} (${chosen.map((row) => row.application_name).join(', ') || 'none open'})`;
  };

  const faults: (() => Promise<string>)[] = [
    () => bounce(member('records'), 'SIGKILL'),
    () => bounce(member('records'), 'SIGTERM'),
    () => bounce(member('media'), 'SIGKILL'),
    () => bounce(member('reports'), 'SIGKILL'),
    () => bounce(member('reports'), 'SIGTERM'),
    () => bounce(member('gateway'), 'SIGKILL'),
    terminateConnections,
    terminateConnections,
  ];

  const loop = (async () => {
    while (!stopped) {
      const [min, max] = options.intervalMs;
      await sleep(min + Math.random() * (max - min));
      if (stopped) break;
      const fault = !databaseRestarted && done.length >= 3 ? ((databaseRestarted = true), options.restartDatabase) : pick(faults);
      try {
        const what = await fault();
        done.push({ at: Date.now() - started, fault: what });
        options.log(`fault: ${what}`);
      } catch (error) {
        options.log(`fault failed: ${(error as Error).message}`);
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      await loop;
      return done;
    },
  };
}
