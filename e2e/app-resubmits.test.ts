// What the recording apps rely on when they send a record again: external keys
// that stay unique, and a whole record PUT back with its children's ids.
import { beforeAll, describe, expect, it } from 'vitest';
import { queuedPhoto } from './support/media.ts';
import { OTHER_USER, api, dbQuery, sampleSubmission, services, setUpWorld, token } from './support/world.ts';

let demoToken: string;
let otherToken: string;

beforeAll(async () => {
  await setUpWorld();
  demoToken = await token();
  otherToken = await token({ userId: OTHER_USER });
});

const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const post = (path: string, body: unknown, as = demoToken) => api('POST', path, { token: as, body });
const count = async (sql: string, params: unknown[]) => Number((await dbQuery<{ n: string }>(sql, params))[0].n);

describe('external keys of occurrences and locations', () => {
  it('when an occurrence is sent again with its external_key, then 409 names the first and nothing more is written', async () => {
    const key = unique('occ');
    const first = await post('/samples', sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 1, external_key: key } }] }));
    expect(first.status, first.text).toBe(201);
    const occurrenceId = first.body.occurrences[0].values.id;
    const again = await post('/samples', sampleSubmission({ comment: key }, { occurrences: [{ values: { taxa_taxon_list_id: 1, external_key: key } }] }));
    expect(again.status, again.text).toBe(409);
    expect(again.body).toEqual({
      code: 409,
      status: 'Conflict',
      message: 'Duplicate external_key would be created',
      duplicate_of: { id: occurrenceId, href: `${services()}/occurrences/${occurrenceId}` },
    });
    expect(await count('SELECT count(*) AS n FROM records.samples WHERE comment = $1', [key])).toBe(0);
    const alone = await post('/occurrences', { values: { sample_id: first.body.values.id, taxa_taxon_list_id: 2, external_key: key } });
    expect(alone.status).toBe(409);
    expect(alone.body.duplicate_of.id).toBe(occurrenceId);
    expect(await count('SELECT count(*) AS n FROM records.occurrences WHERE external_key = $1', [key])).toBe(1);
  });

  it('when one submission or list gives an occurrence key twice, then 400 names it and nothing is written', async () => {
    const key = unique('twin');
    const inOne = await post('/samples', sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 1, external_key: key } }, { values: { taxa_taxon_list_id: 2, external_key: key } }] }));
    expect(inOne.status).toBe(400);
    expect(inOne.body.message).toEqual({ 'occurrence:external_key': `The external key ${key} is given to more than one occurrence.` });
    const sample = await post('/samples', sampleSubmission());
    const list = await post('/occurrences/list', [
      { values: { sample_id: sample.body.values.id, taxa_taxon_list_id: 1, external_key: key } },
      { values: { sample_id: sample.body.values.id, taxa_taxon_list_id: 2, external_key: key } },
    ]);
    expect(list.status).toBe(400);
    expect(list.body.message).toEqual({ '1/occurrence:external_key': `The external key ${key} is given to more than one occurrence.` });
    const samples = await post('/samples/list', [
      sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 1, external_key: key } }] }),
      sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 1, external_key: key } }] }),
    ]);
    expect(samples.status).toBe(400);
    expect(samples.body.message).toEqual({ '1/occurrence:external_key': `The external key ${key} is given to more than one occurrence.` });
    expect(await count('SELECT count(*) AS n FROM records.occurrences WHERE external_key = $1', [key])).toBe(0);
  });

  it('when another website holds the key, or the holder was deleted, then the key is free', async () => {
    const key = unique('free');
    const first = await post('/samples', sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 1, external_key: key } }] }));
    expect((await api('DELETE', `/samples/${first.body.values.id}`, { token: demoToken })).status).toBe(204);
    const again = await post('/samples', sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 1, external_key: key } }] }));
    expect(again.status, again.text).toBe(201);
  });

  it('when a location is sent again with its external_key, or another is changed to take it, then 409 names the first', async () => {
    const key = unique('loc');
    const location = (name: string) => ({ values: { name, centroid_sref: 'SU1234', centroid_sref_system: 'OSGB', external_key: key } });
    const first = await post('/locations', location('Pond'));
    expect(first.status, first.text).toBe(201);
    const again = await post('/locations', location('Pond again'));
    expect(again.status).toBe(409);
    expect(again.body.duplicate_of).toEqual({ id: first.body.values.id, href: `${services()}/locations/${first.body.values.id}` });
    const other = await post('/locations', { values: { name: 'Other', centroid_sref: 'SU1234', centroid_sref_system: 'OSGB' } });
    expect((await api('PUT', `/locations/${other.body.values.id}`, { token: demoToken, body: { values: { external_key: key } } })).status).toBe(409);
    expect((await api('PUT', `/locations/${first.body.values.id}`, { token: demoToken, body: { values: { external_key: key, comment: 'same key' } } })).status).toBe(200);
    expect(await count('SELECT count(*) AS n FROM records.locations WHERE external_key = $1 AND NOT deleted', [key])).toBe(1);
  });

  it('when two submissions with the same occurrence key race, then one is saved and the other is 409', async () => {
    const key = unique('race');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => post('/samples', sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 1, external_key: key } }] }))),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await count('SELECT count(*) AS n FROM records.occurrences WHERE external_key = $1', [key])).toBe(1);
  });
});

