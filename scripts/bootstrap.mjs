// Entry point of the root commands. Runs on Node.js 20 or later: it installs
// the workspace (pnpm and Node.js 24 come from the npm registry) when needed,
// then hands over to the real command on Node.js 24.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pnpmVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
// The binary itself, not node_modules/.bin/node: that is a shell script, which
// would not pass a signal on to the command.
const node24 = join(root, 'node_modules', 'node', 'bin', 'node');
const marker = join(root, 'node_modules', '.modules.yaml');

const commands = {
  start: ['scripts/start.ts'],
  admin: ['tools/admin/src/main.ts'],
  bench: ['bench/run.ts'],
  fuzz: ['scripts/fuzz.ts'],
  chaos: ['scripts/chaos/main.ts'],
  soak: ['scripts/soak/main.ts'],
  test: ['node_modules/vitest/vitest.mjs', 'run'],
  typecheck: ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'],
  protos: ['libs/protos/scripts/generate.ts'],
};

function log(message) {
  process.stderr.write(`[rex] ${message}\n`);
}

function needsInstall() {
  if (!existsSync(marker) || !existsSync(node24)) return true;
  const lock = join(root, 'pnpm-lock.yaml');
  return existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs;
}

function install() {
  log(`installing dependencies with pnpm ${pnpmVersion} (Node.js 24 and PostgreSQL binaries come from the npm registry; the first run takes a minute)…`);
  const args = ['-y', `pnpm@${pnpmVersion}`, 'install', '--reporter=append-only'];
  if (process.env.CI) args.push('--frozen-lockfile');
  const result = spawnSync('npx', args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    log('dependency installation failed; see the output above');
    process.exit(result.status ?? 1);
  }
}

const launchedAt = Date.now();
const [name, ...rest] = process.argv.slice(2);
const command = commands[name];
if (!command) {
  log(`unknown command ${name}; one of: ${Object.keys(commands).join(', ')}`);
  process.exit(2);
}
if (Number(process.versions.node.split('.')[0]) < 20) {
  log(`Node.js 20 or later is needed to install rex (this is ${process.version}); Node.js 24 itself then comes from the npm registry`);
  process.exit(1);
}
if (needsInstall()) install();

const env = {
  ...process.env,
  PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}`,
  // Compiled code of the modules is kept between runs: every process of the suite starts faster.
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(root, 'node_modules', '.cache', 'node-compile'),
  REX_LAUNCHED_AT: String(launchedAt),
};
const child = spawn(node24, ['--conditions=development', '--disable-warning=ExperimentalWarning', ...command, ...rest], {
  cwd: root,
  stdio: 'inherit',
  env,
});
// A signal to this process is the command's to handle: it stops what it started.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// npm passes a SIGTERM only to the shell it runs the script with, and neither that shell nor the
// node wrapper of node_modules/.bin passes it on: when npm is gone, the command is stopped as if
// it had the signal itself.
const npm = packageManagerProcess();
if (npm) {
  const watch = setInterval(() => {
    if (isAlive(npm)) return;
    clearInterval(watch);
    child.kill('SIGTERM');
  }, 500);
  watch.unref();
}

/** The npm (or pnpm) process running this script: the nearest ancestor that is not a shell (Linux). */
function packageManagerProcess() {
  if (!process.env.npm_lifecycle_event) return undefined;
  let pid = process.ppid;
  for (let depth = 0; depth < 4; depth++) {
    let program, stat;
    try {
      program = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return undefined;
    }
    if (!['sh', 'dash', 'bash'].includes(program.split('/').pop())) return pid;
    // "<pid> (<name>) <state> <ppid> ..."
    pid = Number(/\) \S+ (\d+)/.exec(stat)?.[1]);
  }
  return undefined;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
