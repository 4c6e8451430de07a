import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase, startEmbeddedPostgres } from '@rex/db';

export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../../.rex', import.meta.url));
export const SUITE_FILE = 'suite.json';
export const EMBEDDED_DATABASE = 'rex';

export type SuiteInfo = { pid: number; databaseUrl: string; gatewayUrl: string };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The running local suite of this data directory, if there is one. */
export function runningSuite(dataDir: string): SuiteInfo | undefined {
  const file = join(dataDir, SUITE_FILE);
  if (!existsSync(file)) return undefined;
  const info = JSON.parse(readFileSync(file, 'utf8')) as SuiteInfo;
  return isAlive(info.pid) ? info : undefined;
}

/**
 * The database the admin commands work on: DATABASE_URL when set, else the
 * running local suite's, else the embedded one of REX_DATA_DIR, started for
 * the duration of the command.
 */
export async function openDatabase(env: NodeJS.ProcessEnv): Promise<{ url: string; close: () => Promise<void> }> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, close: async () => undefined };
  const dataDir = env.REX_DATA_DIR ?? DEFAULT_DATA_DIR;
  const suite = runningSuite(dataDir);
  if (suite) return { url: suite.databaseUrl, close: async () => undefined };
  const embedded = await startEmbeddedPostgres({ dataDir, onProgress: (message) => process.stderr.write(`${message}\n`) });
  const url = await createDatabase(embedded.url, EMBEDDED_DATABASE);
  return { url, close: embedded.stop };
}