describe('a whole record PUT back with its children', () => {
  async function recordWithChildren() {
    const photo = await queuedPhoto(demoToken);
    const created = await post(
      '/samples',
      sampleSubmission({ comment: 'first' }, {
        occurrences: [{ values: { taxa_taxon_list_id: 1, comment: 'robin' } }, { values: { taxa_taxon_list_id: 2, comment: 'blackbird' } }],
        media: [{ values: { queued: photo, caption: 'pond' } }],
      }),
    );
    expect(created.status, created.text).toBe(201);
    return created.body;
  }

  it('when children carry their ids, then they are updated in place, children without one are created, all in one version', async () => {
    const sample = await recordWithChildren();
    const [robin, blackbird] = sample.occurrences.map((occurrence: { values: { id: string } }) => occurrence.values.id);
    const mediumId = sample.media[0].values.id;
    const storedMedium = (await api('GET', `/sample_media/${mediumId}`, { token: demoToken })).body.values;
    const etag = (await api('GET', `/samples/${sample.values.id}`, { token: demoToken })).headers.get('etag')!;
    const put = await api('PUT', `/samples/${sample.values.id}`, {
      token: demoToken,
      headers: { 'If-Match': etag },
      body: {
        values: { id: sample.values.id, comment: 'second' },
        occurrences: [
          { values: { id: robin, comment: 'robin, two' } },
          { values: { id: blackbird, taxa_taxon_list_id: 3, comment: 'a great tit after all' } },
          { values: { taxa_taxon_list_id: 4, comment: 'new blue tit' } },
        ],
        // The apps send a stored medium back whole: its own path and type are accepted as they are.
        media: [{ values: { id: mediumId, caption: 'pond at dusk', path: storedMedium.path, media_type: storedMedium.media_type } }],
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.occurrences.map((occurrence: { values: { id: string } }) => occurrence.values.id).slice(0, 2)).toEqual([robin, blackbird]);
    const added = put.body.occurrences[2].values.id;
    expect([robin, blackbird]).not.toContain(added);
    expect(put.body.media.map((medium: { values: { id: string } }) => medium.values.id)).toEqual([mediumId]);
    const rows = await dbQuery<{ id: string; comment: string; taxa_taxon_list_id: string }>(
      'SELECT id::text, comment, taxa_taxon_list_id::text FROM records.occurrences WHERE sample_id = $1 AND NOT deleted ORDER BY id',
      [sample.values.id],
    );
    expect(rows).toEqual([
      { id: robin, comment: 'robin, two', taxa_taxon_list_id: '1' },
      { id: blackbird, comment: 'a great tit after all', taxa_taxon_list_id: '3' },
      { id: added, comment: 'new blue tit', taxa_taxon_list_id: '4' },
    ]);
    expect((await api('GET', `/sample_media/${mediumId}`, { token: demoToken })).body.values).toMatchObject({ caption: 'pond at dusk', path: storedMedium.path });
    const moved = await api('PUT', `/samples/${sample.values.id}`, { token: demoToken, body: { values: {}, media: [{ values: { id: mediumId, path: 'other.jpg' } }] } });
    expect(moved.status).toBe(400);
    expect(Object.keys(moved.body.message)).toEqual(['sample_medium:path']);
    expect((await api('GET', `/samples/${sample.values.id}`, { token: demoToken })).body.values.comment).toBe('second');
    const stale = await api('PUT', `/samples/${sample.values.id}`, { token: demoToken, headers: { 'If-Match': etag }, body: { values: { comment: 'third' }, occurrences: [{ values: { id: robin, comment: 'lost' } }] } });
    expect(stale.status).toBe(412);
    expect((await dbQuery<{ comment: string }>('SELECT comment FROM records.occurrences WHERE id = $1', [robin]))[0].comment).toBe('robin, two');
  });

  it('when a child id is not a child of the record, then 400 names it and nothing at all changes', async () => {
    const sample = await recordWithChildren();
    const elsewhere = await recordWithChildren();
    const foreignOccurrence = elsewhere.occurrences[0].values.id;
    const foreignMedium = elsewhere.media[0].values.id;
    const attempt = (body: Record<string, unknown>) => api('PUT', `/samples/${sample.values.id}`, { token: demoToken, body: { values: { comment: 'changed' }, ...body } });
    const occurrence = await attempt({ occurrences: [{ values: { id: sample.occurrences[0].values.id, comment: 'changed' } }, { values: { id: foreignOccurrence, comment: 'moved' } }] });
    expect(occurrence.status).toBe(400);
    expect(occurrence.body.message).toEqual({ 'occurrence:id': `The occurrence ${foreignOccurrence} is not an occurrence of sample ${sample.values.id}.` });
    const medium = await attempt({ media: [{ values: { id: foreignMedium, caption: 'moved' } }] });
    expect(medium.status).toBe(400);
    expect(medium.body.message).toEqual({ 'sample_medium:id': `The medium ${foreignMedium} is not a medium of sample ${sample.values.id}.` });
    const unknown = await attempt({ occurrences: [{ values: { id: '999999999', comment: 'x' } }] });
    expect(unknown.status).toBe(400);
    const childSample = await attempt({ samples: [{ values: { id: elsewhere.values.id, comment: 'x' } }] });
    expect(childSample.status).toBe(400);
    expect(childSample.body.message).toEqual({ 'sample:id': `The sample ${elsewhere.values.id} is not a child sample of sample ${sample.values.id}.` });
    const comments = await dbQuery<{ comment: string }>('SELECT comment FROM records.occurrences WHERE id = ANY($1::bigint[]) ORDER BY id', [[sample.occurrences[0].values.id, foreignOccurrence]]);
    expect(comments.map((row) => row.comment)).toEqual(['robin', 'robin']);
    expect((await api('GET', `/samples/${sample.values.id}`, { token: demoToken })).body.values.comment).toBe('first');
  });

  it("when someone else PUTs a record naming its children, then it is refused and the children stay as they were", async () => {
    const sample = await recordWithChildren();
    const attempt = await api('PUT', `/samples/${sample.values.id}`, { token: otherToken, body: { values: { comment: 'theirs' }, occurrences: [{ values: { id: sample.occurrences[0].values.id, comment: 'theirs' } }] } });
    expect(attempt.status).toBe(403);
    expect((await dbQuery<{ comment: string }>('SELECT comment FROM records.occurrences WHERE id = $1', [sample.occurrences[0].values.id]))[0].comment).toBe('robin');
  });

  it('when child samples and occurrence media carry ids, then they are updated too', async () => {
    const photo = await queuedPhoto(demoToken);
    const created = await post(
      '/samples',
      sampleSubmission({}, { samples: [{ values: { comment: 'section 1' }, occurrences: [{ values: { taxa_taxon_list_id: 1 }, media: [{ values: { queued: photo, caption: 'first' } }] }] }] }),
    );
    expect(created.status, created.text).toBe(201);
    const child = created.body.samples[0];
    const occurrence = child.occurrences[0];
    const put = await api('PUT', `/samples/${created.body.values.id}`, {
      token: demoToken,
      body: {
        values: {},
        samples: [{ values: { id: child.values.id, comment: 'section 1, walked' }, occurrences: [{ values: { id: occurrence.values.id }, media: [{ values: { id: occurrence.media[0].values.id, caption: 'second' } }] }] }],
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.samples[0].values.id).toBe(child.values.id);
    expect((await api('GET', `/samples/${child.values.id}`, { token: demoToken })).body.values.comment).toBe('section 1, walked');
    expect((await api('GET', `/occurrence_media/${occurrence.media[0].values.id}`, { token: demoToken })).body.values.caption).toBe('second');
    expect(await count('SELECT count(*) AS n FROM records.samples WHERE parent_id = $1 AND NOT deleted', [created.body.values.id])).toBe(1);
  });

  it('when an occurrence is PUT with its medium by id, then the medium is changed and not claimed again', async () => {
    const sample = await recordWithChildren();
    const photo = await queuedPhoto(demoToken);
    const occurrenceId = sample.occurrences[0].values.id;
    const withMedium = await api('PUT', `/occurrences/${occurrenceId}`, { token: demoToken, body: { values: {}, media: [{ values: { queued: photo, caption: 'one' } }] } });
    expect(withMedium.status, withMedium.text).toBe(200);
    const mediumId = withMedium.body.media[0].values.id;
    const again = await api('PUT', `/occurrences/${occurrenceId}`, { token: demoToken, body: { values: { comment: 'again' }, media: [{ values: { id: mediumId, caption: 'two' } }] } });
    expect(again.status, again.text).toBe(200);
    expect((await api('GET', `/occurrence_media/${mediumId}`, { token: demoToken })).body.values.caption).toBe('two');
    expect(await count('SELECT count(*) AS n FROM records.occurrence_media WHERE occurrence_id = $1 AND NOT deleted', [occurrenceId])).toBe(1);
  });
});
