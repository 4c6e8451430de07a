// Modules stripped ahead of time, loaded as the services load them: each run is a Node.js process
// of its own, started with the register hook, on a small package written to a temporary folder.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stripAhead } from '../../src/strip.ts';

const REGISTER = fileURLToPath(new URL('../../src/register.mjs', import.meta.url));

/** What the entry module prints: a value computed through an imported module, and whether Node.js loaded its type stripper. */
type Ran = { value: string; stripperLoaded: boolean };

const ENTRY = `import { greeting, type Greeting } from './greeting.ts';
const shown: Greeting = greeting('rex');
const stripperLoaded = process.moduleLoadList.some((loaded: string) => loaded.includes('amaro'));
console.log(JSON.stringify({ value: shown, stripperLoaded }));
`;
const GREETING = (word: string) => `export type Greeting = string;
export function greeting(name: string): Greeting {
  return '${word}, ' + name;
}
`;

let folder: string;
let cache: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'rex-typescript-cache-'));
  cache = join(folder, 'cache');
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(folder, 'entry.ts'), ENTRY);
  writeFileSync(join(folder, 'greeting.ts'), GREETING('hello'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

async function run(file = 'entry.ts', { hook = true } = {}): Promise<Ran> {
  const args = ['--disable-warning=ExperimentalWarning', ...(hook ? ['--import', REGISTER] : []), join(folder, file)];
  // Without Node.js's compile cache, which keeps stripped modules of its own between runs.
  const { NODE_COMPILE_CACHE: _compileCache, ...env } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, args, { env: { ...env, REX_TYPESCRIPT_CACHE: cache } });
  return JSON.parse(stdout) as Ran;
}

describe('modules stripped ahead of time', () => {
  it('when every module has a stripped copy, then the program runs from the copies and Node.js never loads its type stripper', async () => {
    expect(stripAhead([folder], cache)).toEqual({ stripped: 2, kept: 0, refused: 0 });
    expect(await run()).toEqual({ value: 'hello, rex', stripperLoaded: false });
  });

  it('without the hook, the same program loads the type stripper (what the copies save)', async () => {
    stripAhead([folder], cache);
    expect(await run('entry.ts', { hook: false })).toEqual({ value: 'hello, rex', stripperLoaded: true });
  });

  it('when a module changed after the copies were made, then it runs as it is now, stripped by Node.js', async () => {
    stripAhead([folder], cache);
    writeFileSync(join(folder, 'greeting.ts'), GREETING('good morning'));
    expect(await run()).toEqual({ value: 'good morning, rex', stripperLoaded: true });
  });

  it('when a module cannot be stripped (an enum is not erasable), then it gets no copy, the others do, and loading it fails as Node.js would fail it', async () => {
    writeFileSync(join(folder, 'colour.ts'), 'export enum Colour { Red }\n');
    expect(stripAhead([folder], cache)).toEqual({ stripped: 2, kept: 0, refused: 1 });
    await expect(run('colour.ts')).rejects.toThrow(/ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX|not supported in strip-only mode/);
  });

  it('when there are no copies at all, then the program runs as Node.js strips it', async () => {
    expect(await run()).toEqual({ value: 'hello, rex', stripperLoaded: true });
  });

  it("when a copied module throws, then the stack points at the TypeScript source's line and column", async () => {
    const third = 'const where: Place = { line: 3 }; console.log(JSON.stringify({ value: new Error(String(where.line)).stack!.split("\\n")[1], stripperLoaded: false }));';
    writeFileSync(join(folder, 'thrower.ts'), `type Place = {\n  line: number };\n${third}\n`);
    stripAhead([folder], cache);
    expect((await run('thrower.ts')).value).toContain(`${join(folder, 'thrower.ts')}:3:${third.indexOf('new Error') + 1}`);
  });

  it('when stripping again, then copies already made are kept; modules under node_modules, test folders and packages that are not ES modules are not copied', () => {
    for (const [path, type] of [['node_modules/dep', 'module'], ['test', 'module'], ['commonjs', 'commonjs']] as const) {
      mkdirSync(join(folder, path), { recursive: true });
      writeFileSync(join(folder, path, 'package.json'), JSON.stringify({ type }));
      writeFileSync(join(folder, path, 'skipped.ts'), `export const where: string = '${path}';\n`);
    }
    writeFileSync(join(folder, 'types.d.ts'), 'export type Nothing = never;\n');
    expect(stripAhead([folder], cache)).toEqual({ stripped: 2, kept: 0, refused: 0 });
    expect(stripAhead([folder], cache)).toEqual({ stripped: 0, kept: 2, refused: 0 });
    expect(readdirSync(cache).filter((name) => !name.endsWith('.js'))).toEqual([]);
    expect(existsSync(cache)).toBe(true);
  });
});
