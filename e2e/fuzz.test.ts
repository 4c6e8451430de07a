import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '@rex/admin';
import { runHttpFuzz } from '../scripts/http-fuzz.ts';
import { startGateway, type ExtraGateway } from './support/gateway.ts';
import { addToWorld, setUpWorld, token } from './support/world.ts';

const ALL_METHODS = Object.fromEntries(
  ['jwtUser', 'jwtClient', 'directClient', 'directUser', 'directWebsite', 'hmacClient', 'hmacWebsite'].map((name) => [name, { allow_http: true }]),
);
const REQUESTS = 3000;
const CONCURRENCY = 16;

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function malformedHeaders(count: number, validToken: string): string[] {
  const next = random(20261122);
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)];
  const characters = [...'abcXYZ019:._-+/=%~ \t"\'\\{}[]<>\u00e9\u2603'];
  const junk = (length: number) => Array.from({ length }, () => pick(characters)).join('');
  const prefixes = ['Bearer ', 'bearer ', 'BEARER', 'Basic ', 'USER:', 'USER_ID:', 'WEBSITE_ID:', 'USER:x:SECRET:', 'WEBSITE_ID:1:HMAC:', 'USER:x:HMAC:', ''];
  const payloads: unknown[] = [
    {},
    { iss: 1 },
    { iss: null },
    { iss: DEMO.websiteUrl },
    { iss: DEMO.websiteUrl, 'http://indicia.org.uk/user:id': 'x' },
    { iss: DEMO.websiteUrl, 'http://indicia.org.uk/user:id': -1 },
    { iss: DEMO.websiteUrl, 'http://indicia.org.uk/user:id': 1e30 },
    { iss: `${DEMO.websiteUrl}:dbclient` },
    { iss: DEMO.websiteUrl, 'http://indicia.org.uk/client:username': ['a'] },
    { iss: DEMO.websiteUrl, scope: { a: 1 } },
    [1, 2, 3],
    'not an object',
    { iss: 'x'.repeat(5000) },
  ];
  const headers: string[] = [];
  for (let i = 0; i < count; i++) {
    switch (i % 6) {
      case 0:
        headers.push(pick(prefixes) + junk(1 + Math.floor(next() * 80)));
        break;
      case 1:
        headers.push(`Bearer ${b64(pick([{ alg: 'RS256' }, { alg: 'none' }, { alg: 'HS256' }, 'x', []]))}.${b64(pick(payloads))}.${junk(Math.floor(next() * 40))}`);
        break;
      case 2: {
        const [h, p, s] = validToken.split('.');
        const parts = [h, p, s];
        const at = Math.floor(next() * 3);
        parts[at] = parts[at].slice(0, Math.floor(next() * parts[at].length)) + junk(3);
        headers.push(`Bearer ${pick([parts.join('.'), parts.slice(0, 2).join('.'), `${parts.join('.')}.x`, parts.join('..')])}`);
        break;
      }
      case 3:
        headers.push(
          pick([
            `USER_ID:${junk(4)}:WEBSITE_ID:${junk(3)}:SECRET:${junk(8)}`,
            `USER_ID:2:WEBSITE_ID:1:SECRET:${junk(8)}:SCOPE:${junk(5)}`,
            `WEBSITE_ID:${junk(3)}:SECRET:${junk(8)}:SCOPE:${junk(4)}:USER_ID:${junk(3)}`,
            `WEBSITE_ID:1:SECRET:x:SCOPE:user:USER_ID:99999999999999999999`,
          ]),
        );
        break;
      case 4:
        headers.push(pick([`USER:${junk(6)}:SECRET:${junk(10)}`, `USER:${junk(6)}:HMAC:${junk(40)}`, `WEBSITE_ID:${junk(2)}:HMAC:${junk(40)}`, `WEBSITE_ID:1:HMAC:${'0'.repeat(40)}`]));
        break;
      default:
        headers.push(`Bearer ${'A'.repeat(1 + Math.floor(next() * 6000))}.${'B'.repeat(Math.floor(next() * 100))}.c`);
    }
  }
  // Header values must be valid HTTP field text for fetch to send them.
  return headers.map((header) => header.replace(/[^\t\x20-\x7e]/g, '?'));
}

let gateway: ExtraGateway;

beforeAll(async () => {
  await setUpWorld();
  gateway = await startGateway({ allow_auth_tokens_in_url: true, authentication_methods: ALL_METHODS, clients: { L: { shared_secret: 's', projects: { P: { website_id: 1, title: 'P' } } } } });
});

afterAll(() => gateway?.stop());

describe('malformed credentials', () => {
  it(`when ${REQUESTS} malformed Authorization headers and tokens arrive, then every answer is a JSON 4xx and the gateway stays up`, async () => {
    const headers = malformedHeaders(REQUESTS, await token());
    const paths = ['/samples/1', '/samples?proj_id=P', '/samples/1?proj_id=P1&user=x&secret=y', '/samples?scope=user', '/samples/1?user_id=abc&website_id=1&secret=x'];
    const failures: string[] = [];
    let index = 0;
    const worker = async () => {
      while (index < headers.length) {
        const i = index++;
        const method = i % 7 === 0 ? 'POST' : 'GET';
        const response = await fetch(`${gateway.services}${paths[i % paths.length]}`, {
          method,
          headers: { Authorization: headers[i], ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}) },
          body: method === 'POST' ? '{"values":{}}' : undefined,
        });
        const text = await response.text();
        let body: { code?: number } | undefined;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        if (response.status < 400 || response.status >= 500 || body?.code !== response.status) {
          failures.push(`${response.status} ${JSON.stringify(headers[i]).slice(0, 120)} → ${text.slice(0, 120)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(failures.slice(0, 10)).toEqual([]);
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  }, 120_000);
});

/** A user of the demo website of its own, so that what the fuzz creates or deletes touches no other test's records. */
const FUZZ_USER = 11;

describe('every route', () => {
  it('when 1 500 requests with hostile paths, parameters and bodies reach every route, then none is a server error and every refusal is JSON', async () => {
    await addToWorld({ users: [{ id: FUZZ_USER, username: 'fuzzer', websites: [{ website_id: DEMO.websiteId, role: 'user' }] }] });
    const result = await runHttpFuzz({ services: gateway.services, headers: { Authorization: `Bearer ${await token({ userId: FUZZ_USER })}` }, cases: 1_500, seed: 20261123 });
    expect(result.failures.slice(0, 5)).toEqual([]);
    expect(Object.keys(result.byStatus).length).toBeGreaterThan(5);
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
