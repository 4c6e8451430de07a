import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '@rex/admin';
import { queuedPhoto } from './support/media.ts';
import { EDITOR_USER, OTHER_USER, api, sampleSubmission, setUpWorld, token } from './support/world.ts';

let demoToken: string;
let editorToken: string;
let otherToken: string;

beforeAll(async () => {
  await setUpWorld();
  demoToken = await token();
  editorToken = await token({ userId: EDITOR_USER });
  otherToken = await token({ userId: OTHER_USER });
});

describe("the website's administrators and editors", () => {
  it("when an editor reads, changes and deletes another user's records, then it is allowed, as it is not for a plain user", async () => {
    const photo = await queuedPhoto(demoToken);
    const sample = await api('POST', '/samples', {
      token: demoToken,
      body: sampleSubmission({ comment: 'mine' }, { occurrences: [{ values: { taxa_taxon_list_id: DEMO.taxonIds[0] }, media: [{ values: { queued: photo } }] }] }),
    });
    expect(sample.status, sample.text).toBe(201);
    const id = sample.body.values.id;
    const occurrenceId = sample.body.occurrences[0].values.id;
    const mediumId = sample.body.occurrences[0].media[0].values.id;

    expect((await api('GET', `/samples/${id}`, { token: otherToken })).status).toBe(403);
    expect((await api('DELETE', `/occurrences/${occurrenceId}`, { token: otherToken })).status).toBe(403);

    expect((await api('GET', `/samples/${id}`, { token: editorToken })).body.values.comment).toBe('mine');
    expect((await api('PUT', `/samples/${id}`, { token: editorToken, body: { values: { comment: 'checked by the editor' } } })).status).toBe(200);
    expect((await api('GET', `/samples/${id}`, { token: demoToken })).body.values).toMatchObject({ comment: 'checked by the editor', updated_by_id: String(EDITOR_USER) });
    const listed = await api('GET', `/occurrences?sample_id=${id}`, { token: editorToken });
    expect(listed.body.map((row: { values: { id: string } }) => row.values.id)).toEqual([occurrenceId]);
    expect((await api('GET', `/occurrences?sample_id=${id}`, { token: otherToken })).body).toEqual([]);

    // A medium is changed by its creator only, but moderators may read and remove it.
    expect((await api('GET', `/occurrence_media/${mediumId}`, { token: editorToken })).status).toBe(200);
    expect((await api('PUT', `/occurrence_media/${mediumId}`, { token: editorToken, body: { values: { caption: 'x' } } })).status).toBe(403);

    expect((await api('DELETE', `/occurrences/${occurrenceId}`, { token: editorToken })).status).toBe(204);
    expect((await api('DELETE', `/samples/${id}`, { token: editorToken })).status).toBe(204);
    expect((await api('GET', `/samples/${id}`, { token: demoToken })).status).toBe(404);
  });

  it('when an editor works in the user scope, then only deleting reaches beyond their own records', async () => {
    const scoped = await token({ userId: EDITOR_USER, claims: { scope: 'userWithinWebsite' } });
    const sample = await api('POST', '/samples', { token: demoToken, body: sampleSubmission() });
    const id = sample.body.values.id;
    expect((await api('GET', `/samples/${id}`, { token: scoped })).status).toBe(403);
    expect((await api('PUT', `/samples/${id}`, { token: scoped, body: { values: { comment: 'no' } } })).status).toBe(403);
    expect((await api('GET', `/samples?id=${id}`, { token: scoped })).body).toEqual([]);
    expect((await api('DELETE', `/samples/${id}`, { token: scoped })).status).toBe(204);
  });

  it("when an editor reads or changes another user's location, then it is allowed", async () => {
    const location = await api('POST', '/locations', { token: demoToken, body: { values: { name: 'Wood', centroid_sref: 'SU1234', centroid_sref_system: 'OSGB' } } });
    const id = location.body.values.id;
    expect((await api('GET', `/locations/${id}`, { token: otherToken })).status).toBe(403);
    expect((await api('PUT', `/locations/${id}`, { token: editorToken, body: { values: { name: 'Old wood' } } })).status).toBe(200);
    expect((await api('GET', `/locations/${id}`, { token: demoToken })).body.values.name).toBe('Old wood');
  });
});
