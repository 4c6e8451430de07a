// Which process runs a data directory's embedded PostgreSQL. A start claims
// the cluster in `<dataDir>/pg.lock`; while its owner lives, the cluster is
// in use and another start is refused. A postmaster whose owner died (killed
// outright) is an orphan, stopped before the next start.
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type ClusterOwner = { pid: number; port: number };

/** A start of a cluster that another live process runs. */
export class ClusterInUse extends Error {
  readonly owner: ClusterOwner;

  constructor(cluster: string, owner: ClusterOwner) {
    super(
      `the embedded PostgreSQL of this data directory (${cluster}) is in use by process ${owner.pid} on port ${owner.port}, ` +
        'most likely another `npm start` or an admin command of the same checkout: stop that process first, or give this one its own REX_DATA_DIR',
    );
    this.owner = owner;
  }
}

/** A claim still being taken up (the owner is starting the server) counts as live for this long. */
const STARTING_MS = 60_000;

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live postmaster of a cluster, from its postmaster.pid. */
export function livePostmaster(cluster: string): number | undefined {
  const file = join(cluster, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return pid > 0 && isAlive(pid) ? pid : undefined;
}

function readClaim(file: string): { owner: ClusterOwner; ageMs: number } | undefined {
  try {
    return { owner: JSON.parse(readFileSync(file, 'utf8')) as ClusterOwner, ageMs: Date.now() - statSync(file).mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * The live owner of a cluster, if any. A process id is trusted only with a
 * running postmaster (or a claim young enough to be still starting one): a
 * claim left by a process that died, its id since given to another process
 * (a restarted container), is stale.
 */
export function clusterOwner(dataDir: string, cluster: string): ClusterOwner | undefined {
  const claim = readClaim(join(dataDir, 'pg.lock'));
  if (!claim || claim.owner.pid === process.pid || !isAlive(claim.owner.pid)) return undefined;
  return livePostmaster(cluster) || claim.ageMs < STARTING_MS ? claim.owner : undefined;
}

/** Claims the cluster for this process, or throws ClusterInUse. Returns the release. */
export function claimCluster(dataDir: string, cluster: string, port: number): () => void {
  const file = join(dataDir, 'pg.lock');
  for (let attempt = 0; ; attempt++) {
    const owner = clusterOwner(dataDir, cluster);
    if (owner) throw new ClusterInUse(cluster, owner);
    if (attempt === 0) rmSync(file, { force: true });
    try {
      writeFileSync(file, JSON.stringify({ pid: process.pid, port } satisfies ClusterOwner), { flag: 'wx' });
      break;
    } catch (error) {
      // Another start claimed it between the check and the write: the check above now names it.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
  }
  return () => {
    if (readClaim(file)?.owner.pid === process.pid) rmSync(file, { force: true });
  };
}
