import { describe, expect, it, vi } from 'vitest';
import type { Pool } from '@rex/db';
import { Invalidation } from '@rex/cache';
import { CLIENT_FAILURES_PER_MINUTE, createDirectory, type Client } from '../../src/auth/directory.ts';
import { hashSecret, verifySecret } from '../../src/auth/secrets.ts';

// Every check of a client secret is counted; each still runs scrypt.
vi.mock('../../src/auth/secrets.ts', async (original) => {
  const secrets = await original<typeof import('../../src/auth/secrets.ts')>();
  return { ...secrets, verifySecret: vi.fn(secrets.verifySecret) };
});

/** A database holding one website (url http://known), counting the lookups made. */
function database() {
  const asked: string[] = [];
  const db = {
    query: async (_sql: string, values: unknown[]) => {
      asked.push(String(values[0]));
      const found = values[0] === 'http://known';
      const row = { id: '1', url: 'http://known', password: 'p', public_key: null, jwks_url: null, allow_anon_jwt_post: false, jwt_require_exp: false, jwt_max_age_s: null, jwt_audience: null };
      return { rows: found ? [row] : [] };
    },
  } as unknown as Pool;
  return { db, asked };
}

describe('website lookups by url', () => {
  it('when a url no website has is asked for again (a client token first tried as a website one), then the database is asked once', async () => {
    const { db, asked } = database();
    const directory = createDirectory(db, 60_000);
    expect(await directory.websiteByUrl('http://known:bench')).toBeNull();
    expect(await directory.websiteByUrl('http://known:bench')).toBeNull();
    expect(asked).toEqual(['http://known:bench']);
  });

  it('when a flood of made-up urls is asked for, then a known website stays cached', async () => {
    const { db, asked } = database();
    const directory = createDirectory(db, 60_000);
    expect((await directory.websiteByUrl('http://known'))?.id).toBe('1');
    for (let i = 0; i < 5_000; i++) await directory.websiteByUrl(`http://made-up-${i}`);
    asked.length = 0;
    expect((await directory.websiteByUrl('http://known'))?.id).toBe('1');
    expect(asked).toEqual([]);
  });

  it('when the auth schema changes, then a url unknown before is looked up again', async () => {
    const { db, asked } = database();
    const changes = new Invalidation();
    const directory = createDirectory(db, 60_000, undefined, changes);
    await directory.websiteByUrl('http://later');
    changes.invalidate();
    await directory.websiteByUrl('http://later');
    expect(asked).toEqual(['http://later', 'http://later']);
  });
});

describe('lookups asked for at once', () => {
  it('when one website is looked up by many requests at once, then the database is asked once and every request finds it', async () => {
    const { db, asked } = database();
    const directory = createDirectory(db, 60_000);
    const found = await Promise.all(Array.from({ length: 8 }, () => directory.websiteByUrl('http://known')));
    expect(found.map((website) => website?.id)).toEqual(Array(8).fill('1'));
    expect(asked).toEqual(['http://known']);
  });

  it('when a url no website has is looked up by many requests at once, then every one finds nothing', async () => {
    const { db } = database();
    const directory = createDirectory(db, 60_000);
    expect(await Promise.all(Array.from({ length: 8 }, () => directory.websiteByUrl('http://made-up')))).toEqual(Array(8).fill(null));
  });
});

describe('client secrets', () => {
  const client = { id: '7', username: 'sync', secretHash: hashSecret('right'), connections: new Map() } as unknown as Client;

  it('when many requests bring the same secret at once, then scrypt runs once and each gets its answer', async () => {
    const directory = createDirectory(database().db, 60_000);
    vi.mocked(verifySecret).mockClear();
    expect(await Promise.all(Array.from({ length: 16 }, () => directory.clientSecretMatches(client, 'right')))).toEqual(Array(16).fill(true));
    expect(verifySecret).toHaveBeenCalledTimes(1);
    expect(await directory.clientSecretMatches(client, 'right')).toBe(true);
    expect(verifySecret).toHaveBeenCalledTimes(1);
  });

  it('when a wrong secret is brought again, then it is checked again and counted towards the refusal', async () => {
    const directory = createDirectory(database().db, 60_000);
    vi.mocked(verifySecret).mockClear();
    expect(await Promise.all(Array.from({ length: 4 }, () => directory.clientSecretMatches(client, 'wrong')))).toEqual(Array(4).fill(false));
    expect(verifySecret).toHaveBeenCalledTimes(1);
    for (let i = 1; i < CLIENT_FAILURES_PER_MINUTE; i++) expect(await directory.clientSecretMatches(client, 'wrong')).toBe(false);
    expect(verifySecret).toHaveBeenCalledTimes(CLIENT_FAILURES_PER_MINUTE);
    await expect(directory.clientSecretMatches(client, 'right')).rejects.toMatchObject({ status: 429 });
  });
});
