// The first hour with rex, as a new user has it: `npm start` run as whoever
// runs the tests (root in containers and CI) from a directory only that user
// may enter; a second start beside a running one; SIGTERM to npm; a port
// already taken; a service that cannot start; a service that dies while the
// suite runs. And what the README promises about itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { freePort, removeDataDirectory } from '@rex/db';
import { freshDatabase } from './support/world.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const launched: ChildProcess[] = [];
const dataDirs: string[] = [];
/** Launchers of suites that started: stopped here should a test fail before it stops them. */
const suites: number[] = [];

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterAll(async () => {
  for (const child of launched) if (child.exitCode === null) child.kill('SIGKILL');
  for (const pid of suites.filter(isAlive)) process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 15_000 && suites.some(isAlive); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const dir of dataDirs) removeDataDirectory(dir);
});

/** A data directory inside a directory only its owner may enter. */
function closedDataDir(): string {
  const parent = mkdtempSync(join(tmpdir(), 'rex-first-hour-'));
  chmodSync(parent, 0o700);
  dataDirs.push(parent);
  const dataDir = join(parent, 'data');
  dataDirs.unshift(dataDir);
  return dataDir;
}

type Launch = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/** `npm start` as typed (npm, its shell, the bootstrap, then scripts/start.ts), without DATABASE_URL unless given. */
function npmStart(env: Record<string, string | undefined>): Launch {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  // A user's PATH: not the one `npm test` runs the tests with, whose node_modules/.bin `node` is a
  // shell wrapper that npm's `#!/usr/bin/env node` would then run under (and that SIGTERM would hit).
  const path = (inherited.PATH ?? '').split(':').filter((entry) => !entry.endsWith('node_modules/.bin')).join(':');
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...inherited, PATH: path, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  launched.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, output: () => output, exited };
}

async function until(launch: Launch, pattern: RegExp, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(launch.output())) {
    if (launch.child.exitCode !== null) throw new Error(`npm start exited (${launch.child.exitCode}) before ${pattern}:\n${launch.output()}`);
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs / 1000} s:\n${launch.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The process of service `name` that the launcher `launcherPid` runs now (Linux). */
function servicePid(launcherPid: number, name: string): number | undefined {
  for (const entry of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const parent = Number(/\) \S+ (\d+)/.exec(readFileSync(`/proc/${entry}/stat`, 'utf8'))?.[1]);
      if (parent === launcherPid && readlinkSync(`/proc/${entry}/cwd`).endsWith(join('services', name))) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}

const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern, 'g'))?.length ?? 0;

describe('npm start', () => {
  it(
    'when it runs from a directory only its user may enter and a second start is tried beside it, then the second is refused naming the first one’s PID and port, and the first keeps serving until a SIGTERM to npm stops all of it',
    { timeout: 240_000 },
    async () => {
      const dataDir = closedDataDir();
      const gatewayPort = await freePort();
      const first = npmStart({ REX_DATA_DIR: dataDir, GATEWAY_PORT: String(gatewayPort) });
      await until(first, /rex is running/, 180_000);
      for (const step of ['database ready: embedded PostgreSQL', 'records ready', 'search ready', 'reports ready', 'media ready', 'gateway ready', 'demo data seeded']) {
        expect(first.output()).toContain(step);
      }
      const suite = JSON.parse(readFileSync(join(dataDir, 'suite.json'), 'utf8')) as { pid: number; gatewayUrl: string };
      suites.push(suite.pid);
      const token = /export TOKEN=(\S+)/.exec(first.output())![1];
      const samples = `http://127.0.0.1:${gatewayPort}/index.php/services/rest/samples`;

      const second = npmStart({ REX_DATA_DIR: dataDir, GATEWAY_PORT: String(await freePort()) });
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`PID ${suite.pid}, gateway on port ${gatewayPort}`);

      // Served from the first suite's database, which the second start left alone.
      const answer = await fetch(samples, { headers: { Authorization: `Bearer ${token}` } });
      expect(answer.status).toBe(200);

      // npm passes the signal to its shell only: the rest of the chain must still stop the suite.
      first.child.kill('SIGTERM');
      await first.exited;
      // A service's drain may take its whole SHUTDOWN_TIMEOUT_MS (10 s) and a few seconds more on a busy machine.
      for (let waited = 0; waited < 40_000 && (isAlive(suite.pid) || existsSync(join(dataDir, 'pg', 'postmaster.pid'))); waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(isAlive(suite.pid)).toBe(false);
      expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    },
  );

  it('when the gateway’s port is taken, then it stops at once saying which port and which variable moves it', { timeout: 60_000 }, async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const launch = npmStart({ REX_DATA_DIR: closedDataDir(), GATEWAY_PORT: String(port), DATABASE_URL: inject('databaseUrl') });
      expect(await launch.exited).toBe(1);
      expect(launch.output()).toContain(`port ${port} is in use by another program; stop it, or set GATEWAY_PORT to a free port`);
    } finally {
      taken.close();
    }
  });

  it('when a service cannot start, then the launcher says which one and why, not only its exit code', { timeout: 120_000 }, async () => {
    const dataDir = closedDataDir();
    const config = join(dataDir, '..', 'broken.json');
    writeFileSync(config, JSON.stringify({ auth_methods: {} }));
    const launch = npmStart({ REX_DATA_DIR: dataDir, GATEWAY_PORT: String(await freePort()), DATABASE_URL: inject('databaseUrl'), REX_CONFIG: config });
    expect(await launch.exited).toBe(1);
    expect(launch.output()).toMatch(/could not start: \w+ exited with code 1 while starting: invalid REST configuration .*broken\.json: \| \(root\): Unrecognized key: "auth_methods"/);
  });
});

