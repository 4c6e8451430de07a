// A PostgreSQL primary and a hot-standby replica streaming from it, made for
// one test in a temporary directory: the primary with wal_level=replica and a
// replication role, the replica by `pg_basebackup -R`. As root both run as the
// server user the embedded PostgreSQL uses (libs/db/src/embedded-location.ts).
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '@rex/db';
import { blockedDirectory, serverBinaries, serverUser, type ServerUser } from '../../libs/db/src/embedded-location.ts';

const TOOLS = ['initdb', 'pg_ctl', 'postgres', 'pg_basebackup'];
const SUPERUSER = 'postgres';
const SUPERUSER_PASSWORD = 'rex-primary';
const REPLICATION_ROLE = 'rex_replicator';
const REPLICATION_PASSWORD = 'rex-replicator';
// English messages, whatever the machine's locale.
const ENV = { ...process.env, LC_MESSAGES: 'C' };

export type ReplicationBinaries = { bin: string; version: number } | { missing: string };

export type StreamingReplica = {
  /** The primary as its superuser. */
  primaryUrl: string;
  /** The replica as its superuser (read-only: it is in recovery). */
  replicaUrl: string;
  /** Every statement a server has run so far, from its log, with the role and application that sent it. */
  statements: (server: 'primary' | 'replica') => Statement[];
  stop: () => Promise<void>;
};

export type Statement = { role: string; application: string; text: string };

// Each log entry starts with the time (%m: date, time, zone), the role and the application.
const ENTRY = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \S+ /m;
const STATEMENT = /^\S+ \S+ \S+ \[(\S*)\] \[(\S*)\] LOG:  (?:statement|execute [^:]*): ([\s\S]*)$/;

/**
 * The first PostgreSQL installation (15 or later) holding initdb, pg_ctl,
 * postgres and pg_basebackup that the server user may run: the embedded
 * binaries, then /usr/lib/postgresql/<version>/bin, newest first. Without
 * one, why each candidate does not do.
 */
export function replicationBinaries(): ReplicationBinaries {
  let user: ServerUser | undefined;
  try {
    user = serverUser();
  } catch (error) {
    return { missing: (error as Error).message };
  }
  const candidates: string[] = [];
  const reasons: string[] = [];
  try {
    candidates.push(join(serverBinaries(user), 'bin'));
  } catch (error) {
    reasons.push(`embedded PostgreSQL: ${(error as Error).message}`);
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((name) => /^\d+$/.test(name));
    candidates.push(...versions.sort((a, b) => Number(b) - Number(a)).map((version) => join(debian, version, 'bin')));
  } else {
    reasons.push(`${debian}: not installed`);
  }
  for (const bin of candidates) {
    const missing = TOOLS.filter((tool) => !existsSync(join(bin, tool)));
    if (missing.length) {
      reasons.push(`${bin}: no ${missing.join(', ')}`);
      continue;
    }
    const blocked = blockedDirectory(bin, user);
    if (blocked) {
      reasons.push(`${bin}: the ${user!.name} user may not enter ${blocked}`);
      continue;
    }
    const banner = spawnSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8', env: ENV });
    const version = Number(/\(PostgreSQL\) (\d+)/.exec(banner.stdout ?? '')?.[1]);
    if (!(version >= 15)) {
      reasons.push(`${bin}: PostgreSQL ${version || 'of unknown version'}, 15 or later is needed`);
      continue;
    }
    return { bin, version };
  }
  return { missing: `no PostgreSQL installation can make a streaming replica (${reasons.join('; ')})` };
}

/** spawn's options to run as `user` (unchanged for the current one). */
const as = (user: ServerUser | undefined) => (user ? { uid: user.uid, gid: user.gid } : {});

/** Runs a command to its end; rejects with its output (and `log`'s, when given) when it fails. */
function run(command: string, args: string[], user: ServerUser | undefined, log?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...as(user), env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) return resolve();
      const logged = log && existsSync(log) ? `; log: ${readFileSync(log, 'utf8').trim().split('\n').slice(-10).join(' | ')}` : '';
      reject(new Error(`${command} ${args.join(' ')} failed (exit code ${code}): ${output.trim()}${logged}`));
    });
  });
}

