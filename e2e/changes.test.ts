// The change feed, as a synchronising system reads it: from a cursor, in
// commit order, with what the caller may see and nothing else.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '@rex/admin';
import { DB_CLIENT, OTHER_USER, SECOND_WEBSITE, addToWorld, api, dbQuery, eventually, sampleSubmission, setUpWorld, token } from './support/world.ts';

type Change = { cursor: string; entity: string; id: string; operation: string; at: string; values?: Record<string, string | null> };
type Page = { changes: Change[]; next_cursor: string; has_more: boolean };

const FEED = { id: 61, username: `feedclient`, secret: 'feed-client-secret', projId: 'FEED', confidentialProjId: 'FEEDC' };
const feedClient = (projId = FEED.projId) => ({ Authorization: `USER:${FEED.username}:SECRET:${FEED.secret}` , projId });
let demoToken: string;
let otherToken: string;

beforeAll(async () => {
  await setUpWorld();
  await addToWorld({
    clients: [
      {
        id: FEED.id,
        username: FEED.username,
        secret: FEED.secret,
        connections: [
          { proj_id: FEED.projId, website_id: DEMO.websiteId, title: 'Feed', sharing: 'reporting', allow_change_feed: true },
          { proj_id: FEED.confidentialProjId, website_id: DEMO.websiteId, title: 'Feed with confidential', allow_change_feed: true, allow_confidential: true },
        ],
      },
    ],
  });
  demoToken = await token();
  otherToken = await token({ userId: OTHER_USER });
});

const asUser = (query: string, bearer = demoToken) => api('GET', `/changes?${query}`, { token: bearer });
const asClient = (query: string, projId = FEED.projId) =>
  api('GET', `/changes?proj_id=${projId}&${query}`, { headers: { Authorization: feedClient().Authorization } });

/** Follows next_cursor until the feed has nothing more, as a synchronising client does, asking each page with `also`. */
async function readAll(
  read: (query: string) => Promise<{ status: number; body: Page; text: string }>,
  start: string,
  also = '',
): Promise<{ changes: Change[]; cursor: string }> {
  const changes: Change[] = [];
  let query = start;
  for (let pages = 0; pages < 10_000; pages++) {
    const answer = await read(query);
    expect(answer.status, answer.text).toBe(200);
    changes.push(...answer.body.changes);
    if (!answer.body.has_more) return { changes, cursor: answer.body.next_cursor };
    query = `cursor=${answer.body.next_cursor}&limit=1000${also}`;
  }
  throw new Error('the feed did not end');
}

/** Waits until the projector has applied the change of `id` and the feed from `cursor` shows it. */
async function changesUntil(read: (query: string) => Promise<{ status: number; body: Page; text: string }>, cursor: string, done: (changes: Change[]) => boolean) {
  return eventually(async () => {
    const { changes } = await readAll(read, `cursor=${cursor}&limit=1000`);
    expect(done(changes)).toBe(true);
    return changes;
  });
}

