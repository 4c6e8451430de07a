// `npm start`: the whole suite on this machine, with a line for each step
// as it starts (seconds since the command was typed).
import { join } from 'node:path';
import { DEFAULT_DATA_DIR, DEMO } from '@rex/admin';
import { demoToken } from './demo-token.ts';
import { RESTART_POLICY } from './restart-policy.ts';
import { startSuite, type Suite } from './suite.ts';

// From the bootstrap's start when it launched this process.
const started = Number(process.env.REX_LAUNCHED_AT) || Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const dataDir = process.env.REX_DATA_DIR ?? DEFAULT_DATA_DIR;
const logs = join(dataDir, 'logs');
const say = (message: string) => process.stderr.write(`[rex] ${seconds().padStart(4)} s  ${message}\n`);

// With the terminal or pipe gone, writing fails (EPIPE): the suite must still be stopped, not left behind.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

const port = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);

function milliseconds(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,7}$/.test(value)) {
    process.stderr.write(`[rex] ${name} must be a whole number of milliseconds, not ${JSON.stringify(value)}\n`);
    process.exit(2);
  }
  return Number(value);
}
const restartPolicy = { ...RESTART_POLICY, firstDelayMs: milliseconds('REX_RESTART_DELAY_MS', RESTART_POLICY.firstDelayMs) };

let suite: Suite | undefined;
let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  say('stopping');
  await suite?.stop();
  process.exit(code);
};

suite = await startSuite({
  dataDir,
  databaseUrl: process.env.DATABASE_URL,
  gatewayPort: Number(process.env.GATEWAY_PORT ?? 8080),
  recordsPort: port('RECORDS_PORT'),
  searchPort: port('SEARCH_PORT'),
  reportsPort: port('REPORTS_PORT'),
  mediaPort: port('MEDIA_PORT'),
  logs,
  onProgress: say,
  // A service that stops on its own is started again; one that keeps stopping stops the suite.
  supervise: {
    policy: restartPolicy,
    onGiveUp: (message) => {
      say(`${message}; stopping rex`);
      void stop(1);
    },
  },
}).catch((error: Error) => {
  say(`could not start: ${error.message}`);
  process.exit(1);
});

const token = await demoToken(suite.demoPrivateKey);
const services = `${suite.gatewayUrl}/index.php/services/rest`;
process.stdout.write(`
rex is running (ready in ${seconds()} s)
  API:       ${services}
  database:  ${process.env.DATABASE_URL ? 'DATABASE_URL' : `embedded PostgreSQL, data in ${join(dataDir, 'pg')}`}
  logs:      ${logs}

Demo user ${DEMO.userId} of website ${DEMO.websiteId} (${DEMO.websiteUrl}); this token is valid for 24 hours:

export TOKEN=${token}

curl -s -X POST ${services}/samples \\
  -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
  -d '{"values": {"survey_id": ${DEMO.surveyId}, "date": "2026-05-01", "entered_sref": "SU1234", "entered_sref_system": "OSGB",
       "smpAttr:${DEMO.weatherAttributeId}": "Sunny"},
       "occurrences": [{"values": {"taxa_taxon_list_id": 1, "occAttr:${DEMO.countAttributeId}": "2"}}]}'

curl -s ${services}/samples/1 -H "Authorization: Bearer $TOKEN"

Press Ctrl+C to stop.
`);

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
