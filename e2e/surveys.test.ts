import { beforeAll, describe, expect, it } from 'vitest';
import { EDITOR_USER, SECOND_WEBSITE, api, sampleSubmission, services, setUpWorld, token } from './support/world.ts';

let editor: string;
let user: string;

beforeAll(async () => {
  await setUpWorld();
  editor = await token({ userId: EDITOR_USER });
  user = await token();
});

describe('survey structure', () => {
  it('when an editor creates a survey and adds an attribute, then users can list it, read it and record against it', async () => {
    const created = await api('POST', '/surveys', { token: editor, body: { values: { title: 'Moth traps', description: 'Nightly catches' } } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.values.id;
    expect(created.body.href).toBe(`${services()}/surveys/${id}`);
    const attribute = await api('POST', `/surveys/${id}/attributes`, {
      token: editor,
      body: { values: { entity: 'occurrence', caption: 'Trap type', data_type: 'L', required: true, terms: ['Robinson', 'Skinner'] } },
    });
    expect(attribute.status, attribute.text).toBe(201);
    const attributeId = attribute.body.values.id;

    const listed = await api('GET', '/surveys', { token: user });
    expect(listed.body.map((s: { values: { title: string } }) => s.values.title)).toContain('Moth traps');
    const read = await api('GET', `/surveys/${id}`, { token: user });
    expect(read.body.values).toMatchObject({ title: 'Moth traps', description: 'Nightly catches' });
    expect(read.body.attributes).toHaveLength(1);
    expect(read.body.attributes[0].values).toMatchObject({ id: attributeId, entity: 'occurrence', caption: 'Trap type', data_type: 'L', required: 't' });
    const [robinson] = read.body.attributes[0].values.terms[0].split(':');

    const missing = await api('POST', '/samples', { token: user, body: sampleSubmission({ survey_id: id }, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }) });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toEqual({ [`occurrence:occAttr:${attributeId}`]: 'A value is required for this attribute.' });
    const recorded = await api('POST', '/samples', {
      token: user,
      body: sampleSubmission({ survey_id: id }, { occurrences: [{ values: { taxa_taxon_list_id: 1, [`occAttr:${attributeId}`]: robinson } }] }),
    });
    expect(recorded.status, recorded.text).toBe(201);
    const occurrence = await api('GET', `/occurrences/${recorded.body.occurrences[0].values.id}`, { token: user });
    expect(occurrence.body.values[`occAttr:${attributeId}`]).toBe('Robinson');
  });

  it('when an editor changes an attribute and then detaches it, then submissions follow and stored values stay', async () => {
    const survey = (await api('POST', '/surveys', { token: editor, body: { values: { title: 'Ponds' } } })).body.values.id;
    const added = await api('POST', `/surveys/${survey}/attributes`, {
      token: editor,
      body: { values: { entity: 'sample', caption: 'Water', data_type: 'L', required: true, terms: ['Clear'] } },
    });
    const attribute = added.body.values.id;
    const changed = await api('PUT', `/surveys/${survey}/attributes/${attribute}`, {
      token: editor,
      body: { values: { caption: 'Water clarity', required: false, terms: ['Clear', 'Murky'] } },
    });
    expect(changed.status, changed.text).toBe(200);
    const read = await api('GET', `/surveys/${survey}`, { token: user });
    expect(read.body.attributes[0].values).toMatchObject({ caption: 'Water clarity', required: 'f' });
    expect(read.body.attributes[0].values.terms.map((term: string) => term.split(':')[1])).toEqual(['Clear', 'Murky']);
    const murky = read.body.attributes[0].values.terms[1].split(':')[0];

    expect((await api('POST', '/samples', { token: user, body: sampleSubmission({ survey_id: survey }) })).status).toBe(201);
    const recorded = await api('POST', '/samples', { token: user, body: sampleSubmission({ survey_id: survey, [`smpAttr:${attribute}`]: murky }) });
    expect(recorded.status, recorded.text).toBe(201);

    const refused = await api('PUT', `/surveys/${survey}/attributes/${attribute}`, { token: editor, body: { values: { data_type: 'T' } } });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.message)).toEqual(['attribute:data_type']);
    expect((await api('PUT', `/surveys/${survey}/attributes/${attribute}`, { token: user, body: { values: { caption: 'x' } } })).status).toBe(403);
    expect((await api('DELETE', `/surveys/${survey}/attributes/${attribute}`, { token: user })).status).toBe(403);

    expect((await api('DELETE', `/surveys/${survey}/attributes/${attribute}`, { token: editor })).status).toBe(204);
    expect((await api('GET', `/surveys/${survey}`, { token: user })).body.attributes).toEqual([]);
    expect((await api('DELETE', `/surveys/${survey}/attributes/${attribute}`, { token: editor })).status).toBe(404);
    const detached = await api('POST', '/samples', { token: user, body: sampleSubmission({ survey_id: survey, [`smpAttr:${attribute}`]: murky }) });
    expect(detached.status).toBe(400);
    expect(Object.keys(detached.body.message)).toEqual([`sample:smpAttr:${attribute}`]);
    const kept = await api('GET', `/samples/${recorded.body.values.id}`, { token: user });
    expect(kept.body.values[`smpAttr:${attribute}`]).toBe('Murky');
  });

  it('when an editor renames a survey, then the new title is read back', async () => {
    const created = await api('POST', '/surveys', { token: editor, body: { values: { title: 'Old title' } } });
    const updated = await api('PUT', `/surveys/${created.body.values.id}`, { token: editor, body: { values: { title: 'New title' } } });
    expect(updated.status).toBe(200);
    expect((await api('GET', `/surveys/${created.body.values.id}`, { token: user })).body.values.title).toBe('New title');
  });

  it('when a plain user tries to create or change surveys, then 403', async () => {
    const refused = await api('POST', '/surveys', { token: user, body: { values: { title: 'Mine' } } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only administrators and editors of the website may create or change surveys.');
    expect((await api('PUT', '/surveys/1', { token: user, body: { values: { title: 'x' } } })).status).toBe(403);
    expect((await api('POST', '/surveys/1/attributes', { token: user, body: { values: { entity: 'sample', caption: 'x', data_type: 'T' } } })).status).toBe(403);
  });

  it("when another website's survey is asked for, then 404", async () => {
    expect((await api('GET', `/surveys/${SECOND_WEBSITE.surveyId}`, { token: user })).status).toBe(404);
    expect((await api('PUT', `/surveys/${SECOND_WEBSITE.surveyId}`, { token: editor, body: { values: { title: 'x' } } })).status).toBe(404);
  });

  it.each([
    ['a survey without a title', '/surveys', { description: 'x' }, 'survey:title'],
    ['an attribute with an unknown type', '/surveys/1/attributes', { entity: 'sample', caption: 'x', data_type: 'Z' }, 'attribute:data_type'],
    ['a lookup attribute without terms', '/surveys/1/attributes', { entity: 'sample', caption: 'x', data_type: 'L' }, 'attribute:terms'],
    ['an attribute of an unknown entity', '/surveys/1/attributes', { entity: 'planet', caption: 'x', data_type: 'T' }, 'attribute:entity'],
  ])('when %s is submitted, then 400 naming it', async (_case, path, values, key) => {
    const response = await api('POST', path, { token: editor, body: { values } });
    expect(response.status).toBe(400);
    expect(response.body.message).toHaveProperty(key);
  });
});
