import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pool } from '@rex/db';
import { websites } from '@rex/gateway/admin';
import { parseFixtures } from './fixtures.ts';
import { importFixtures } from './import.ts';

export const DEMO = {
  websiteId: 1,
  websiteUrl: 'http://demo.rex.local',
  userId: 2,
  surveyId: 1,
  taxonIds: [1, 2, 3, 4],
  countAttributeId: 1,
  weatherAttributeId: 2,
};

/** The demo website's key pair, made once per data directory. */
export function demoKeys(dataDir: string): { privateKey: string; publicKey: string } {
  const file = join(dataDir, 'demo-keys.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify({ privateKey, publicKey }), { mode: 0o600 });
  return { privateKey, publicKey };
}

/**
 * Seeds a demo website, user, survey, taxa and attributes into a database
 * that holds no website yet. A database with data is left as it is (an
 * operator's websites, users and keys stay theirs): `seeded` says which.
 */
export async function seedDemo(pool: Pool, dataDir: string): Promise<{ privateKey: string; seeded: boolean }> {
  const keys = demoKeys(dataDir);
  if (await websites.anyAtAll(pool)) return { privateKey: keys.privateKey, seeded: false };
  await importFixtures(
    pool,
    parseFixtures({
      websites: [{ id: DEMO.websiteId, title: 'Demo website', url: DEMO.websiteUrl, password: 'demo-website-password', public_key: keys.publicKey }],
      users: [
        { id: 1, username: 'admin', email: 'admin@demo.rex.local' },
        { id: DEMO.userId, username: 'demo', email: 'demo@demo.rex.local', websites: [{ website_id: DEMO.websiteId, role: 'user' }] },
      ],
      surveys: [{ id: DEMO.surveyId, website_id: DEMO.websiteId, title: 'Garden birds' }],
      taxa: [
        { id: 1, taxon: 'Erithacus rubecula', default_common_name: 'Robin', taxon_group: 'birds', external_key: 'NHMSYS0000530420' },
        { id: 2, taxon: 'Turdus merula', default_common_name: 'Blackbird', taxon_group: 'birds', external_key: 'NHMSYS0000530376' },
        { id: 3, taxon: 'Parus major', default_common_name: 'Great Tit', taxon_group: 'birds', external_key: 'NHMSYS0000530566' },
        { id: 4, taxon: 'Cyanistes caeruleus', default_common_name: 'Blue Tit', taxon_group: 'birds', external_key: 'NHMSYS0000530555' },
      ],
      attributes: [
        { id: DEMO.countAttributeId, entity: 'occurrence', caption: 'Count', data_type: 'I', survey_ids: [DEMO.surveyId] },
        { id: DEMO.weatherAttributeId, entity: 'sample', caption: 'Weather', data_type: 'T', survey_ids: [DEMO.surveyId] },
      ],
    }),
  );
  return { privateKey: keys.privateKey, seeded: true };
}
