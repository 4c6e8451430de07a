import { describe, expect, it } from 'vitest';
import type { Pool } from '@rex/db';
import { Invalidation } from '@rex/cache';
import { createDirectory } from '../../src/auth/directory.ts';

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
