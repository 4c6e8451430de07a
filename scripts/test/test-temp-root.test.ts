import { existsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import setup from '../test-temp-root.ts';

describe("the test run's temporary directory", () => {
  const saved = { root: process.env.REX_TEST_TEMP_ROOT, tmpdir: process.env.TMPDIR };
  beforeEach(() => {
    delete process.env.REX_TEST_TEMP_ROOT;
  });
  afterEach(() => {
    for (const [name, value] of [['REX_TEST_TEMP_ROOT', saved.root], ['TMPDIR', saved.tmpdir]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('when the run starts, then temporary files go under one new directory, and when it ends that directory is gone with what was left in it', () => {
    const teardown = setup();
    const root = process.env.REX_TEST_TEMP_ROOT!;
    expect(tmpdir()).toBe(root);
    expect(existsSync(root)).toBe(true);
    // Like /tmp: any user may enter it and make files in it.
    expect(statSync(root).mode & 0o7777).toBe(0o1777);
    writeFileSync(join(tmpdir(), 'left-behind'), 'x');
    teardown!();
    expect(existsSync(root)).toBe(false);
  });

  it('when a second project of the run sets up, then it keeps the first one’s directory and leaves its removal to it', () => {
    const teardown = setup();
    const root = process.env.REX_TEST_TEMP_ROOT!;
    expect(setup()).toBeUndefined();
    expect(tmpdir()).toBe(root);
    teardown!();
  });
});
