// Occurrence associations as the recording apps send them: links between the
// occurrences of one submission (or to the recorder's existing ones).
import { beforeAll, describe, expect, it } from 'vitest';
import { OTHER_USER, api, dbQuery, eventually, sampleSubmission, setUpWorld, token } from './support/world.ts';

const REPORT = '/reports/library/occurrences/occurrence_associations.xml';
const VISITED = 31; // an association type term: "visited"
let demoToken: string;
let otherToken: string;

beforeAll(async () => {
  await setUpWorld();
  demoToken = await token();
  otherToken = await token({ userId: OTHER_USER });
});

const key = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const countOf = async (occurrenceIds: string[]) =>
  Number((await dbQuery<{ n: string }>('SELECT count(*) AS n FROM records.occurrence_associations WHERE from_occurrence_id = ANY($1::bigint[])', [occurrenceIds]))[0].n);

describe('occurrence associations', () => {
  it('when a submission links its occurrences by external_key, then they are stored, shown on the occurrence with ?verbose and listed in a report', async () => {
    const [bee, flower] = [key('bee'), key('flower')];
    const created = await api('POST', '/samples', {
      token: demoToken,
      body: sampleSubmission({}, {
        occurrences: [
          { values: { taxa_taxon_list_id: 1, external_key: bee }, associations: [{ external_key: flower, association_type_id: VISITED, comment: 'nectaring' }] },
          { values: { taxa_taxon_list_id: 2, external_key: flower } },
        ],
      }),
    });
    expect(created.status, created.text).toBe(201);
    const [beeId, flowerId] = created.body.occurrences.map((occurrence: { values: { id: string } }) => occurrence.values.id);
    const expected = { from_occurrence_id: beeId, to_occurrence_id: flowerId, association_type_id: String(VISITED), comment: 'nectaring' };

    const verbose = await api('GET', `/occurrences/${beeId}?verbose`, { token: demoToken });
    expect(verbose.status).toBe(200);
    expect(verbose.body.associations).toEqual([{ id: expect.stringMatching(/^\d+$/), ...expected }]);
    expect((await api('GET', `/occurrences/${flowerId}?verbose`, { token: demoToken })).body.associations).toEqual([{ id: verbose.body.associations[0].id, ...expected }]);
    expect((await api('GET', `/occurrences/${beeId}`, { token: demoToken })).body).not.toHaveProperty('associations');

    await eventually(async () => {
      const report = await api('GET', `${REPORT}?associated_occurrence_id=${flowerId}`, { token: demoToken });
      expect(report.status, report.text).toBe(200);
      expect(report.body.data).toEqual([
        expect.objectContaining({ from_occurrence_id: beeId, to_occurrence_id: flowerId, association_type_id: String(VISITED), comment: 'nectaring', from_taxon: 'Erithacus rubecula', to_taxon: 'Turdus merula' }),
      ]);
    });
  });

  it('when an occurrence is linked to an existing own occurrence by id, then it is stored; a stranger\'s or unknown one is 400 on that occurrence and nothing is written', async () => {
    const mine = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 3 } }] }) });
    const host = mine.body.occurrences[0].values.id;
    const theirs = await api('POST', '/samples', { token: otherToken, body: sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 3 } }] }) });
    const stranger = theirs.body.occurrences[0].values.id;

    const linked = await api('POST', '/occurrences', {
      token: demoToken,
      body: { values: { sample_id: mine.body.values.id, taxa_taxon_list_id: 4 }, associations: [{ to_occurrence_id: host, association_type_id: VISITED }] },
    });
    expect(linked.status, linked.text).toBe(201);
    expect((await api('GET', `/occurrences/${host}?verbose`, { token: demoToken })).body.associations).toEqual([
      expect.objectContaining({ from_occurrence_id: linked.body.values.id, to_occurrence_id: host, comment: null }),
    ]);

    const marker = key('refused');
    for (const target of [stranger, '999999999']) {
      const refused = await api('POST', '/samples', {
        token: demoToken,
        body: sampleSubmission({ comment: marker }, { occurrences: [{ values: { taxa_taxon_list_id: 1 }, associations: [{ to_occurrence_id: target, association_type_id: VISITED }] }] }),
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toEqual({ 'occurrence:associations': `The occurrence ${target} is not one of your occurrences.` });
    }
    expect((await dbQuery<{ n: string }>('SELECT count(*) AS n FROM records.samples WHERE comment = $1', [marker]))[0].n).toBe('0');
  });

  it('when an association names no occurrence of the submission, itself, or is malformed, then 400 names the problem on that occurrence', async () => {
    const post = (associations: unknown, values: Record<string, unknown> = { taxa_taxon_list_id: 1 }) =>
      api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { occurrences: [{ values, associations }, { values: { taxa_taxon_list_id: 2, external_key: key('other') } }] }) });
    const self = key('self');
    const cases: [unknown, string | RegExp, Record<string, unknown>?][] = [
      [[{ external_key: 'nobody', association_type_id: VISITED }], 'No occurrence of this submission has the external_key nobody.'],
      [[{ external_key: self, association_type_id: VISITED }], 'An occurrence cannot be associated with itself.', { taxa_taxon_list_id: 1, external_key: self }],
      [[{ association_type_id: VISITED }], /one of the two/],
      [[{ external_key: 'x', to_occurrence_id: 1, association_type_id: VISITED }], /one of the two/],
      [[{ to_occurrence_id: 'abc', association_type_id: VISITED }], 'to_occurrence_id must be an occurrence id.'],
      [[{ to_occurrence_id: 1 }], /association_type_id must be given/],
      [[{ to_occurrence_id: 1, association_type_id: VISITED, colour: 'red' }], /no field colour/],
      [['not an object'], /JSON object/],
    ];
    for (const [associations, message, values] of cases) {
      const answer = await post(associations, values);
      expect(answer.status, JSON.stringify(associations)).toBe(400);
      const text = typeof answer.body.message === 'string' ? answer.body.message : Object.values(answer.body.message).join(' ');
      expect(text, JSON.stringify(associations)).toMatch(message);
    }
    const notArray = await post({ external_key: 'x' });
    expect(notArray.status).toBe(400);
    expect(notArray.body.message).toEqual({ 'occurrence:associations': 'associations must be an array.' });
  });

  it('when occurrences/list links its items to each other, then each association is stored once', async () => {
    const sample = await api('POST', '/samples', { token: demoToken, body: sampleSubmission() });
    const [parasite, host] = [key('parasite'), key('host')];
    const list = await api('POST', '/occurrences/list', {
      token: demoToken,
      body: [
        { values: { sample_id: sample.body.values.id, taxa_taxon_list_id: 1, external_key: parasite }, associations: [{ external_key: host, association_type_id: VISITED }] },
        { values: { sample_id: sample.body.values.id, taxa_taxon_list_id: 2, external_key: host } },
      ],
    });
    expect(list.status, list.text).toBe(201);
    const ids = list.body.map((saved: { values: { id: string } }) => saved.values.id);
    expect(await countOf(ids)).toBe(1);
    const bad = await api('POST', '/occurrences/list', {
      token: demoToken,
      body: [
        { values: { sample_id: sample.body.values.id, taxa_taxon_list_id: 1 } },
        { values: { sample_id: sample.body.values.id, taxa_taxon_list_id: 2 }, associations: [{ external_key: 'missing', association_type_id: VISITED }] },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual({ '1/occurrence:associations': 'No occurrence of this submission has the external_key missing.' });
  });

  it("when one end of an association is deleted or not visible to the caller, then the report leaves it out", async () => {
    const [a, b] = [key('a'), key('b')];
    const created = await api('POST', '/samples', {
      token: demoToken,
      body: sampleSubmission({}, {
        occurrences: [
          { values: { taxa_taxon_list_id: 1, external_key: a }, associations: [{ external_key: b, association_type_id: VISITED }] },
          { values: { taxa_taxon_list_id: 2, external_key: b, confidential: true } },
        ],
      }),
    });
    const [fromId, toId] = created.body.occurrences.map((occurrence: { values: { id: string } }) => occurrence.values.id);
    const rows = async () => (await api('GET', `${REPORT}?associated_occurrence_id=${fromId}`, { token: demoToken })).body.data;
    // The target is confidential: reports leave confidential records out, and so the link to it.
    await eventually(async () => expect((await dbQuery('SELECT 1 FROM reports.occurrence_associations WHERE from_occurrence_id = $1', [fromId])).length).toBe(1));
    expect(await rows()).toEqual([]);
    expect((await api('PUT', `/occurrences/${toId}`, { token: demoToken, body: { values: { confidential: false } } })).status).toBe(200);
    await eventually(async () => expect(await rows()).toHaveLength(1));
    expect((await api('DELETE', `/occurrences/${toId}`, { token: demoToken })).status).toBe(204);
    await eventually(async () => expect(await rows()).toEqual([]));
    expect((await api('GET', `/occurrences/${fromId}?verbose`, { token: demoToken })).body.associations).toEqual([]);
  });
});
