// `npm run fuzz`: starts the suite on a fresh database and fuzzes every route
// (scripts/http-fuzz.ts). FUZZ_CASES (default 100 000) and FUZZ_SEED choose
// the run; it exits 1 when any answer is a server error or not JSON.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, dropDatabase, removeDataDirectory, startEmbeddedPostgres, type EmbeddedDatabase } from '@rex/db';
import { demoToken } from './demo-token.ts';
import { runHttpFuzz } from './http-fuzz.ts';
import { startSuite } from './suite.ts';

const cases = Number(process.env.FUZZ_CASES ?? 100_000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const say = (message: string) => process.stderr.write(`[fuzz] ${message}\n`);

const dataDir = mkdtempSync(join(tmpdir(), 'rex-fuzz-'));
let embedded: EmbeddedDatabase | undefined;
let serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  embedded = await startEmbeddedPostgres({ dataDir });
  serverUrl = embedded.url;
}
const databaseName = `rex_fuzz_${randomBytes(4).toString('hex')}`;
const databaseUrl = await createDatabase(serverUrl, databaseName);
const suite = await startSuite({ dataDir, databaseUrl, logs: join(dataDir, 'logs'), env: { LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true' } });
let failed = false;
try {
  say(`${cases} cases, seed ${seed}, against ${suite.gatewayUrl}`);
  const result = await runHttpFuzz({
    services: `${suite.gatewayUrl}/index.php/services/rest`,
    headers: { Authorization: `Bearer ${await demoToken(suite.demoPrivateKey)}` },
    cases,
    seed,
    onProgress: (done) => done % 10_000 === 0 && say(`${done} cases`),
  });
  process.stdout.write(`${JSON.stringify({ cases: result.cases, seed, seconds: result.seconds, casesPerSecond: Math.round(result.cases / result.seconds), byStatus: result.byStatus, failures: result.failures.length })}\n`);
  for (const failure of result.failures.slice(0, 20)) process.stdout.write(`${failure}\n`);
  // The suite must come out of it whole: every process still running and the gateway ready.
  const exited = Object.entries(suite.processes).filter(([, child]) => child.exitCode !== null || child.signalCode !== null).map(([name]) => name);
  const ready = await fetch(`${suite.gatewayUrl}/readyz`).then((answer) => answer.ok, () => false);
  if (exited.length || !ready) process.stdout.write(`after the run: ${exited.length ? `exited: ${exited.join(', ')}` : 'every process running'}; gateway ${ready ? 'ready' : 'NOT ready'}\n`);
  failed = result.failures.length > 0 || exited.length > 0 || !ready;
} finally {
  await suite.stop();
  await dropDatabase(serverUrl, databaseName).catch(() => undefined);
  await embedded?.stop();
  removeDataDirectory(dataDir);
}
process.exit(failed ? 1 : 0);
