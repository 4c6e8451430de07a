import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'rex-interrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A run that has made something (a marker file) and waits, as the benchmark and the soak do, until it is signalled. */
async function interruptedRun(signal: NodeJS.Signals): Promise<{ code: number | null; made: string; stderr: string }> {
  const made = join(dir, `made-${signal}`);
  const script = `
    import { writeFileSync, rmSync } from 'node:fs';
    import { cleanUpOnInterrupt } from ${JSON.stringify(join(import.meta.dirname, '..', 'interrupt.ts'))};
    writeFileSync(${JSON.stringify(made)}, '');
    cleanUpOnInterrupt(async () => { await new Promise((resolve) => setTimeout(resolve, 50)); rmSync(${JSON.stringify(made)}); });
    process.stdout.write('ready\\n');
    setInterval(() => undefined, 1000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  await once(child.stdout, 'data');
  expect(existsSync(made)).toBe(true);
  child.kill(signal);
  // A second signal while cleaning up does not cut the clean-up short.
  setTimeout(() => child.kill(signal), 10);
  const [code] = await once(child, 'exit');
  return { code, made, stderr };
}

describe('an interrupted run', () => {
  it('when it gets Ctrl+C (SIGINT), then it removes what it made and exits 130', async () => {
    const run = await interruptedRun('SIGINT');
    expect(run.code).toBe(130);
    expect(existsSync(run.made)).toBe(false);
    expect(run.stderr).toContain('SIGINT: stopping the services');
  });

  it('when it is told to stop (SIGTERM), then it removes what it made and exits 143', async () => {
    const run = await interruptedRun('SIGTERM');
    expect(run.code).toBe(143);
    expect(existsSync(run.made)).toBe(false);
  });
});
