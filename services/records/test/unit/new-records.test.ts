// A tree's statement is named from the second write of its shape on, and only then shared with
// the writes of that shape at the same time: a shape written once takes none of the names a
// process hands out.
import { describe, expect, it } from 'vitest';
import type { Pool } from '@rex/db';
import { insertNewRecords, type NewSample } from '../../src/db/new-records.ts';

type Sent = { name?: string; text: string; rowMode?: string };

/** A pool that answers the ids query and the tree's statement, and keeps what it was sent. */
function recordingPool() {
  const sent: Sent[] = [];
  let next = 1;
  const pool = {
    query: async (config: Sent & { values: unknown[] }) => {
      sent.push(config);
      if (config.name === 'allocate-ids') {
        return { rows: [Object.fromEntries(config.values.map((count, i) => [`ids${i}`, Array.from({ length: Number(count) }, () => String(next++))]))] };
      }
      const row = ['2026-11-30T00:00:00+00:00', '42'];
      return { rows: [config.rowMode === 'array' ? row : { stamp: row[0], version: row[1] }] };
    },
  };
  return { pool: pool as unknown as Pool, trees: () => sent.filter((config) => config.name !== 'allocate-ids') };
}

const sample = (comment: string): NewSample => ({ columns: { survey_id: '1', comment, [`only_in_${comment}`]: 'x' }, attributes: [], occurrences: [], samples: [] });
const writer = { websiteId: '1', userId: '2', createdById: '2' };

describe('new sample trees by name', () => {
  it('when a shape is written once, then its statement runs unnamed; from its second write on, by one name', async () => {
    const { pool, trees } = recordingPool();
    const write = () => insertNewRecords({ pool }, { samples: [sample('unit-shape')], occurrences: [], parent: null }, writer);
    const first = await write();
    expect(trees()).toHaveLength(1);
    expect(trees()[0].name).toBeUndefined();
    await write();
    await write();
    const [, second, third] = trees();
    expect(second.name).toMatch(/^tree_/);
    expect(third.name).toBe(second.name);
    expect(first).toMatchObject({ stamp: '2026-11-30T00:00:00+00:00', version: '42' });
  });
});
