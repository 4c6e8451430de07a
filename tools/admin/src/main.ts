import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createPool } from '@rex/db';
import { openDatabase } from './database.ts';
import { FixturesError, parseFixtures } from './fixtures.ts';
import { ImportError, importFixtures } from './import.ts';

const USAGE = `usage: pnpm admin <command>

commands:
  import --file <fixtures.json>   create or update websites, users and roles, surveys, taxa,
                                  attributes, clients and connections, locations and occurrence
                                  comments, keeping the ids given; all or nothing

The database is DATABASE_URL when set, else the running local suite's, else the
embedded one under REX_DATA_DIR.`;

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

async function runImport(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { file: { type: 'string', short: 'f' } }, strict: true });
  if (!values.file) fail(`import needs --file <fixtures.json>\n\n${USAGE}`, 2);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(values.file, 'utf8'));
  } catch (error) {
    fail(`cannot read ${values.file}: ${(error as Error).message}`);
  }
  const fixtures = parseFixtures(raw);
  const database = await openDatabase(process.env);
  const pool = createPool(database.url, { max: 2, applicationName: 'rex-admin' });
  try {
    const counts = await importFixtures(pool, fixtures);
    const summary = Object.entries(counts).map(([key, n]) => `${n} ${key}`).join(', ') || 'nothing';
    process.stdout.write(`imported ${summary} from ${values.file}\n`);
  } finally {
    await pool.end();
    await database.close();
  }
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'import') await runImport(rest);
  else if (!command || command === 'help' || command === '--help') process.stdout.write(`${USAGE}\n`);
  else fail(`unknown command ${command}\n\n${USAGE}`, 2);
} catch (error) {
  if (error instanceof FixturesError || error instanceof ImportError) fail(`import failed, nothing was changed:\n${error.message}`);
  if (error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) fail(`${error.message}\n\n${USAGE}`, 2);
  throw error;
}
