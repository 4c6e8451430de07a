import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '@rex/admin';
import { EDITOR_USER, api, sampleSubmission, setUpWorld, token } from './support/world.ts';

let demoToken: string;
let editorToken: string;

beforeAll(async () => {
  await setUpWorld();
  demoToken = await token();
  editorToken = await token({ userId: EDITOR_USER });
});

// The API's decision: user authentication reaches only the user's own records, whatever the role
// (administrators and editors change survey structure, and report on everything, instead).
describe("the website's administrators and editors", () => {
  it("when an editor reads, lists, changes or deletes another user's records, then 403 (or nothing listed)", async () => {
    const sample = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: DEMO.taxonIds[0] } }] }) });
    const id = sample.body.values.id;
    const occurrence = sample.body.occurrences[0].values.id;
    const location = (await api('POST', '/locations', { token: demoToken, body: { values: { name: 'Wood', centroid_sref: 'SU1234', centroid_sref_system: 'OSGB' } } })).body.values.id;

    for (const path of [`/samples/${id}`, `/occurrences/${occurrence}`, `/locations/${location}`]) {
      const read = await api('GET', path, { token: editorToken });
      expect(read.status, path).toBe(403);
      expect(read.body).toEqual({ code: 403, status: 'Forbidden', message: 'Resource belongs to a different user account.' });
      expect((await api('PUT', path, { token: editorToken, body: { values: { comment: 'x' } } })).status, path).toBe(403);
      expect((await api('DELETE', path, { token: editorToken })).status, path).toBe(403);
    }
    expect((await api('GET', `/samples?id=${id}`, { token: editorToken })).body).toEqual([]);
    expect((await api('GET', `/samples/${id}`, { token: demoToken })).status).toBe(200);
  });
});
