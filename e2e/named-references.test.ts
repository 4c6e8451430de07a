// The licences, groups and sample methods records name: an id that does not
// exist (or a group of another website) is refused with a 400 naming the
// field, and nothing of the write is saved.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '@rex/admin';
import { SECOND_WEBSITE, addToWorld, api, dbQuery, sampleSubmission, setUpWorld, token } from './support/world.ts';

const LICENCE = { cc0: 3, ogl: 4, unknown: 999_999 };
const GROUP = { own: 901, otherWebsite: 902, disabled: 903, unknown: 999_999 };
const SAMPLE_METHOD = { transect: 9001, trap: 9002, unknown: 999_999 };
/** A term of a lookup attribute (the world's "Stage": Adult), which is no sample method. */
const ATTRIBUTE_TERM = 1;
const LINK = { path: 'https://inaturalist-open-data.s3.amazonaws.com/photos/1234/square.jpg', media_type: 'Image:iNaturalist' };
const TABLES = ['samples', 'occurrences', 'locations', 'sample_media', 'occurrence_media', 'location_media', 'outbox'];

let demoToken: string;

/** Rows of every table a write may touch: a refused write leaves them all as they were. */
async function counts(): Promise<Record<string, number>> {
  const [row] = await dbQuery<Record<string, number>>(`SELECT ${TABLES.map((table) => `(SELECT count(*)::int FROM records.${table}) AS ${table}`).join(', ')}`);
  return row;
}

/** Sends a write that must be refused; checks the JSON error and that nothing was saved. */
async function refused(method: string, path: string, body: unknown, message: Record<string, string>): Promise<void> {
  const before = await counts();
  const response = await api(method, path, { token: demoToken, body });
  expect(response.status, response.text).toBe(400);
  expect(response.body).toEqual({ code: 400, status: 'Bad Request', message });
  expect(await counts()).toEqual(before);
}

