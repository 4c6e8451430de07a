import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { SignJWT, importPKCS8 } from 'jose';
import { describe, expect, it } from 'vitest';
import type { MethodName, RestConfig } from '@rex/rest-config';
import type { AuthRequest, Authenticator } from '../../src/auth/authenticate.ts';
import { SCOPES, type Caller } from '../../src/auth/caller.ts';
import { headerParts } from '../../src/auth/credentials.ts';
import { directClient, directUser, directWebsite } from '../../src/auth/direct.ts';
import type { Client, Connection, Directory, Website } from '../../src/auth/directory.ts';
import { hmacClient, hmacWebsite, urlSignature } from '../../src/auth/hmac.ts';
import { jwtClient } from '../../src/auth/jwt-client.ts';
import { jwtUser } from '../../src/auth/jwt-user.ts';
import { bearerToken } from '../../src/auth/jwt.ts';
import { keySet } from '../../src/auth/keys.ts';
import { HttpError } from '../../src/http-error.ts';

// A fixed seed so CI runs the same cases; FUZZ_RUNS raises the runs and FUZZ_SEED picks other cases.
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const runs = (ci: number) => ({ seed: SEED, numRuns: Number(process.env.FUZZ_RUNS ?? ci) });

// One website (1, user 7 on it), one database client with connection p1, one legacy configuration client.
const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const signingKey = await importPKCS8(privateKey, 'RS256');
const keys = await keySet({ publicKey, jwksUrl: null, jwksCacheMs: 60_000 });
const WEBSITE_URL = 'https://demo.example.org';
const website: Website = {
  id: '1',
  url: WEBSITE_URL,
  password: 'website:secret',
  keys,
  badKey: false,
  allowAnonJwtPost: false,
  tokenRules: { requireExp: false, maxAgeS: null, audience: null },
};
const connection: Connection = {
  projId: 'p1', websiteId: '1', title: 'Project 1', sharing: 'V', allowReports: true, limitToReports: null, allowDataResources: true, limitToDataResources: null,
  allowConfidential: false, allowSensitive: true, allowUnreleased: false, fullPrecisionSensitiveRecords: false, searchIndex: [], allowChangeFeed: false,
};
const client: Client = { id: '2', username: 'client1', secretHash: 'unused', keys, badKey: false, connections: new Map([['p1', connection]]) };
const directory = {
  websiteById: async (id: string) => (id === '1' ? website : null),
  websiteByUrl: async (url: string) => (url === WEBSITE_URL ? website : null),
  roleOf: async (userId: string, websiteId: string) => (userId === '7' && websiteId === '1' ? 3 : null),
  clientByUsername: async (username: string) => (username === 'client1' ? client : null),
  clientSecretMatches: async (_: Client, secret: string) => secret === 'client:secret',
  unknownClientAttempt: async () => undefined,
} as unknown as Directory;
const config = {
  allow_auth_tokens_in_url: true,
  clients: { legacy1: { shared_secret: 'legacy:secret', projects: { p1: { website_id: 1, title: 'Legacy project', sharing: 'reporting' } } } },
} as unknown as RestConfig;

const NAMESPACE = 'indicia.org.uk';
const METHODS: Record<MethodName, Authenticator> = {
  jwtUser: jwtUser(directory, NAMESPACE, 60_000),
  jwtClient: jwtClient(directory, NAMESPACE, 60_000),
  directClient: directClient(directory, config),
  directUser: directUser(directory),
  directWebsite: directWebsite(directory),
  hmacClient: hmacClient(config),
  hmacWebsite: hmacWebsite(directory),
};
const REFUSALS = [400, 401, 403];

const request = (authorization: string | undefined, query: Record<string, string> = {}, url = 'https://api.example.org/services/rest/samples'): AuthRequest => ({
  authorization,
  query,
  resource: 'samples',
  search: false,
  httpMethod: 'GET',
  secure: true,
  url,
  tokensInUrl: true,
});

/** The caller, undefined (not this method's shape), or the refusal's status; any other error fails the property. */
async function attempt(method: MethodName, req: AuthRequest): Promise<Omit<Caller, 'options'> | undefined | number> {
  try {
    return await METHODS[method](req, { allow_http: false, allow_cors: false, resource_options: {} });
  } catch (error) {
    if (error instanceof HttpError) return error.status;
    throw error;
  }
}

const encode = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const sign = (payload: Record<string, unknown>) => new SignJWT(payload).setProtectedHeader({ alg: 'RS256' }).sign(signingKey);

