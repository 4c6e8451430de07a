// Regenerates libs/protos/src/generated from protos/ with the loader's own options.
// `npm run protos:generate`; CI runs it and fails when the committed types differ.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { LOADER_OPTIONS, PROTO_FILES, PROTOS_DIR } from '../src/options.ts';

const require = createRequire(import.meta.url);
const generator = require.resolve('@grpc/proto-loader/build/bin/proto-loader-gen-types.js');
const outDir = fileURLToPath(new URL('../src/generated', import.meta.url));

rmSync(outDir, { recursive: true, force: true });
const flags = [
  `--longs=${LOADER_OPTIONS.longs.name}`,
  `--enums=${LOADER_OPTIONS.enums.name}`,
  ...(LOADER_OPTIONS.keepCase ? ['--keepCase'] : []),
  ...(LOADER_OPTIONS.defaults ? ['--defaults'] : []),
  ...(LOADER_OPTIONS.oneofs ? ['--oneofs'] : []),
  '--grpcLib=@grpc/grpc-js',
  '--importFileExtension=.ts',
  "-I=.",
  `-O=${outDir}`,
];
const result = spawnSync(process.execPath, [generator, ...flags, ...PROTO_FILES], { cwd: PROTOS_DIR, stdio: "inherit" });
process.exit(result.status ?? 1);
