import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest global setup: every temporary file of a test run (its workers' and the
 * service processes they start, which inherit TMPDIR) goes under one directory,
 * removed when the run ends, so that no test needs its own clean-up to leave
 * nothing behind. Each project of the run lists this setup; the first makes the
 * directory and the others find it made.
 */
export default function setup(): (() => void) | undefined {
  if (process.env.REX_TEST_TEMP_ROOT) return undefined;
  const root = mkdtempSync(join(tmpdir(), 'rex-test-run-'));
  // Open as /tmp is: the embedded database, run as another user when the tests run as root, must reach its files.
  chmodSync(root, 0o1777);
  process.env.REX_TEST_TEMP_ROOT = root;
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
