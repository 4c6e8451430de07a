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
    const map = coverage as CoverageMap;
    const sources = new Map<string, Promise<Source>>();
    let processes = 0;
    const tally = { run: 0, matched: 0 };
    const targets = new Map<string, Target>();
    for (const scripts of serviceProcesses()) {
      processes++;
      for (const script of scripts) {
        if (!sources.has(script.url)) sources.set(script.url, readSource(script.url));
        const converted = await toIstanbul(await sources.get(script.url)!, script);
        for (const [path, counted] of Object.entries(converted)) addCounts(map, targets, path, counted, tally);
      }
    }
    process.stderr.write(
      `[coverage] merged ${sources.size} source files run by ${processes} service processes; ${tally.matched} of ${tally.run} statements they ran start where one of Vitest's does\n`,
    );
  }
}

type Position = { line: number; column: number };
type Range = { start: Position; end: Position };
/** A file's istanbul coverage, as Vitest's map holds it. */
type FileData = {
  statementMap: Record<string, Range>;
  s: Record<string, number>;
  fnMap: Record<string, { decl: Range; loc: Range }>;
  f: Record<string, number>;
  branchMap: Record<string, { loc: Range; locations: Range[] }>;
  b: Record<string, number[]>;
};
type CoverageMap = { files(): string[]; fileCoverageFor(path: string): { data: FileData }; addFileCoverage(data: unknown): void };

const at = ({ start }: Range) => `${start.line}:${start.column}`;

/** Vitest's coverage of one file, with its statements, functions and branches by where each starts. */
type Target = { data: FileData; statements: Map<string, string>; functions: Map<string, string>; branches: Map<string, string> };

function targetOf(data: FileData): Target {
  return {
    data,
    statements: new Map(Object.entries(data.statementMap).map(([id, range]) => [at(range), id])),
    // A function by where its name is, or else where it starts (the two conversions differ on some arrow functions).
    functions: new Map(Object.entries(data.fnMap).flatMap(([id, fn]) => [[`loc ${at(fn.loc)}`, id] as const, [at(fn.decl), id] as const])),
    branches: new Map(Object.entries(data.branchMap).map(([id, branch]) => [at(branch.loc), id])),
  };
}

/**
 * Adds what a service process ran of `path` onto Vitest's own statements, functions and branches,
 * matched by where each starts. Vitest's map keeps its shape, so every figure counts each statement
 * once; a statement of the process's conversion that starts nowhere Vitest's does is left out, so
 * the figures can read lower than the truth, never higher. A file Vitest has no map of is added whole.
 */
function addCounts(map: CoverageMap, targets: Map<string, Target>, path: string, counted: FileData, tally: { run: number; matched: number }): void {
  let target = targets.get(path);
  if (!target) {
    if (!map.files().includes(path)) {
      map.addFileCoverage(counted);
      return;
    }
    target = targetOf(map.fileCoverageFor(path).data);
    targets.set(path, target);
  }
  const { data, statements, functions, branches } = target;
  for (const [id, range] of Object.entries(counted.statementMap)) {
    if (!counted.s[id]) continue;
    const match = statements.get(at(range));
    tally.run++;
    if (match === undefined) continue;
    tally.matched++;
    data.s[match] += counted.s[id];
  }
  for (const [id, fn] of Object.entries(counted.fnMap)) {
    const match = functions.get(at(fn.decl)) ?? functions.get(`loc ${at(fn.loc)}`);
    if (match !== undefined && counted.f[id]) data.f[match] += counted.f[id];
  }
  for (const [id, branch] of Object.entries(counted.branchMap)) {
    const match = branches.get(at(branch.loc));
    if (match === undefined || data.b[match].length !== counted.b[id].length) continue;
    counted.b[id].forEach((count, i) => (data.b[match][i] += count));
  }
}

/** One V8 script coverage: a file and the count of each range of each function. */
type ScriptCoverage = { url: string; functions: { functionName: string; isBlockCoverage: boolean; ranges: { startOffset: number; endOffset: number; count: number }[] }[] };
type Source = { code: string; ast: Awaited<ReturnType<typeof parseAstAsync>> };

/** For each service process, what it ran of the project's sources. */
function* serviceProcesses(): Generator<ScriptCoverage[]> {
  for (const name of readdirSync(RAW)) {
    if (!name.endsWith('.json')) continue;
    const result = readProcessFile(join(RAW, name));
    if (!result) continue;
    // A process that loaded Vitest is a test worker: Vitest's provider already counted what it ran
    // (its raw offsets are those of Vitest's transformed code, not of the file).
    if (result.some((script) => script.url.includes('/node_modules/vitest/'))) continue;
    yield result.filter((script) => isSource(script.url));
  }
}

/**
 * A process writes its file as it exits; one that was only signalled may still be writing it:
 * read again after a moment, then leave it out, saying so.
 */
function readProcessFile(file: string): ScriptCoverage[] | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return (JSON.parse(readFileSync(file, 'utf8')) as { result: ScriptCoverage[] }).result;
    } catch {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  process.stderr.write(`[coverage] left out ${file}: not complete JSON\n`);
  return undefined;
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

async function toIstanbul({ code, ast }: Source, script: ScriptCoverage): Promise<Record<string, FileData>> {
  return astV8ToIstanbul({ code, ast, coverage: { url: script.url, functions: script.functions }, wrapperLength: 0 });
}
