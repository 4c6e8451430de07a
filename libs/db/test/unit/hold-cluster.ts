// Runs the embedded PostgreSQL of the data directory given as argument, as a
// separate process would (a running `npm start`): prints {pid, port, url} and
// keeps it until SIGTERM.
import { startEmbeddedPostgres } from '../../src/embedded.ts';

const database = await startEmbeddedPostgres({ dataDir: process.argv[2] });
process.stdout.write(`${JSON.stringify({ pid: process.pid, port: database.port, url: database.url })}\n`);
process.once('SIGTERM', () => void database.stop().then(() => process.exit(0)));
setInterval(() => undefined, 60_000);