async function created(path: string, body: unknown) {
  const response = await api('POST', path, { token: demoToken, body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

beforeAll(async () => {
  await setUpWorld();
  await addToWorld({
    groups: [
      { id: GROUP.own, website_id: DEMO.websiteId, title: 'Garden watchers' },
      { id: GROUP.otherWebsite, website_id: SECOND_WEBSITE.id, title: 'Second website group' },
      { id: GROUP.disabled, website_id: DEMO.websiteId, title: 'Disbanded' },
    ],
    sample_methods: [
      { id: SAMPLE_METHOD.transect, term: 'Transect' },
      { id: SAMPLE_METHOD.trap, term: 'Light Trap' },
    ],
  });
  await dbQuery('UPDATE records.groups SET deleted = true WHERE id = $1', [GROUP.disabled]);
  demoToken = await token();
});

describe('a sample names an existing licence, group of its website and sample method', () => {
  it('when all three exist, then the sample is saved with them, and a PUT may change them', async () => {
    const body = await created(
      '/samples',
      sampleSubmission(
        { licence_id: LICENCE.cc0, group_id: GROUP.own, sample_method_id: SAMPLE_METHOD.transect },
        { samples: [{ values: { comment: 'section 1' } }], media: [{ values: { ...LINK, licence_id: LICENCE.ogl } }] },
      ),
    );
    const read = await api('GET', `/samples/${body.values.id}`, { token: demoToken });
    expect(read.body.values).toMatchObject({ licence_id: String(LICENCE.cc0), group_id: String(GROUP.own), sample_method_id: String(SAMPLE_METHOD.transect) });
    // The child sample takes the licence and group from its parent.
    const child = await api('GET', `/samples/${body.samples[0].values.id}`, { token: demoToken });
    expect(child.body.values).toMatchObject({ licence_id: String(LICENCE.cc0), group_id: String(GROUP.own) });
    const medium = await api('GET', `/sample_media/${body.media[0].values.id}`, { token: demoToken });
    expect(medium.body.values.licence_id).toBe(String(LICENCE.ogl));

    const changed = await api('PUT', `/samples/${body.values.id}`, { token: demoToken, body: { values: { licence_id: LICENCE.ogl, sample_method_id: SAMPLE_METHOD.trap } } });
    expect(changed.status, changed.text).toBe(200);
    expect((await api('GET', `/samples/${body.values.id}`, { token: demoToken })).body.values).toMatchObject({
      licence_id: String(LICENCE.ogl),
      sample_method_id: String(SAMPLE_METHOD.trap),
    });
    // Clearing them needs no check.
    const cleared = await api('PUT', `/samples/${body.values.id}`, { token: demoToken, body: { values: { licence_id: null, group_id: null, sample_method_id: null } } });
    expect(cleared.status, cleared.text).toBe(200);
  });

  it.each([
    ['the licence does not exist', { licence_id: LICENCE.unknown }, { 'sample:licence_id': `The licence ${LICENCE.unknown} is not known.` }],
    ['the group does not exist', { group_id: GROUP.unknown }, { 'sample:group_id': `The group ${GROUP.unknown} is not a group of this website.` }],
    ['the group is of another website', { group_id: GROUP.otherWebsite }, { 'sample:group_id': `The group ${GROUP.otherWebsite} is not a group of this website.` }],
    ['the group is disabled', { group_id: GROUP.disabled }, { 'sample:group_id': `The group ${GROUP.disabled} is not a group of this website.` }],
    ['the sample method does not exist', { sample_method_id: SAMPLE_METHOD.unknown }, { 'sample:sample_method_id': `The sample method ${SAMPLE_METHOD.unknown} is not known.` }],
    ['the sample method is a term of an attribute', { sample_method_id: ATTRIBUTE_TERM }, { 'sample:sample_method_id': `The sample method ${ATTRIBUTE_TERM} is not known.` }],
    [
      'all three are unknown',
      { licence_id: LICENCE.unknown, group_id: GROUP.unknown, sample_method_id: SAMPLE_METHOD.unknown },
      {
        'sample:licence_id': `The licence ${LICENCE.unknown} is not known.`,
        'sample:group_id': `The group ${GROUP.unknown} is not a group of this website.`,
        'sample:sample_method_id': `The sample method ${SAMPLE_METHOD.unknown} is not known.`,
      },
    ],
  ])('when %s, then POST /samples is 400 naming the field and saves nothing', async (_case, values, message) => {
    await refused('POST', '/samples', sampleSubmission(values, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }), message);
  });

  it('when a child sample names an unknown sample method, then the whole tree is refused', async () => {
    await refused(
      'POST',
      '/samples',
      sampleSubmission({ sample_method_id: SAMPLE_METHOD.transect }, { samples: [{ values: { sample_method_id: SAMPLE_METHOD.unknown } }] }),
      { 'sample:sample_method_id': `The sample method ${SAMPLE_METHOD.unknown} is not known.` },
    );
  });

  it("when a sample's or an occurrence's medium names an unknown licence, then 400 naming the medium's field", async () => {
    await refused('POST', '/samples', sampleSubmission({}, { media: [{ values: { ...LINK, licence_id: LICENCE.unknown } }] }), {
      'sample_medium:licence_id': `The licence ${LICENCE.unknown} is not known.`,
    });
    await refused(
      'POST',
      '/samples',
      sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 1 }, media: [{ values: { ...LINK, licence_id: LICENCE.unknown } }] }] }),
      { 'occurrence_medium:licence_id': `The licence ${LICENCE.unknown} is not known.` },
    );
  });

  it('when one sample of a list names an unknown group, then none is saved and the error names its position', async () => {
    await refused('POST', '/samples/list', [sampleSubmission({ group_id: GROUP.own }), sampleSubmission({ group_id: GROUP.otherWebsite })], {
      '1/sample:group_id': `The group ${GROUP.otherWebsite} is not a group of this website.`,
    });
  });

  it('when a PUT names an unknown licence, group or sample method, here or in a new child, then 400 and the sample stays as it was', async () => {
    const body = await created('/samples', sampleSubmission({ comment: 'before', licence_id: LICENCE.cc0 }, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }));
    const id = body.values.id;
    await refused('PUT', `/samples/${id}`, { values: { comment: 'after', group_id: GROUP.otherWebsite } }, {
      'sample:group_id': `The group ${GROUP.otherWebsite} is not a group of this website.`,
    });
    await refused('PUT', `/samples/${id}`, { values: { comment: 'after' }, samples: [{ values: { ...sampleSubmission().values as object, licence_id: LICENCE.unknown } }] }, {
      'sample:licence_id': `The licence ${LICENCE.unknown} is not known.`,
    });
    await refused(
      'PUT',
      `/samples/${id}`,
      { values: { comment: 'after' }, occurrences: [{ values: { id: body.occurrences[0].values.id }, media: [{ values: { ...LINK, licence_id: LICENCE.unknown } }] }] },
      { 'occurrence_medium:licence_id': `The licence ${LICENCE.unknown} is not known.` },
    );
    expect((await api('GET', `/samples/${id}`, { token: demoToken })).body.values).toMatchObject({ comment: 'before', licence_id: String(LICENCE.cc0), group_id: null });
  });
});