// Headers in every method's shape, each part often the right one, else wrong, empty, huge or full of separators.
const part = fc.oneof(
  fc.constantFrom('1', '7', '0', '01', '-1', '', 'client1', 'legacy1', 'p1', 'website:secret', 'legacy:secret', 'reporting', 'user', 'constructor', '__proto__', '1'.repeat(19)),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: fc.constantFrom(':', 'S', 'E', 'C', 'R', 'T', 'O', 'P', '1', ' '), maxLength: 20 }),
);
const slot = (right: string) => fc.oneof({ arbitrary: fc.constant(right), weight: 3 }, part);
const scopePart = fc.option(fc.oneof(fc.constantFrom(...SCOPES), part));
const shaped = fc.oneof(
  fc.tuple(slot('7'), slot('1'), slot('website:secret'), scopePart).map(([u, w, s, scope]) => `USER_ID:${u}:WEBSITE_ID:${w}:SECRET:${s}${scope === null ? '' : `:SCOPE:${scope}`}`),
  fc.tuple(slot('1'), slot('website:secret'), scopePart, fc.option(slot('7'))).map(([w, s, scope, u]) => `WEBSITE_ID:${w}:SECRET:${s}${scope === null ? '' : `:SCOPE:${scope}${u === null ? '' : `:USER_ID:${u}`}`}`),
  fc.tuple(fc.oneof(slot('client1'), slot('legacy1')), fc.oneof(slot('client:secret'), slot('legacy:secret'))).map(([u, s]) => `USER:${u}:SECRET:${s}`),
  fc.tuple(slot('legacy1'), part).map(([u, h]) => `USER:${u}:HMAC:${h}`),
  fc.tuple(slot('1'), part).map(([w, h]) => `WEBSITE_ID:${w}:HMAC:${h}`),
  fc.tuple(fc.constantFrom('Bearer ', 'bearer  ', 'BEARER ', 'Bearer', 'Basic '), fc.oneof(
    fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 2 }), part).map(([header, payload, signature]) => `${encode(header)}.${encode(payload)}.${signature}`),
    fc.dictionary(fc.constantFrom('iss', 'sub', 'exp', 'http://indicia.org.uk/user:id', 'http://indicia.org.uk/client:username', 'scope'), fc.oneof(part, fc.jsonValue({ maxDepth: 1 })))
      .map((payload) => `${encode({ alg: 'RS256' })}.${encode(payload)}.${encode('signature')}`),
    part,
  )).map(([prefix, token]) => prefix + token),
);
const header = fc.option(fc.oneof({ arbitrary: shaped, weight: 4 }, fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 200 })), { nil: undefined, freq: 20 });
const query = fc.dictionary(fc.constantFrom('proj_id', 'scope', 'user_id', 'website_id', 'secret', 'user'), fc.oneof(fc.constantFrom('p1', '7', '1', 'website:secret', 'client1', 'client:secret'), part), { maxKeys: 4 });

