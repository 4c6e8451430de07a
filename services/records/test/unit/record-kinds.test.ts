import { describe, expect, it } from 'vitest';
import type { Pool } from '@rex/db';
import { DomainError } from '@rex/grpc';
import type { AuthContext__Output } from '@rex/protos';
import { recordsOfKind, type ListQuery, type RecordKind } from '../../src/app/record-kinds.ts';

type Row = { id: string; website_id: string; created_by_id: string; deleted: string; secret: string; n: number | null; version: string; attribute_values: null };

const row = (id: string, createdBy = '5'): Row => ({ id, website_id: '1', created_by_id: createdBy, deleted: 'f', secret: 'x', n: 3, version: `v${id}`, attribute_values: null });

function kindOver(rows: Row[], asked: ListQuery[] = []): RecordKind<Row, Row> {
  return {
    entity: 'sample',
    hidden: new Set(['secret']),
    madeFields: (found) => ({ made: `made ${found.id}` }),
    find: async (_db, id) => rows.find((found) => found.id === id),
    filters: { n: 'integer' },
    listsEveryWebsiteForUserScope: true,
    list: async (_db, query) => {
      asked.push(query);
      return rows.slice(query.offset, query.offset + query.limit + 1);
    },
    lock: async () => undefined,
    remove: async () => [],
  };
}

const user = (scope = 'SCOPE_USER_WITHIN_WEBSITE', userId = '5'): AuthContext__Output =>
  ({ entity: 'ENTITY_USER', websiteId: '1', userId, scope }) as unknown as AuthContext__Output;
const db = {} as Pool;

describe('the reads every kind of record shares', () => {
  it('when a record is read, then its hidden columns and version are left out, its values are texts and made fields are added', async () => {
    const read = await recordsOfKind(db, kindOver([row('7')])).get(user(), '7');
    expect(read.values).toEqual({ id: '7', website_id: '1', created_by_id: '5', deleted: 'f', n: '3', made: 'made 7' });
    expect(read.version).toBe('v7');
  });

  it("when someone else's record or none is read, then 403 and 404 as for any record", async () => {
    const records = recordsOfKind(db, kindOver([row('7', '6')]));
    await expect(records.get(user(), '7')).rejects.toMatchObject({ code: 7 });
    await expect(records.get(user(), '8')).rejects.toMatchObject({ code: 5 });
  });

  it('when a page is listed, then one more row than the limit tells that more follow, and only the page is answered', async () => {
    const records = recordsOfKind(db, kindOver([row('1'), row('2'), row('3')]));
    expect(await records.list(user(), {}, 2, 0)).toMatchObject({ rows: [{ id: '1' }, { id: '2' }], more: true });
    expect(await records.list(user(), {}, 2, 2)).toMatchObject({ rows: [{ id: '3' }], more: false });
  });

  it('when the caller has the user scope, then every website is listed; otherwise the one signed in to', async () => {
    const asked: ListQuery[] = [];
    const records = recordsOfKind(db, kindOver([], asked));
    await records.list(user('SCOPE_USER'), {}, 10, 0);
    await records.list(user(), {}, 10, 0);
    expect(asked.map((query) => query.websiteId)).toEqual([null, '1']);
  });

  it('when a filter is not a number for a numeric field, then 400 names the field; unknown filters are ignored', async () => {
    const asked: ListQuery[] = [];
    const records = recordsOfKind(db, kindOver([], asked));
    const refused = await records.list(user(), { n: 'x' }, 10, 0).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).violations).toEqual([{ field: 'sample:n', description: 'Invalid filter on numeric field n' }]);
    await records.list(user(), { n: '4', other: 'y' }, 10, 0);
    expect(asked[0].filters).toEqual({ n: '4' });
  });

  it('when the caller is not a user, then lists are refused', async () => {
    await expect(recordsOfKind(db, kindOver([])).list(user('SCOPE_USER', '0'), {}, 10, 0)).rejects.toMatchObject({ code: 7 });
  });
});