describe('npm start, when a service dies while the suite runs', () => {
  it('starts it again with a growing delay, saying so, and the suite serves again; one that keeps dying stops the suite, naming it', { timeout: 180_000 }, async () => {
    const dataDir = closedDataDir();
    const gatewayPort = await freePort();
    // An empty database, for the demo data the printed token belongs to.
    const database = await freshDatabase('rex_supervised');
    onTestFinished(database.drop);
    // A first delay of 0.1 s rather than 0.5 s: the same doubling, a fifth of the wait.
    const launch = npmStart({ REX_DATA_DIR: dataDir, GATEWAY_PORT: String(gatewayPort), DATABASE_URL: database.url, REX_RESTART_DELAY_MS: '100' });
    await until(launch, /rex is running/, 120_000);
    const { pid: launcher } = JSON.parse(readFileSync(join(dataDir, 'suite.json'), 'utf8')) as { pid: number };
    suites.push(launcher);
    const token = /export TOKEN=(\S+)/.exec(launch.output())![1];
    const survey = () => fetch(`http://127.0.0.1:${gatewayPort}/index.php/services/rest/surveys/1`, { headers: { Authorization: `Bearer ${token}` } });

    const first = servicePid(launcher, 'records')!;
    process.kill(first, 'SIGKILL');
    await until(launch, /records stopped \(signal SIGKILL\); starting it again in 0\.1 s/, 10_000);
    await until(launch, /records ready again/, 30_000);
    expect(servicePid(launcher, 'records')).not.toBe(first);
    expect((await survey()).status).toBe(200);

    // Four more deaths are started again, each after twice the delay before; the sixth within a minute is one too many.
    for (let restarts = 2; restarts <= 5; restarts++) {
      process.kill(servicePid(launcher, 'records')!, 'SIGKILL');
      await until(launch, new RegExp(`starting it again in ${(0.1 * 2 ** (restarts - 1)).toFixed(1)} s`), 10_000);
      const readyAgain = () => count(launch.output(), /records ready again/) >= restarts;
      for (let waited = 0; !readyAgain(); waited += 100) {
        if (waited > 40_000) throw new Error(`records not ready again:\n${launch.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    process.kill(servicePid(launcher, 'records')!, 'SIGKILL');
    expect(await launch.exited).toBe(1);
    expect(launch.output()).toMatch(/records keeps stopping \(6 times within 60 s, last with signal SIGKILL\); see .*records\.log; stopping rex/);
    for (let waited = 0; waited < 20_000 && isAlive(launcher); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isAlive(launcher)).toBe(false);
    expect(['search', 'reports', 'media', 'gateway'].map((name) => servicePid(launcher, name))).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('the README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };

  it('claims the Node.js version that package.json requires', () => {
    const required = /^>=(\d+)$/.exec(packageJson.engines.node)![1];
    expect(readme).toContain(`Node.js ${required} or later`);
    expect(readme).not.toMatch(/Node\.js \(?(1[0-9])\b/);
  });

  it('maps questions to files that exist', () => {
    const section = readme.slice(readme.indexOf('## Where things are'));
    const next = section.indexOf('\n## ', 1);
    const table = next === -1 ? section : section.slice(0, next);
    const paths = [...table.matchAll(/`((?:services|libs|tools|scripts|e2e|charts|config|protos|docs)\/[^`*]+?)`/g)].map((m) => m[1]);
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((path) => !existsSync(join(ROOT, path.replace(/:.*$/, ''))))).toEqual([]);
  });

  it('and the other documents show root commands in a form that works with Node.js alone (npm run), naming scripts that exist', () => {
    const documents = [
      'README.md',
      'charts/README.md',
      ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
      ...readdirSync(join(ROOT, 'tools/admin/src')).map((name) => `tools/admin/src/${name}`),
    ];
    const scripts = Object.keys(packageJson.scripts);
    for (const document of documents) {
      const text = readFileSync(join(ROOT, document), 'utf8');
      const pnpmForms = [...text.matchAll(/\bpnpm ([a-z:]+)/g)].map((m) => m[1]).filter((name) => scripts.includes(name));
      expect({ document, pnpmForms }).toEqual({ document, pnpmForms: [] });
      const unknown = [...text.matchAll(/\bnpm run (?:-s )?([a-z:]+)/g)].map((m) => m[1]).filter((name) => !scripts.includes(name));
      expect({ document, unknown }).toEqual({ document, unknown: [] });
    }
  });
});
