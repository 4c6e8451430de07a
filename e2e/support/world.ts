// The people and places the e2e tests act as: the demo website and user the
// suite seeds, plus a second user of the demo website, a second website with
// its own key and user, a user without any role and a banned one.
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { inject } from 'vitest';
import { SignJWT, importPKCS8, type JWTPayload } from 'jose';
import pg from 'pg';
import { createDatabase, createPool, databaseUrl, dropDatabase } from '@rex/db';
import { DEMO, importFixtures, parseFixtures } from '@rex/admin';

/** An empty database of its own on the suite's server, for a test that starts services on one. */
export async function freshDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = databaseUrl(inject('databaseUrl'), 'postgres');
  const name = `${prefix}_${Date.now()}`;
  return { url: await createDatabase(server, name), drop: () => dropDatabase(server, name).catch(() => undefined) };
}

export const services = (): string => `${inject('gatewayUrl')}/index.php/services/rest`;

export const OTHER_USER = 3;
export const NO_ROLE_USER = 5;
export const BANNED_USER = 6;
export const EDITOR_USER = 8;
export const SECOND_WEBSITE = { id: 2, url: 'http://second.rex.local', userId: 4, surveyId: 2 };
export const REQUIRED_ATTRIBUTE = { id: 3, surveyId: 3 };

export const keyPair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

const second = keyPair();
const clientKeys = keyPair();

export const WEBSITE_PASSWORD = 'demo-website-password';
export const DB_CLIENT = {
  id: 10,
  username: 'dbclient',
  secret: 'db-client-secret',
  projId: 'P1',
  noDataProjId: 'P2',
  limitedProjId: 'P3',
  confidentialProjId: 'P4',
  noReportsProjId: 'P5',
  oneReportProjId: 'P6',
};

/** Adds people, websites or clients of a test's own to the suite's database (fixtures as `pnpm admin import` reads them). */
export async function addToWorld(fixtures: unknown): Promise<void> {
  const pool = createPool(inject('databaseUrl'), { max: 1 });
  try {
    await importFixtures(pool, parseFixtures(fixtures));
  } finally {
    await pool.end();
  }
}

export async function setUpWorld(): Promise<void> {
  const pool = createPool(inject('databaseUrl'), { max: 1 });
  try {
    await importFixtures(
      pool,
      parseFixtures({
        websites: [
          { id: SECOND_WEBSITE.id, title: 'Second website', url: SECOND_WEBSITE.url, password: 'second-password', public_key: second.publicKey, allow_anon_jwt_post: true },
        ],
        users: [
          { id: OTHER_USER, username: 'other', websites: [{ website_id: DEMO.websiteId, role: 'user' }] },
          { id: SECOND_WEBSITE.userId, username: 'second', websites: [{ website_id: SECOND_WEBSITE.id, role: 'user' }] },
          { id: NO_ROLE_USER, username: 'norole' },
          { id: BANNED_USER, username: 'banned', websites: [{ website_id: DEMO.websiteId, role: 'user', banned: true }] },
          { id: EDITOR_USER, username: 'editor', websites: [{ website_id: DEMO.websiteId, role: 'editor' }] },
          {
            id: DEMO.userId,
            username: 'demo',
            websites: [
              { website_id: DEMO.websiteId, role: 'user' },
              { website_id: SECOND_WEBSITE.id, role: 'user' },
            ],
          },
        ],
        surveys: [
          { id: SECOND_WEBSITE.surveyId, website_id: SECOND_WEBSITE.id, title: 'Second survey' },
          { id: REQUIRED_ATTRIBUTE.surveyId, website_id: DEMO.websiteId, title: 'Survey with a required attribute' },
        ],
        clients: [
          {
            id: DB_CLIENT.id,
            username: DB_CLIENT.username,
            secret: DB_CLIENT.secret,
            public_key: clientKeys.publicKey,
            connections: [
              { proj_id: DB_CLIENT.projId, website_id: DEMO.websiteId, title: 'Reporting', sharing: 'reporting', search_index: ['es'] },
              { proj_id: DB_CLIENT.noDataProjId, website_id: DEMO.websiteId, title: 'No data', allow_data_resources: false },
              { proj_id: DB_CLIENT.limitedProjId, website_id: DEMO.websiteId, title: 'Occurrences only', limit_to_data_resources: ['occurrences'] },
              { proj_id: DB_CLIENT.confidentialProjId, website_id: DEMO.websiteId, title: 'With confidential records', allow_confidential: true },
              { proj_id: DB_CLIENT.noReportsProjId, website_id: DEMO.websiteId, title: 'No reports', allow_reports: false },
              {
                proj_id: DB_CLIENT.oneReportProjId,
                website_id: DEMO.websiteId,
                title: 'One report',
                limit_to_reports: ['library/occurrences/explore_list.xml'],
              },
            ],
          },
        ],
        attributes: [
          { id: REQUIRED_ATTRIBUTE.id, entity: 'sample', caption: 'Habitat', data_type: 'T', required: true, survey_ids: [REQUIRED_ATTRIBUTE.surveyId] },
          { id: 4, entity: 'occurrence', caption: 'Stage', data_type: 'L', survey_ids: [DEMO.surveyId], terms: [{ id: 1, term: 'Adult' }, { id: 2, term: 'Juvenile' }] },
          { id: 5, entity: 'sample', caption: 'Visit date', data_type: 'D', survey_ids: [DEMO.surveyId] },
          { id: 6, entity: 'sample', caption: 'Observers', data_type: 'T', multi_value: true, survey_ids: [DEMO.surveyId] },
        ],
      }),
    );
  } finally {
    await pool.end();
  }
}