/** Starts a primary and a hot-standby replica of it on free ports; both stop, and their directory goes, with `stop` (or when starting fails). */
export async function startStreamingReplica(binaries: { bin: string }): Promise<StreamingReplica> {
  const user = serverUser();
  const base = blockedDirectory(tmpdir(), user) ? '/var/tmp' : tmpdir();
  const dir = mkdtempSync(join(base, 'rex-replica-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const tool = (name: string) => join(binaries.bin, name);
  const primary = { data: join(dir, 'primary'), log: join(dir, 'primary.log'), port: await freePort(), started: false };
  const replica = { data: join(dir, 'replica'), log: join(dir, 'replica.log'), port: await freePort(), started: false };
  const pgCtl = (server: typeof primary, ...args: string[]) => run(tool('pg_ctl'), ['-D', server.data, '-l', server.log, ...args], user, server.log);

  const stop = async () => {
    // Replica first, so it does not wait on a primary that is gone.
    for (const server of [replica, primary]) {
      if (server.started) await pgCtl(server, '-m', 'fast', '-w', 'stop').catch(() => pgCtl(server, '-m', 'immediate', 'stop').catch(() => undefined));
      server.started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const passwordFile = join(dir, 'superuser-password');
    writeFileSync(passwordFile, `${SUPERUSER_PASSWORD}\n`, { mode: 0o600 });
    if (user) chownSync(passwordFile, user.uid, user.gid);
    await run(
      tool('initdb'),
      [`--pgdata=${primary.data}`, `--username=${SUPERUSER}`, `--pwfile=${passwordFile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--locale=C', '--no-sync'],
      user,
    );
    appendFileSync(
      join(primary.data, 'postgresql.conf'),
      [
        "listen_addresses = '127.0.0.1'",
        "unix_socket_directories = ''",
        'wal_level = replica',
        'max_wal_senders = 4',
        'hot_standby = on',
        'fsync = off',
        // Every statement, with who sent it, written as it runs.
        'log_statement = all',
        "log_line_prefix = '%m [%u] [%a] '",
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(primary.data, 'pg_hba.conf'),
      [`host all all 127.0.0.1/32 scram-sha-256`, `host replication ${REPLICATION_ROLE} 127.0.0.1/32 scram-sha-256`, ''].join('\n'),
    );
    await pgCtl(primary, '-o', `-p ${primary.port}`, '-w', '-t', '30', 'start');
    primary.started = true;
    const primaryUrl = `postgres://${SUPERUSER}:${SUPERUSER_PASSWORD}@127.0.0.1:${primary.port}/postgres`;
    const client = new pg.Client({ connectionString: primaryUrl });
    await client.connect();
    try {
      await client.query(`CREATE ROLE ${REPLICATION_ROLE} LOGIN REPLICATION PASSWORD '${REPLICATION_PASSWORD}'`);
    } finally {
      await client.end();
    }
    // -R: standby.signal and primary_conninfo (with the replication role's password) in the copy.
    await run(
      tool('pg_basebackup'),
      ['-D', replica.data, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync', '-d', `host=127.0.0.1 port=${primary.port} user=${REPLICATION_ROLE} password=${REPLICATION_PASSWORD}`],
      user,
    );
    await pgCtl(replica, '-o', `-p ${replica.port}`, '-w', '-t', '30', 'start');
    replica.started = true;
    const statements = (server: 'primary' | 'replica'): Statement[] =>
      readFileSync((server === 'primary' ? primary : replica).log, 'utf8')
        .split(new RegExp(`(?=${ENTRY.source})`, 'm'))
        .flatMap((entry) => {
          const match = STATEMENT.exec(entry.trimEnd());
          return match ? [{ role: match[1], application: match[2], text: match[3] }] : [];
        });
    return { primaryUrl, replicaUrl: `postgres://${SUPERUSER}:${SUPERUSER_PASSWORD}@127.0.0.1:${replica.port}/postgres`, statements, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
