import { fileURLToPath } from 'node:url';
import { readMigrations, type Migration } from '@rex/db';

export const SCHEMA = 'media';

export const migrations = (): Migration[] => readMigrations(fileURLToPath(new URL('./migrations', import.meta.url)));