describe("media name an existing licence", () => {
  it('when an occurrence, or a list of them, carries a medium with an unknown licence, then 400 and nothing is saved', async () => {
    const sample = await created('/samples', sampleSubmission());
    const occurrence = (licence: number) => ({ values: { sample_id: sample.values.id, taxa_taxon_list_id: 1 }, media: [{ values: { ...LINK, licence_id: licence } }] });
    await refused('POST', '/occurrences', occurrence(LICENCE.unknown), { 'occurrence_medium:licence_id': `The licence ${LICENCE.unknown} is not known.` });
    await refused('POST', '/occurrences/list', [occurrence(LICENCE.cc0), occurrence(LICENCE.unknown)], {
      '1/occurrence_medium:licence_id': `The licence ${LICENCE.unknown} is not known.`,
    });
    const saved = await created('/occurrences', occurrence(LICENCE.cc0));
    const mediumId = saved.media[0].values.id;
    await refused('PUT', `/occurrences/${saved.values.id}`, { values: {}, media: [{ values: { id: mediumId, licence_id: LICENCE.unknown } }] }, {
      'occurrence_medium:licence_id': `The licence ${LICENCE.unknown} is not known.`,
    });
    await refused('PUT', `/occurrence_media/${mediumId}`, { values: { licence_id: LICENCE.unknown } }, { 'occurrence_medium:licence_id': `The licence ${LICENCE.unknown} is not known.` });
    expect((await api('GET', `/occurrence_media/${mediumId}`, { token: demoToken })).body.values.licence_id).toBe(String(LICENCE.cc0));
    const changed = await api('PUT', `/occurrence_media/${mediumId}`, { token: demoToken, body: { values: { licence_id: LICENCE.ogl } } });
    expect(changed.status, changed.text).toBe(200);
  });

  it('when a medium added on its own names an unknown licence, then 400; a known one is saved', async () => {
    const sample = await created('/samples', sampleSubmission());
    await refused('POST', '/sample_media', { values: { sample_id: sample.values.id, ...LINK, licence_id: LICENCE.unknown } }, {
      'sample_medium:licence_id': `The licence ${LICENCE.unknown} is not known.`,
    });
    const medium = await created('/sample_media', { values: { sample_id: sample.values.id, ...LINK, licence_id: LICENCE.cc0 } });
    expect((await api('GET', `/sample_media/${medium.values.id}`, { token: demoToken })).body.values.licence_id).toBe(String(LICENCE.cc0));
  });

  it("when a location's medium names an unknown licence, then 400 on POST and PUT and nothing is saved", async () => {
    const location = (licence: number) => ({
      values: { name: 'Pond', centroid_sref: 'SU1234', centroid_sref_system: 'OSGB' },
      media: [{ values: { ...LINK, licence_id: licence } }],
    });
    await refused('POST', '/locations', location(LICENCE.unknown), { 'location_medium:licence_id': `The licence ${LICENCE.unknown} is not known.` });
    const saved = await created('/locations', location(LICENCE.cc0));
    await refused('PUT', `/locations/${saved.values.id}`, { values: { name: 'Big pond' }, media: [{ values: { ...LINK, licence_id: LICENCE.unknown } }] }, {
      'location_medium:licence_id': `The licence ${LICENCE.unknown} is not known.`,
    });
    expect((await api('GET', `/locations/${saved.values.id}`, { token: demoToken })).body.values.name).toBe('Pond');
  });
});
