// Strips the types of the workspace's TypeScript modules ahead of time, into the copies
// register.mjs loads: `node libs/typescript-cache/src/strip.ts <folder>…` (the images do it when
// they are built) or `stripAhead` (the suite does it before it starts the services).
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { dirname, join } from 'node:path';
import { CACHE_DIR, strippedPath } from './cache.mjs';

/** Folders a service never loads a module from. */
const SKIPPED = new Set(['node_modules', 'test', 'coverage']);

export type Stripped = { stripped: number; kept: number; refused: number };

/**
 * Writes the stripped copy of every `.ts` module (not `.d.ts`) under `folders` that has none yet;
 * a module that cannot be stripped (syntax that is not erasable, or an error) gets none.
 * Only ES modules (a package.json with "type": "module" above them) are copied, as register.mjs
 * loads every copy as one. A copy is written whole or not at all (a temporary file, renamed), so
 * suites starting at once may share the folder.
 */
export function stripAhead(folders: string[], dir = CACHE_DIR): Stripped {
  const counts: Stripped = { stripped: 0, kept: 0, refused: 0 };
  const isModule = packageTypeIsModule();
  mkdirSync(dir, { recursive: true });
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name) && !entry.name.startsWith('.')) visit(path);
      } else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && isModule(folder)) {
        const source = readFileSync(path);
        const target = strippedPath(source, dir);
        if (existsSync(target)) {
          counts.kept += 1;
          continue;
        }
        let code: string;
        try {
          code = stripTypeScriptTypes(source.toString('utf8'));
        } catch {
          // Not erasable TypeScript, or not TypeScript at all: Node.js says why when it loads it.
          counts.refused += 1;
          continue;
        }
        const temporary = `${target}.${process.pid}.tmp`;
        writeFileSync(temporary, code);
        renameSync(temporary, target);
        counts.stripped += 1;
      }
    }
  };
  for (const folder of folders) visit(folder);
  return counts;
}

/** Whether the nearest package.json above a folder says "type": "module" (remembered per folder). */
function packageTypeIsModule(): (folder: string) => boolean {
  const known = new Map<string, boolean>();
  const isModule = (folder: string): boolean => {
    const remembered = known.get(folder);
    if (remembered !== undefined) return remembered;
    const manifest = join(folder, 'package.json');
    const parent = dirname(folder);
    const answer = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: string }).type === 'module' : parent !== folder && isModule(parent);
    known.set(folder, answer);
    return answer;
  };
  return isModule;
}

if (import.meta.main) {
  const { stripped, kept, refused } = stripAhead(process.argv.slice(2));
  console.log(`typescript-cache: ${stripped} modules stripped, ${kept} already were, ${refused} could not be, in ${CACHE_DIR}`);
}
