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
import { mergeProcessCovs, type ProcessCov, type ScriptCov } from '@bcoe/v8-coverage';
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
    const scripts = serviceScripts();
    for (const script of scripts) map.merge(await toIstanbul(script));
    process.stderr.write(`[coverage] merged ${scripts.length} source files run by service processes\n`);
  }
}

/** What the service processes ran of the project's sources, merged over every process. */
function serviceScripts(): ScriptCov[] {
  const processes: ProcessCov[] = [];
  for (const name of readdirSync(RAW)) {
    if (!name.endsWith('.json')) continue;
    const result = (JSON.parse(readFileSync(join(RAW, name), 'utf8')) as ProcessCov).result;
    // A process that loaded Vitest is a test worker: Vitest's provider already counted what it ran
    // (its raw offsets are those of Vitest's transformed code, not of the file).
    if (result.some((script) => script.url.includes('/node_modules/vitest/'))) continue;
    processes.push({ result: result.filter((script) => isSource(script.url)) });
  }
  return processes.length === 0 ? [] : mergeProcessCovs(processes).result;
}

function isSource(url: string): boolean {
  if (!url.startsWith('file://')) return false;
  return SOURCE.test(relative(ROOT, fileURLToPath(url)));
}

/**
 * Node strips a TypeScript file's types by blanking them, so offsets into the
 * stripped code are offsets into the file: the istanbul locations are the file's own.
 */
async function toIstanbul(script: ScriptCov) {
  const code = stripTypeScriptTypes(readFileSync(fileURLToPath(script.url), 'utf8'), { mode: 'strip' });
  return astV8ToIstanbul({ code, ast: await parseAstAsync(code), coverage: { url: script.url, functions: script.functions }, wrapperLength: 0 });
}