describe('Authorization headers of every method, property-based', () => {
  it('when any header and query reach any method, then it admits a caller of its own, passes, or refuses with a 400, 401 or 403', async () => {
    await fc.assert(
      fc.asyncProperty(header, query, async (authorization, params) => {
        for (const method of Object.keys(METHODS) as MethodName[]) {
          const outcome = await attempt(method, request(authorization, params));
          if (typeof outcome === 'number') {
            expect(REFUSALS).toContain(outcome);
          } else if (outcome !== undefined) {
            expect(outcome.method).toBe(method);
            expect([...SCOPES, 'website']).toContain(outcome.scope);
            expect(outcome.websiteId).toBe('1');
            if (outcome.entity === 'user') expect(outcome.userId).toBe('7');
          }
        }
      }),
      runs(1_000),
    );
  });

  it('when a header is built from the right credentials, then the method admits the caller it names with the scope it asks for', async () => {
    const scope = fc.option(fc.constantFrom(...SCOPES), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(scope, fc.boolean(), async (asked, withUser) => {
        const scoped = asked === undefined ? '' : `:SCOPE:${asked}`;
        const user = await attempt('directUser', request(`USER_ID:7:WEBSITE_ID:1:SECRET:website:secret${scoped}`));
        expect(user).toMatchObject({ entity: 'user', userId: '7', websiteId: '1', scope: asked ?? 'userWithinWebsite' });
        const websiteHeader = `WEBSITE_ID:1:SECRET:website:secret${asked === undefined ? '' : `${scoped}${withUser ? ':USER_ID:7' : ''}`}`;
        const site = await attempt('directWebsite', request(websiteHeader));
        expect(site).toMatchObject({ websiteId: '1', scope: asked ?? 'reporting', entity: withUser && asked !== undefined ? 'user' : 'website' });
        const claims = { iss: WEBSITE_URL, ...(withUser ? { [`http://${NAMESPACE}/user:id`]: 7 } : {}), ...(asked === undefined ? {} : { scope: asked }) };
        const token = await attempt('jwtUser', request(`Bearer ${await sign(claims)}`));
        expect(token).toMatchObject({ entity: withUser ? 'user' : 'website', websiteId: '1', scope: asked ?? (withUser ? 'userWithinWebsite' : 'reporting') });
      }),
      runs(100),
    );
  });

  it('when a URL is signed with the right secret, then the HMAC methods admit the caller whatever the path and query', async () => {
    const path = fc.array(fc.webSegment(), { maxLength: 3 });
    const params = fc.dictionary(fc.constantFrom('proj_id', 'limit', 'x', 'offset'), fc.constantFrom('p1', '7', '10', 'a b', '%', ''), { maxKeys: 3 });
    await fc.assert(
      fc.asyncProperty(path, params, fc.boolean(), fc.boolean(), async (segments, params, upper, withUser) => {
        const given: Record<string, string> = withUser ? { ...params, user_id: '7' } : params;
        const search = new URLSearchParams(given).toString();
        const url = `https://api.example.org/${segments.map(encodeURIComponent).join('/')}${search ? `?${search}` : ''}`;
        const signed = (secret: string) => (upper ? urlSignature(url, secret).toUpperCase() : urlSignature(url, secret));
        const query = { ...given, proj_id: 'p1' };
        const site = await attempt('hmacWebsite', request(`WEBSITE_ID:1:HMAC:${signed('website:secret')}`, given, url));
        expect(site).toMatchObject(withUser ? { entity: 'user', userId: '7' } : { entity: 'website', websiteId: '1' });
        expect(await attempt('hmacClient', request(`USER:legacy1:HMAC:${signed('legacy:secret')}`, query, url))).toMatchObject({ entity: 'client', client: { projId: 'p1' } });
        expect(await attempt('hmacWebsite', request(`WEBSITE_ID:1:HMAC:${signed('wrong')}`, given, url))).toBe(401);
      }),
      runs(200),
    );
  });

  it('when a secret holds colons or a client names itself by its claim or its issuer, then the parts read back are the ones written', async () => {
    // Secrets may hold colons (never ":SCOPE:", which starts the scope) and never start or end with spaces (headers are trimmed).
    const secret = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !s.includes(':SCOPE:') && s.trim() === s);
    const id = fc.bigInt({ min: 1n, max: 10n ** 18n - 1n }).map(String);
    const scope = fc.option(fc.constantFrom(...SCOPES), { nil: undefined });
    fc.assert(
      fc.property(id, id, secret, scope, (userId, websiteId, given, asked) => {
        const authorization = `USER_ID:${userId}:WEBSITE_ID:${websiteId}:SECRET:${given}${asked === undefined ? '' : `:SCOPE:${asked}`}`;
        expect(headerParts({ authorization } as AuthRequest, 'directUser')).toEqual([userId, websiteId, given, asked]);
        expect(headerParts({ authorization: `USER:client1:SECRET:${given}` } as AuthRequest, 'directClient')).toEqual(['client1', given]);
      }),
      runs(500),
    );
    const viaClaim = await sign({ iss: WEBSITE_URL, [`http://${NAMESPACE}/client:username`]: 'client1' });
    const viaIssuer = await sign({ iss: `${WEBSITE_URL}:client1` });
    for (const token of [viaClaim, viaIssuer]) {
      expect(await attempt('jwtClient', request(`Bearer ${token}`, { proj_id: 'p1' }))).toMatchObject({ entity: 'client', scope: 'verification', client: { clientId: '2' } });
      expect(await attempt('jwtClient', request(`Bearer ${token}`, { proj_id: 'p2' }))).toBe(401);
    }
    expect(await attempt('directClient', request('USER:client1:SECRET:client:secret', { proj_id: 'p1' }))).toMatchObject({ entity: 'client', client: { projId: 'p1' } });
  });

  it('when a bearer token is written with any case of the word and any spacing, then the token is read back whole', () => {
    const token = fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.='), minLength: 1, maxLength: 40 });
    const word = fc.constantFrom('Bearer', 'bearer', 'BEARER', 'bEaReR');
    fc.assert(
      fc.property(word, fc.constantFrom(' ', '  ', '\t'), token, fc.constantFrom('', ' '), (prefix, space, given, trailing) => {
        expect(bearerToken(`${prefix}${space}${given}${trailing}`)).toBe(given);
      }),
      runs(300),
    );
  });

  it('when a header is 100 KB of any method\'s shape, then every method answers without a stack overflow or a hang', async () => {
    await fc.assert(
      fc.asyncProperty(shaped, fc.constantFrom(...(Object.keys(METHODS) as MethodName[])), async (fragment, method) => {
        const huge = fragment.repeat(Math.ceil(100_000 / Math.max(fragment.length, 1))).slice(0, 100_000);
        const outcome = await attempt(method, request(huge));
        if (typeof outcome === 'number') expect(REFUSALS).toContain(outcome);
      }),
      runs(30),
    );
  });
});
