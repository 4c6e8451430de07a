// Global setup of the component tier: one PostgreSQL server for every test file
// (DATABASE_URL's, or an embedded one); each file makes a database of its own on it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { removeDataDirectory, startEmbeddedPostgres } from '@rex/db';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.DATABASE_URL) {
    project.provide('databaseServerUrl', process.env.DATABASE_URL);
    return async () => undefined;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'rex-component-'));
  const embedded = await startEmbeddedPostgres({ dataDir });
  project.provide('databaseServerUrl', embedded.url);
  return async () => {
    await embedded.stop();
    removeDataDirectory(dataDir);
  };
}
