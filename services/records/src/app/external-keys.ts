import type { Pool } from '@rex/db';
import { conflict, invalid } from '@rex/grpc';
import type { Errors } from '../domain/fields.ts';
import { KEYED_TABLES, recordWithExternalKey, type KeyedEntity } from '../db/external-keys-repo.ts';
import { isUniqueViolation } from '../db/sql.ts';

/**
 * An external key a write gives a record: `recordId` when the record already
 * exists (an update keeps its own key), `errorKey` the field it is reported under.
 */
export type KeyUse = { entity: KeyedEntity; key: unknown; recordId?: string; errorKey: string };

const given = (use: KeyUse): use is KeyUse & { key: string } => typeof use.key === 'string' && use.key !== '';

/**
 * External keys are unique per website among live samples, occurrences and
 * locations (apps send a record again when they lost the first answer).
 * Runs `write` once the keys it gives are known to be free: a key given twice
 * in the write is 400, a key another record holds is 409 naming that record,
 * also when a concurrent write took it first (the unique index decides).
 */
export async function withUniqueExternalKeys<T>(db: Pool, websiteId: string, uses: KeyUse[], write: () => Promise<T>): Promise<T> {
  const keyed = uses.filter(given);
  const errors: Errors = {};
  const seen = new Set<string>();
  for (const use of keyed) {
    const name = `${use.entity}\u0000${use.key}`;
    if (seen.has(name)) errors[use.errorKey] ??= `The external key ${use.key} is given to more than one ${use.entity}.`;
    seen.add(name);
  }
  if (Object.keys(errors).length) throw invalid(errors);
  await refuseTakenKeys(db, websiteId, keyed);
  try {
    return await write();
  } catch (error) {
    if (keyed.some((use) => isUniqueViolation(error, KEYED_TABLES[use.entity].index))) await refuseTakenKeys(db, websiteId, keyed);
    throw error;
  }
}

async function refuseTakenKeys(db: Pool, websiteId: string, keyed: (KeyUse & { key: string })[]): Promise<void> {
  for (const entity of Object.keys(KEYED_TABLES) as KeyedEntity[]) {
    const uses = keyed.filter((use) => use.entity === entity);
    if (!uses.length) continue;
    const own = uses.flatMap((use) => (use.recordId ? [use.recordId] : []));
    const holder = await recordWithExternalKey(db, entity, websiteId, uses.map((use) => use.key), own);
    if (holder) throw conflict('Duplicate external_key would be created', { duplicate_of_id: holder, duplicate_of_path: `${KEYED_TABLES[entity].path}/${holder}` });
  }
}
