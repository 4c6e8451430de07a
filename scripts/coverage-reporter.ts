// Adds the coverage of the service processes the tests start to `vitest --coverage`.
//
// Vitest measures only the code its own workers run; the e2e tier runs the
// services as processes of their own. With coverage on, this reporter has every
// process started after it (workers and the services they start) write V8's raw
// coverage into one directory, stops the e2e suite (a process writes its
// coverage when it exits) and merges what the services ran into Vitest's map
// before Vitest reports it and checks the thresholds.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import astV8ToIstanbul from 'ast-v8-to-istanbul';
import { parseAstAsync, type Reporter, type Vitest } from 'vitest/node';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RAW = join(ROOT, 'coverage', '.processes');
/** Source files of services and libs, as the services load them (type-stripped, not bundled). */
const SOURCE = /^(services|libs)\/[^/]+\/src\/(?!generated\/).*\.ts$/;

const STOP_SUITE = Symbol.for('rex.e2e.stopSuite');

/** The e2e global setup registers how to stop its suite, so that the suite writes its coverage before it is read. */
export function registerSuiteStop(stop: () => Promise<void>): void {
  (globalThis as Record<symbol, unknown>)[STOP_SUITE] = stop;
}

export default class ServiceCoverageReporter implements Reporter {
  private enabled = false;

  onInit(vitest: Vitest): void {
    this.enabled = vitest.config.coverage.enabled;
    if (!this.enabled) return;
    rmSync(RAW, { recursive: true, force: true });
    mkdirSync(RAW, { recursive: true });
    // Read by each process at its start: Vitest's own process is already running and writes nothing.
    process.env.NODE_V8_COVERAGE = RAW;
  }

  async onCoverage(coverage: unknown): Promise<void> {
    if (!this.enabled) return;
    const stop = (globalThis as Record<symbol, unknown>)[STOP_SUITE] as (() => Promise<void>) | undefined;
    await stop?.();
    const map = coverage as { merge(data: unknown): void };
    const sources = new Map<string, Promise<Source>>();
    let processes = 0;
    for (const scripts of serviceProcesses()) {
      processes++;
      for (const script of scripts) {
        if (!sources.has(script.url)) sources.set(script.url, readSource(script.url));
        // Same file, same conversion: the maps of two processes have the same keys, and merging adds their counts.
        map.merge(await toIstanbul(await sources.get(script.url)!, script));
      }
    }
    process.stderr.write(`[coverage] merged ${sources.size} source files run by ${processes} service processes\n`);
  }
}

/** One V8 script coverage: a file and the count of each range of each function. */
type ScriptCoverage = { url: string; functions: { functionName: string; isBlockCoverage: boolean; ranges: { startOffset: number; endOffset: number; count: number }[] }[] };
type Source = { code: string; ast: Awaited<ReturnType<typeof parseAstAsync>> };

/** For each service process, what it ran of the project's sources. */
function* serviceProcesses(): Generator<ScriptCoverage[]> {
  for (const name of readdirSync(RAW)) {
    if (!name.endsWith('.json')) continue;
    const result = (JSON.parse(readFileSync(join(RAW, name), 'utf8')) as { result: ScriptCoverage[] }).result;
    // A process that loaded Vitest is a test worker: Vitest's provider already counted what it ran
    // (its raw offsets are those of Vitest's transformed code, not of the file).
    if (result.some((script) => script.url.includes('/node_modules/vitest/'))) continue;
    yield result.filter((script) => isSource(script.url));
  }
}

function isSource(url: string): boolean {
  if (!url.startsWith('file://')) return false;
  return SOURCE.test(relative(ROOT, fileURLToPath(url)));
}

/**
 * Node strips a TypeScript file's types by blanking them, so offsets into the
 * stripped code are offsets into the file: the istanbul locations are the file's own.
 */
async function readSource(url: string): Promise<Source> {
  const code = stripTypeScriptTypes(readFileSync(fileURLToPath(url), 'utf8'), { mode: 'strip' });
  return { code, ast: await parseAstAsync(code) };
}

function toIstanbul({ code, ast }: Source, script: ScriptCoverage) {
  return astV8ToIstanbul({ code, ast, coverage: { url: script.url, functions: script.functions }, wrapperLength: 0 });
}
