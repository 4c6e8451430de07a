// `npm run chaos`: the suite (embedded PostgreSQL unless DATABASE_URL is given)
// with two records and two reports replicas, driven by clients that behave
// like the recording apps while processes are killed, database connections
// terminated and the database restarted; then an audit of what was
// acknowledged against what is stored. Exits 1 on any loss, duplicate,
// orphan, read-model mismatch or unconfirmed file.
//   --count N       submissions (default 10 000)     --seconds S   stop sending after S seconds
//   --clients N     concurrent clients (default 8)    --faults A-B  milliseconds between faults (default 1000-3000)
//   --keep          keep the run's database and logs
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, createPool, dropDatabase, removeDataDirectory, startEmbeddedPostgres, type EmbeddedDatabase } from '@rex/db';
import { migrateAll, seedDemo } from '@rex/admin';
import { demoToken } from '../demo-token.ts';
import { submitLikeAnApp, type Outcome } from './app-client.ts';
import { audit } from './audit.ts';
import { startFaults } from './faults.ts';
import { startFleet } from './fleet.ts';

const say = (message: string) => process.stderr.write(`[chaos] ${message}\n`);

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    seconds: { type: 'string' },
    clients: { type: 'string', default: '8' },
    faults: { type: 'string', default: '1000-3000' },
    keep: { type: 'boolean', default: false },
  },
});
const count = Number(args.count);
const clients = Number(args.clients);
const [faultMin, faultMax] = args.faults!.split('-').map(Number);
if (!(count > 0) || !(clients > 0) || !(faultMin > 0) || !(faultMax >= faultMin)) {
  say('usage: npm run chaos -- [--count N] [--seconds S] [--clients N] [--faults MIN-MAX] [--keep]');
  process.exit(2);
}
const sendUntil = args.seconds ? Date.now() + Number(args.seconds) * 1000 : Infinity;

const run = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'rex-chaos-'));
let embedded: EmbeddedDatabase | undefined;
let serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  say('starting an embedded PostgreSQL');
  embedded = await startEmbeddedPostgres({ dataDir });
  serverUrl = embedded.url;
}
const databaseName = `rex_chaos_${run}`;
const databaseUrl = await createDatabase(serverUrl, databaseName);
const admin = createPool(databaseUrl, { max: 2, applicationName: 'rex-chaos' });
await migrateAll(admin);
const { privateKey } = await seedDemo(admin, dataDir);
const bearer = await demoToken(privateKey);

say(`run ${run}: starting two records and two reports replicas, media, search and the gateway`);
const fleet = await startFleet({ databaseUrl, dataDir, secret: randomBytes(32).toString('hex') });

const restartDatabase = async (): Promise<string> => {
  if (embedded) {
    const port = embedded.port;
    await embedded.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    embedded = await startEmbeddedPostgres({ dataDir, port });
    return 'PostgreSQL restarted';
  }
  // The machine's PostgreSQL serves others too: every connection of this run's database is cut instead.
  const { rowCount } = await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name <> 'rex-chaos'`,
    [databaseName],
  );
  return `every connection of the run's database terminated (${rowCount}); the server is shared, so it is not restarted`;
};
const faults = startFaults({ fleet, admin, databaseName, restartDatabase, intervalMs: [faultMin, faultMax], log: say });

const outcomes: Outcome[] = [];
let next = 0;
// Ctrl-C (or SIGTERM) ends the sending early; what was sent is still audited.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    say(`${signal}: no more submissions; finishing those under way, then the audit`);
  });
}
let lastAnswerAt = Date.now();
const started = Date.now();
const progress = setInterval(() => say(`${outcomes.length}/${count} answered, ${outcomes.filter((o) => o.status === 201).length} acknowledged`), 5_000);
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (next < count && Date.now() < sendUntil && !interrupted) {
      const n = next++;
      const outcome = await submitLikeAnApp(fleet.gatewayUrl, bearer, run, n);
      if (outcome.status !== 201) say(`not acknowledged: ${outcome.externalKey}: ${outcome.status} ${outcome.problem ?? ''}`);
      outcomes.push(outcome);
      lastAnswerAt = Date.now();
    }
  }),
);
clearInterval(progress);
const sending = (Date.now() - started) / 1000;
const faultLog = await faults.stop();
say(`${outcomes.length} submissions answered in ${sending.toFixed(0)} s under ${faultLog.length} faults; bringing every process back before the audit`);
for (const member of fleet.members) {
  if (!member.child || member.child.exitCode !== null || member.child.signalCode !== null) fleet.start(member);
}
await Promise.all(fleet.members.map((member) => fleet.ready(member, 60_000)));

const result = await audit(admin, run, outcomes, join(dataDir, 'media'));
const catchUp = result.readModelCaughtUpAt === null ? 'not within a minute' : `${Math.max(0, (result.readModelCaughtUpAt - lastAnswerAt) / 1000).toFixed(1)} s after the last answer`;
const refused = outcomes.filter((outcome) => outcome.status !== 201);
const rows: [string, string | number][] = [
  ['submissions sent', outcomes.length],
  ['acknowledged (201, replays included)', result.acknowledged],
  ['  of them replays of a lost answer', outcomes.filter((outcome) => outcome.replayed).length],
  ['not acknowledged (final answer not 201)', refused.length],
  ['attempts (uploads and submissions)', outcomes.reduce((sum, outcome) => sum + outcome.attempts, 0)],
  ['faults', faultLog.length],
  ['samples present', result.present],
  ['lost (acknowledged, absent)', result.lost.length],
  ['partial (children or values missing)', result.partial.length],
  ['duplicated', result.duplicated.length],
  ['saved without acknowledgment', result.unacknowledged.length],
  ['orphans', result.orphans.length],
  ['read-model mismatches', result.readModelMismatches.length],
  ['read model caught up', catchUp],
  ['media files unconfirmed', result.unconfirmedMedia],
];
const width = Math.max(...rows.map(([label]) => label.length));
process.stdout.write(`\nchaos run ${run} (${databaseName}), ${clients} clients, faults every ${faultMin}-${faultMax} ms\n`);
for (const [label, value] of rows) process.stdout.write(`  ${label.padEnd(width)}  ${value}\n`);
const details: [string, string[]][] = [
  ['lost', result.lost],
  ['partial', result.partial],
  ['duplicated', result.duplicated],
  ['orphans', result.orphans],
  ['read-model mismatches', result.readModelMismatches],
  ['not acknowledged', refused.map((outcome) => `${outcome.externalKey}: ${outcome.status} ${outcome.problem ?? ''}`)],
];
for (const [label, items] of details) if (items.length) process.stdout.write(`\n${label}:\n${items.slice(0, 20).map((item) => `  ${item}`).join('\n')}\n`);
process.stdout.write(`\nfaults:\n${faultLog.map((fault) => `  ${(fault.at / 1000).toFixed(1).padStart(6)} s  ${fault.fault}`).join('\n')}\n`);

const failed =
  result.lost.length + result.partial.length + result.duplicated.length + result.orphans.length + result.readModelMismatches.length + result.unconfirmedMedia > 0 ||
  result.readModelCaughtUpAt === null ||
  refused.length > 0;
await fleet.stopAll();
await admin.end();
if (!args.keep) {
  await dropDatabase(serverUrl, databaseName).catch(() => undefined);
}
await embedded?.stop();
if (!args.keep) removeDataDirectory(dataDir);
else say(`kept: database ${databaseName}, logs in ${join(dataDir, 'logs')}`);
process.exit(failed ? 1 : 0);
