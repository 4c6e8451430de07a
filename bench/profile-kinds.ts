// Where a process's CPU went, by kind of work, from V8 CPU profiles (`REX_CPU_PROFILE_DIR`, or
// `--cpu-prof`): garbage collection, socket writes, grpc-js, Express and its router, the process's
// own code and so on, side by side for several profiles. Loading modules and exiting are left
// out, so that a profile of a whole benchmark run reads as its load.
//
//   node bench/profile-kinds.ts <profile>[=<CPU µs a request>] ...
//
// With the CPU a request of each process (as the benchmark prints it), each kind is given in µs a
// request, its share of that CPU; otherwise in ms of the profile.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

type Profile = {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
};

/** Kinds of work, the first whose pattern matches a function (its name and script) wins; null: not work. */
const KINDS: [RegExp, string | null][] = [
  [/^\(idle\) /, null],
  [/node:internal\/modules|node:internal\/bootstrap|compileFunction|compileSourceTextModule|readFileUtf8|readPackageJSON|internalModuleStat|realpathSync|wrapSafe|typescript-cache|ModuleWrap/, null],
  [/^reallyExit /, null],
  [/^\(garbage collector\) /, 'garbage collection'],
  [/^\(program\) /, 'V8 and Node.js natives (program)'],
  [/^(writeUtf8String|writeBuffer|writev|writeLatin1String) |node:internal\/stream_base_commons/, 'socket reads and writes'],
  [/@grpc\/grpc-js/, 'grpc-js'],
  [/@grpc\/proto-loader|protobufjs|\/long\/| :3$|\$(encode|decode|fromObject|toObject) /, 'protobuf'],
  [/node:internal\/http2/, "Node.js's HTTP/2"],
  [/node:_http_|node:http /, "Node.js's HTTP/1.1"],
  [/\/(express|router|path-to-regexp|parseurl|finalhandler|on-finished|content-type|mime-types|accepts|negotiator|vary|qs|body-parser|raw-body|debug)\//, 'Express and its router'],
  [/prom-client/, 'prom-client'],
  [/node:internal\/crypto|^(hash|hmac|update|digest) /, 'crypto'],
  [/async_hooks|async_context|async_local_storage/, 'async context'],
  [/node:internal\/streams/, 'streams'],
  [/node:events/, 'events'],
  [/node:internal\/timers|^getLibuvNow /, 'timers'],
  [/task_queues|^runMicrotasks /, 'ticks and microtasks'],
  [/node:buffer|node:internal\/buffer|^(utf8Slice|base64urlSlice|latin1Slice) /, 'buffers'],
  [/\/(services|libs|floors)\//, 'own code'],
];

function kindOf(functionName: string, url: string): string | null {
  const frame = `${functionName || '(anonymous)'} ${url}`;
  for (const [pattern, kind] of KINDS) if (pattern.test(frame)) return kind;
  return 'other';
}

/** Milliseconds of work by kind in one profile. */
function kindsOf(file: string): Map<string, number> {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const kinds = new Map<string, number>();
  for (const node of profile.nodes) {
    const kind = kindOf(node.callFrame.functionName, node.callFrame.url);
    const ms = selfMs.get(node.id) ?? 0;
    if (kind !== null && ms > 0) kinds.set(kind, (kinds.get(kind) ?? 0) + ms);
  }
  return kinds;
}

const args = process.argv.slice(2);
if (!args.length) {
  process.stderr.write('usage: node bench/profile-kinds.ts <profile>[=<CPU µs a request>] ...\n');
  process.exit(2);
}
const columns = args.map((arg) => {
  const [, file, perRequest] = /^(.*?)(?:=(\d+(?:\.\d+)?))?$/.exec(arg)!;
  const kinds = kindsOf(file);
  const busy = [...kinds.values()].reduce((sum, ms) => sum + ms, 0);
  // In µs a request when given, each kind by its share of the profile's work; else the profile's ms.
  const scale = perRequest ? Number(perRequest) / busy : 1;
  return { name: basename(file), kinds, busy, scale, unit: perRequest ? 'µs a request' : 'ms' };
});
const names = [...new Set(columns.flatMap((column) => [...column.kinds.keys()]))];
const first = columns[0];
names.sort((a, b) => (first.kinds.get(b) ?? 0) - (first.kinds.get(a) ?? 0));
const cell = (column: (typeof columns)[number], kind: string) => {
  const ms = column.kinds.get(kind) ?? 0;
  return `${(ms * column.scale).toFixed(column.scale === 1 ? 0 : 1)} (${((100 * ms) / column.busy).toFixed(1)} %)`;
};
process.stdout.write(`| kind | ${columns.map((column) => `${column.name}, ${column.unit}`).join(' | ')} |\n`);
process.stdout.write(`|---|${columns.map(() => '---:').join('|')}|\n`);
for (const kind of names) process.stdout.write(`| ${kind} | ${columns.map((column) => cell(column, kind)).join(' | ')} |\n`);
process.stdout.write(`| all | ${columns.map((column) => (column.busy * column.scale).toFixed(column.scale === 1 ? 0 : 1)).join(' | ')} |\n`);