/** The demo website's public key as the suite seeded it. */
export function demoPublicKey(): string {
  return createPublicKey(inject('demoPrivateKey')).export({ type: 'spki', format: 'pem' }).toString();
}

/** A jwtClient token for the database client: `iss` = `<website url>:<username>`, or the username claim. */
export async function clientToken(options: { form?: 'iss' | 'claim'; key?: string; expiresIn?: string; username?: string } = {}): Promise<string> {
  const username = options.username ?? DB_CLIENT.username;
  const claims: JWTPayload = options.form === 'claim' ? { 'http://indicia.org.uk/client:username': username } : {};
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(options.form === 'claim' ? DEMO.websiteUrl : `${DEMO.websiteUrl}:${username}`)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(await importPKCS8(options.key ?? clientKeys.privateKey, 'RS256'));
}

type TokenOptions = { userId?: number | null; issuer?: string; key?: 'demo' | 'second'; pem?: string; expiresIn?: string; claims?: JWTPayload; kid?: string };

/** A jwtUser token; by default the demo user's on the demo website. */
export async function token(options: TokenOptions = {}): Promise<string> {
  const pem = options.pem ?? (options.key === 'second' ? second.privateKey : inject('demoPrivateKey'));
  const payload: JWTPayload = { ...options.claims };
  const userId = options.userId === undefined ? DEMO.userId : options.userId;
  if (userId !== null) payload['http://indicia.org.uk/user:id'] = userId;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(options.kid ? { kid: options.kid } : {}) })
    .setIssuer(options.issuer ?? (options.key === 'second' ? SECOND_WEBSITE.url : DEMO.websiteUrl))
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(await importPKCS8(pem, 'RS256'));
}

export type ApiResponse = { status: number; headers: Headers; body: any; text: string };

/** One HTTP call to the gateway, as a client makes it. */
export async function api(method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const url = path.startsWith('http') ? path : `${services()}${path}`;
  const response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** One query on the suite's database, for checking what was (or was not) written. */
export async function dbQuery<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Waits until `check` passes (the read model follows writes within about a second). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** A valid sample submission for the demo survey; `values` override the defaults. */
export function sampleSubmission(values: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    values: { survey_id: DEMO.surveyId, date: '2026-05-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB', ...values },
    ...extra,
  };
}
