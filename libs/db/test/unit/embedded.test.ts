// The embedded PostgreSQL wherever its data directory is, and one owner per
// cluster. As root (containers, CI) the server runs as the `postgres` user,
// so these tests start it under a directory only root may enter.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterInUse, removeDataDirectory, startEmbeddedPostgres } from '../../src/embedded.ts';
import { livePostmaster } from '../../src/embedded-lock.ts';
import { blockedDirectory } from '../../src/embedded-location.ts';

let closed: string;
let dataDir: string;
const holders: ChildProcess[] = [];

beforeAll(() => {
  closed = mkdtempSync(join(tmpdir(), 'rex-closed-'));
  chmodSync(closed, 0o700);
  dataDir = join(closed, 'data');
});

afterAll(() => {
  for (const holder of holders) holder.kill('SIGKILL');
  removeDataDirectory(dataDir);
  removeDataDirectory(closed);
});

async function query(url: string, sql: string): Promise<pg.QueryResultRow[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** The cluster run by another process, as a running suite would. */
async function holdCluster(): Promise<{ child: ChildProcess; pid: number; port: number; url: string }> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', join(import.meta.dirname, 'hold-cluster.ts'), dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  holders.push(child);
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { child, ...JSON.parse(line) };
}

describe('embedded PostgreSQL', () => {
  it('when its data directory is inside a directory only its owner may enter, then it initialises, serves, and keeps its data across a restart', { timeout: 90_000 }, async () => {
    const first = await startEmbeddedPostgres({ dataDir });
    try {
      await query(first.url, 'CREATE TABLE kept (note text); INSERT INTO kept VALUES ($$across restarts$$)');
    } finally {
      await first.stop();
    }
    const again = await startEmbeddedPostgres({ dataDir });
    try {
      expect(await query(again.url, 'SELECT note FROM kept')).toEqual([{ note: 'across restarts' }]);
    } finally {
      await again.stop();
    }
  });

  it('when another live process runs the cluster, then a start is refused naming its PID and port, and that process keeps serving', { timeout: 60_000 }, async () => {
    const holder = await holdCluster();
    const refused = await startEmbeddedPostgres({ dataDir }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(refused).toBeInstanceOf(ClusterInUse);
    expect(refused!.message).toContain(`process ${holder.pid} on port ${holder.port}`);
    expect(await query(holder.url, 'SELECT note FROM kept')).toEqual([{ note: 'across restarts' }]);
    holder.child.kill('SIGTERM');
    await once(holder.child, 'exit');
  });

  it('when the process running the cluster was killed outright, then the next start stops the orphaned server and starts its own', { timeout: 60_000 }, async () => {
    const holder = await holdCluster();
    holder.child.kill('SIGKILL');
    await once(holder.child, 'exit');
    const orphan = livePostmaster(join(dataDir, 'pg'));
    expect(orphan).toBeGreaterThan(0);
    const database = await startEmbeddedPostgres({ dataDir });
    try {
      expect(livePostmaster(join(dataDir, 'pg'))).not.toBe(orphan);
      expect(await query(database.url, 'SELECT note FROM kept')).toEqual([{ note: 'across restarts' }]);
    } finally {
      await database.stop();
    }
  });
});

describe('blockedDirectory', () => {
  it('names the first directory on the way that a user may not enter, judged by owner, group and other bits', () => {
    const top = mkdtempSync(join(tmpdir(), 'rex-way-'));
    try {
      const inner = join(top, 'a', 'b');
      mkdirSync(inner, { recursive: true });
      chmodSync(top, 0o711);
      chmodSync(join(top, 'a'), 0o750);
      const stranger = { name: 'stranger', uid: 65_000, gid: 65_000 };
      expect(blockedDirectory(join(inner, 'not-yet'), stranger)).toBe(join(top, 'a'));
      const member = { name: 'member', uid: 65_000, gid: process.getgid!() };
      expect(blockedDirectory(join(inner, 'not-yet'), member)).toBeUndefined();
      chmodSync(top, 0o700);
      expect(blockedDirectory(inner, member)).toBe(top);
    } finally {
      removeDataDirectory(top);
    }
  });
});