describe('the change feed', () => {
  it('when a user creates, changes and deletes records, then the feed gives each change in order with the record as it is now, and a tombstone for the deletion', async () => {
    const start = await asUser('');
    expect(start.status, start.text).toBe(200);
    expect(start.body).toEqual({ changes: [], next_cursor: expect.any(String), has_more: false });
    const created = await api('POST', '/samples', {
      token: demoToken,
      body: sampleSubmission({ location_name: 'Feed pond' }, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }, { values: { taxa_taxon_list_id: 2 } }] }),
    });
    const sampleId = created.body.values.id;
    const [kept, removed] = created.body.occurrences.map((occurrence: { values: { id: string } }) => occurrence.values.id);
    expect((await api('PUT', `/occurrences/${kept}`, { token: demoToken, body: { values: { comment: 'seen twice' } } })).status).toBe(200);
    expect((await api('DELETE', `/occurrences/${removed}`, { token: demoToken })).status).toBe(204);

    const changes = await changesUntil(asUser, start.body.next_cursor, (all) => all.some((change) => change.entity === 'occurrence' && change.id === removed && change.operation === 'deleted'));
    const mine = changes.filter((change) => [`sample ${sampleId}`, `occurrence ${kept}`, `occurrence ${removed}`].includes(`${change.entity} ${change.id}`));
    expect(mine.map((change) => `${change.entity} ${change.id} ${change.operation}`)).toEqual([
      `sample ${sampleId} created`,
      `occurrence ${kept} created`,
      `occurrence ${kept} updated`,
      `occurrence ${removed} deleted`,
    ]);
    expect(mine[0].values).toMatchObject({ id: sampleId, location_name: 'Feed pond' });
    expect(mine[1].values).toMatchObject({ id: kept, sample_id: sampleId, taxon: 'Erithacus rubecula', comment: 'seen twice' });
    expect(mine[3]).not.toHaveProperty('values');
    expect(mine.every((change) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(change.at))).toBe(true);
    // The occurrence deleted before the feed was read: its creation is left out, its deletion is not.
    expect(changes.some((change) => change.entity === 'occurrence' && change.id === removed && change.operation === 'created')).toBe(false);

    // A cursor is stable: reading from it again gives the same changes.
    const again = await readAll(asUser, `cursor=${start.body.next_cursor}&limit=1000`);
    expect(again.changes.slice(0, changes.length)).toEqual(changes);
    const paged = await readAll(asUser, `cursor=${start.body.next_cursor}&limit=1`);
    expect(paged.changes.slice(0, changes.length)).toEqual(changes);
  });

  it("when others write, then a user's feed holds only the user's own records", async () => {
    const start = (await asUser('')).body.next_cursor;
    const theirs = await api('POST', '/samples', { token: otherToken, body: sampleSubmission({ location_name: 'Not yours' }) });
    const mine = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ location_name: 'Yours' }) });
    const changes = await changesUntil(asUser, start, (all) => all.some((change) => change.entity === 'sample' && change.id === mine.body.values.id));
    expect(changes.some((change) => change.entity === 'sample' && change.id === theirs.body.values.id)).toBe(false);
  });

  it('when a client connection reads the feed, then it needs allow_change_feed, and it never receives a confidential, unreleased or other website record', async () => {
    const refused = await api('GET', `/changes?proj_id=${DB_CLIENT.projId}`, { headers: { Authorization: `USER:${DB_CLIENT.username}:SECRET:${DB_CLIENT.secret}` } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/allow_change_feed/);

    const start = (await asClient('')).body.next_cursor;
    const created = await api('POST', '/samples', {
      token: demoToken,
      body: sampleSubmission({}, {
        occurrences: [
          { values: { taxa_taxon_list_id: 1, comment: 'open' } },
          { values: { taxa_taxon_list_id: 1, comment: 'confidential', confidential: true } },
          { values: { taxa_taxon_list_id: 1, comment: 'unreleased', release_status: 'U' } },
        ],
      }),
    });
    const [open, confidential, unreleased] = created.body.occurrences.map((occurrence: { values: { id: string } }) => occurrence.values.id);
    const second = await token({ key: 'second', userId: SECOND_WEBSITE.userId });
    const elsewhere = await api('POST', '/samples', { token: second, body: sampleSubmission({ survey_id: SECOND_WEBSITE.surveyId }, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }) });
    expect(elsewhere.status, elsewhere.text).toBe(201);

    const named = (changes: Change[]) => changes.map((change) => `${change.entity} ${change.id}`);
    const changes = await changesUntil(asClient, start, (all) => named(all).includes(`occurrence ${open}`));
    expect(named(changes)).not.toContain(`occurrence ${confidential}`);
    expect(named(changes)).not.toContain(`occurrence ${unreleased}`);
    expect(named(changes)).not.toContain(`occurrence ${elsewhere.body.occurrences[0].values.id}`);
    expect(named(changes)).not.toContain(`sample ${elsewhere.body.values.id}`);
    // Its connection that allows confidential records sees that one too.
    const withConfidential = await changesUntil((query) => asClient(query, FEED.confidentialProjId), start, (all) => named(all).includes(`occurrence ${open}`));
    expect(named(withConfidential)).toContain(`occurrence ${confidential}`);
  });

  it("when a connection replays the feed from the beginning, then it ends with exactly the read model's occurrences it may see", async () => {
    await eventually(async () => {
      const { changes } = await readAll((query) => asClient(query), 'from=beginning&entities=occurrences&limit=1000', '&entities=occurrences');
      expect(changes.filter((change) => change.entity !== 'occurrence')).toEqual([]);
      const state = new Set<string>();
      for (const change of changes) {
        if (change.operation === 'deleted') state.delete(change.id);
        else state.add(change.id);
      }
      const visible = await dbQuery<{ id: string }>(
        `SELECT id::text FROM reports.occurrences
          WHERE website_id = $1 AND NOT deleted AND NOT confidential AND release_status = 'R'`,
        [DEMO.websiteId],
      );
      const visibleIds = new Set(visible.map((row) => row.id));
      const differing = [...state].filter((id) => !visibleIds.has(id)).concat([...visibleIds].filter((id) => !state.has(id)));
      const rows = differing.length
        ? await dbQuery(
            `SELECT i.id, to_jsonb(r) AS read_model, to_jsonb(o) - 'comment' AS record,
                    (SELECT json_agg(c.*) FROM reports.changes c WHERE c.entity = 'occurrence' AND c.entity_id = i.id) AS changes,
                    (SELECT json_agg(json_build_object('entity', e.entity, 'operation', e.operation, 'id', e.id)) FROM records.outbox e WHERE e.entity_id IN (i.id, o.sample_id)) AS events
               FROM unnest($1::bigint[]) AS i(id) LEFT JOIN reports.occurrences r ON r.id = i.id LEFT JOIN records.occurrences o ON o.id = i.id`,
            [differing.slice(0, 5)],
          )
        : [];
      expect([...state].sort(), `the feed and the read model differ on ${JSON.stringify(rows)}`).toEqual([...visibleIds].sort());
    }, 20_000);
  });

  it('when a reader waits on the feed, then it is answered as soon as a change arrives', async () => {
    const start = (await asUser('')).body.next_cursor;
    const began = Date.now();
    const waiting = asUser(`cursor=${start}&wait=20`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const created = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ location_name: 'Waited for' }) });
    const answer = await waiting;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.changes.map((change: Change) => `${change.entity} ${change.id}`)).toContain(`sample ${created.body.values.id}`);
    expect(Date.now() - began).toBeLessThan(15_000);
    const quiet = Date.now();
    const empty = await asUser(`cursor=${answer.body.next_cursor}&wait=1&entities=locations`);
    expect(empty.body).toEqual({ changes: [], next_cursor: answer.body.next_cursor, has_more: false });
    expect(Date.now() - quiet).toBeGreaterThanOrEqual(900);
  });

  it('when a parameter is bad, then a JSON 400 names it', async () => {
    const cases: [string, RegExp][] = [
      ['cursor=not-a-cursor', /Not a cursor of this feed/],
      [`cursor=${Buffer.from('c1.-5').toString('base64url')}`, /Not a cursor of this feed/],
      ['entities=samples,planets', /planets is not one of/],
      ['limit=0', /limit/],
      ['limit=1001', /limit/],
      ['wait=31', /wait/],
      ['from=yesterday', /from/],
    ];
    for (const [query, message] of cases) {
      const answer = await asUser(query);
      expect(answer.status, query).toBe(400);
      expect(JSON.stringify(answer.body.message), query).toMatch(message);
    }
    expect((await api('GET', '/changes')).status).toBe(401);
  });
});
