import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPool } from '@rex/db';
import { COMMANDS, CommandError, prepare, type Command } from './commands.ts';
import { openDatabase } from './database.ts';
import { FixturesError, parseFixtures } from './fixtures.ts';
import { importFixtures } from './import.ts';
import { FixtureError } from '@rex/db';
import { LOGIN_ROLES, applyBootstrap, bootstrapSql } from './roles.ts';

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, command]) => {
    const options = Object.entries(command.options)
      .map(([option, spec]) => {
        const shape = spec.type === 'boolean' ? `--[no-]${option}` : `--${option} <${spec.type === 'integer' ? 'n' : 'text'}>`;
        return spec.required ? shape : `[${shape}]`;
      })
      .join(' ');
    return `  ${name} ${options}\n      ${command.help}`;
  });
  return `usage: npm run admin -- <command> [options]

commands:
  import --file <fixtures.json>
      create or update websites, users and roles, surveys, taxa, attributes, licences, groups,
      sample methods, clients and connections, locations and occurrence comments, keeping the ids
      given; all or nothing
${lines.join('\n')}
  database roles [--apply] [--password-dir <dir>]
      print (or, with --apply, apply) the SQL that creates one least-privilege role per service
      (${LOGIN_ROLES.join(', ')}); --password-dir sets each role's password from the file
      named after it; run it as the database owner before the first install

The database is DATABASE_URL when set, else the running local suite's, else the embedded
one under REX_DATA_DIR. Changes reach a running gateway within its AUTH_CACHE_TTL_MS, and
records (surveys, taxa, licences, groups, sample methods) within its REFERENCE_CACHE_TTL_MS.`;
}

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

async function withPool<T>(fn: (pool: ReturnType<typeof createPool>) => Promise<T>): Promise<T> {
  const database = await openDatabase(process.env);
  const pool = createPool(database.url, { max: 2, applicationName: 'rex-admin' });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
    await database.close();
  }
}

async function runImport(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { file: { type: 'string', short: 'f' } }, strict: true });
  if (!values.file) fail(`import needs --file <fixtures.json>\n\n${usage()}`, 2);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(values.file, 'utf8'));
  } catch (error) {
    fail(`cannot read ${values.file}: ${(error as Error).message}`);
  }
  const fixtures = parseFixtures(raw);
  const counts = await withPool((pool) => importFixtures(pool, fixtures));
  const summary = Object.entries(counts).map(([key, n]) => `${n} ${key}`).join(', ') || 'nothing';
  process.stdout.write(`imported ${summary} from ${values.file}\n`);
}

async function runDatabaseRoles(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { apply: { type: 'boolean' }, 'password-dir': { type: 'string' } }, strict: true });
  const passwords: Record<string, string> = {};
  if (values['password-dir']) {
    for (const role of LOGIN_ROLES) {
      const file = join(values['password-dir'], role);
      if (existsSync(file)) passwords[role] = readFileSync(file, 'utf8').trim();
    }
  }
  if (!values.apply) {
    // Passwords stay out of what is printed.
    process.stdout.write(bootstrapSql());
    return;
  }
  const roles = await withPool((pool) => applyBootstrap(pool, passwords));
  const withPassword = roles.filter((role) => role in passwords);
  process.stdout.write(`roles ready: ${roles.join(', ')}${withPassword.length ? ` (passwords set: ${withPassword.join(', ')})` : ''}\n`);
}

async function runCommand(name: string, command: Command, args: string[]): Promise<void> {
  const options = Object.fromEntries(
    Object.entries(command.options).map(([option, spec]) => [option, { type: spec.type === 'boolean' ? ('boolean' as const) : ('string' as const) }]),
  );
  const { values } = parseArgs({ args, options, strict: true, allowNegative: true });
  const parsed: Record<string, string | number | boolean | undefined> = {};
  for (const [option, spec] of Object.entries(command.options)) {
    const value = values[option];
    if (value === undefined) {
      if (spec.required) fail(`${name} needs --${option} (${spec.help})`, 2);
      continue;
    }
    if (spec.type === 'integer') {
      if (typeof value !== 'string' || !/^[1-9]\d{0,17}$/.test(value)) fail(`--${option} must be a positive whole number`, 2);
      parsed[option] = Number(value);
    } else {
      parsed[option] = value as string | boolean;
    }
  }
  const output = await withPool(async (pool) => {
    await prepare(pool, command);
    return command.run(pool, parsed);
  });
  process.stdout.write(`${output}\n`);
}

const [first, second, ...rest] = process.argv.slice(2);
try {
  if (first === 'database' && second === 'roles') await runDatabaseRoles(rest);
  else if (first === 'import') await runImport([second, ...rest].filter((arg): arg is string => arg !== undefined));
  else if (!first || first === 'help' || first === '--help') process.stdout.write(`${usage()}\n`);
  else {
    const name = `${first} ${second ?? ''}`.trim();
    const command = COMMANDS[name];
    if (!command) fail(`unknown command ${name}\n\n${usage()}`, 2);
    await runCommand(name, command, rest);
  }
} catch (error) {
  if (error instanceof FixturesError || error instanceof FixtureError) fail(`import failed, nothing was changed:\n${error.message}`);
  if (error instanceof CommandError) fail(error.message);
  if (error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) fail(`${error.message}\n\n${usage()}`, 2);
  if ((error as { code?: string }).code === '23505') fail(`already exists: ${(error as { detail?: string }).detail ?? ''}`);
  throw error;
}
