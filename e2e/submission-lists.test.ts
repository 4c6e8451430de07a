import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '@rex/admin';
import { queuedPhoto } from './support/media.ts';
import { OTHER_USER, api, dbQuery, sampleSubmission, services, setUpWorld, token } from './support/world.ts';

let demoToken: string;

beforeAll(async () => {
  await setUpWorld();
  demoToken = await token();
});

const count = async (table: string) => Number((await dbQuery<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`))[0].n);

describe('POST samples/list and occurrences/list', () => {
  it('when several samples are posted as a list, then all are created and answered in order, with media', async () => {
    const photo = await queuedPhoto(demoToken);
    const answer = await api('POST', '/samples/list', {
      token: demoToken,
      body: [
        sampleSubmission({ comment: 'first' }, { occurrences: [{ values: { taxa_taxon_list_id: DEMO.taxonIds[0] } }] }),
        sampleSubmission({ comment: 'second' }, { media: [{ values: { queued: photo } }] }),
      ],
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.headers.get('location')).toBeNull();
    expect(answer.body).toHaveLength(2);
    expect(answer.body[0].href).toBe(`${services()}/samples/${answer.body[0].values.id}`);
    expect(answer.body[0].occurrences).toHaveLength(1);
    expect(answer.body[1].media[0].href).toMatch(/\/sample_media\/\d+$/);
    expect((await api('GET', `/samples/${answer.body[1].values.id}`, { token: demoToken })).body.values.comment).toBe('second');
  });

  it('when one sample of a list is invalid, then none is written and the error names its position', async () => {
    const before = await count('records.samples');
    const answer = await api('POST', '/samples/list', { token: demoToken, body: [sampleSubmission(), sampleSubmission({ date: 'yesterday-ish' }), sampleSubmission()] });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toEqual({ '1/sample:date_type': 'The date could not be recognised.' });
    expect(await count('records.samples')).toBe(before);
    const twice = await api('POST', '/samples/list', {
      token: demoToken,
      body: [sampleSubmission(), sampleSubmission({ external_key: 'twin' }), sampleSubmission({ external_key: 'twin' })],
    });
    expect(twice.body.message).toEqual({ '2/sample:external_key': 'The external key twin is given to more than one sample.' });
  });

  it('when a list is retried with its Idempotency-Key, then the first answer comes back', async () => {
    const headers = { 'Idempotency-Key': `list-${Date.now()}` };
    const body = [sampleSubmission({ comment: 'a' }), sampleSubmission({ comment: 'b' })];
    const first = await api('POST', '/samples/list', { token: demoToken, body, headers });
    const again = await api('POST', '/samples/list', { token: demoToken, body, headers });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('when the body is not an array, or the plain end-point gets an array, then 400', async () => {
    expect((await api('POST', '/samples/list', { token: demoToken, body: sampleSubmission() })).status).toBe(400);
    expect((await api('POST', '/samples', { token: demoToken, body: [sampleSubmission()] })).status).toBe(400);
    expect((await api('POST', '/samples/list', { token: demoToken, body: [] })).status).toBe(400);
  });

  it("when occurrences are posted as a list, then all are created in the caller's samples, or none", async () => {
    const sample = (await api('POST', '/samples', { token: demoToken, body: sampleSubmission() })).body.values.id;
    const other = (await api('POST', '/samples', { token: await token({ userId: OTHER_USER }), body: sampleSubmission() })).body.values.id;
    const created = await api('POST', '/occurrences/list', {
      token: demoToken,
      body: [
        { values: { sample_id: sample, taxa_taxon_list_id: DEMO.taxonIds[0] } },
        { values: { sample_id: sample, taxa_taxon_list_id: DEMO.taxonIds[1] }, media: [{ values: { queued: await queuedPhoto(demoToken) } }] },
      ],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.map((o: { href: string }) => o.href)).toEqual(created.body.map((o: { values: { id: string } }) => `${services()}/occurrences/${o.values.id}`));
    expect(created.body[1].media).toHaveLength(1);

    const before = await count('records.occurrences');
    const refused = await api('POST', '/occurrences/list', {
      token: demoToken,
      body: [{ values: { sample_id: sample, taxa_taxon_list_id: DEMO.taxonIds[0] } }, { values: { sample_id: other, taxa_taxon_list_id: DEMO.taxonIds[0] } }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toEqual({ '1/occurrence:sample_id': 'Attempt to create occurrence in invalid sample.' });
    expect(await count('records.occurrences')).toBe(before);

    const other2 = (await api('POST', '/samples', { token: demoToken, body: sampleSubmission() })).body.values.id;
    const headers = { 'Idempotency-Key': `occurrences-${Date.now()}` };
    const body = [{ values: { sample_id: sample, taxa_taxon_list_id: DEMO.taxonIds[2] } }, { values: { sample_id: other2, taxa_taxon_list_id: DEMO.taxonIds[3] } }];
    const first = await api('POST', '/occurrences/list', { token: demoToken, body, headers });
    expect(first.status, first.text).toBe(201);
    const again = await api('POST', '/occurrences/list', { token: demoToken, body, headers });
    expect(again.body).toEqual(first.body);
    expect(await count('records.occurrences')).toBe(before + 2);
    expect((await api('GET', `/occurrences/${first.body[1].values.id}`, { token: demoToken })).body.values.sample_id).toBe(other2);
  });
});
