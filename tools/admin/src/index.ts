export { parseFixtures, FixturesError, type Fixtures } from './fixtures.ts';
export { importFixtures, migrateAll } from './import.ts';
export { openDatabase, runningSuite, DEFAULT_DATA_DIR, SUITE_FILE, EMBEDDED_DATABASE, type SuiteInfo } from './database.ts';
export { seedDemo, demoKeys, DEMO } from './demo.ts';
