import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { OTHER_USER, api, dbQuery, eventually, sampleSubmission, services, setUpWorld, token } from './support/world.ts';

let demoToken: string;
let otherToken: string;
let sampleId: string;

beforeAll(async () => {
  await setUpWorld();
  demoToken = await token();
  otherToken = await token({ userId: OTHER_USER });
  const created = await api('POST', '/samples', { token: demoToken, body: sampleSubmission() });
  sampleId = created.body.values.id;
});

const create = (values: Record<string, unknown>, as = demoToken, headers: Record<string, string> = {}) =>
  api('POST', '/occurrences', { token: as, body: { values: { sample_id: sampleId, ...values } }, headers });

describe('occurrences on their own', () => {
  it('when an occurrence is posted into an own sample, then it is created and reads back with its taxon and attributes', async () => {
    const created = await create({ taxa_taxon_list_id: 2, 'occAttr:1': '4', 'occAttr:4': '1', confidential: true, comment: 'by the pond' });
    expect(created.status, created.text).toBe(201);
    expect(created.body.href).toBe(`${services()}/occurrences/${created.body.values.id}`);
    expect(created.headers.get('location')).toBe(created.body.href);
    expect(created.headers.get('etag')).toMatch(/^"\d+"$/);
    const read = await api('GET', `/occurrences/${created.body.values.id}`, { token: demoToken });
    expect(read.status).toBe(200);
    expect(read.body.values).toMatchObject({
      sample_id: sampleId,
      taxa_taxon_list_id: '2',
      taxon: 'Turdus merula',
      default_common_name: 'Blackbird',
      confidential: 't',
      zero_abundance: 'f',
      record_status: 'C',
      release_status: 'R',
      comment: 'by the pond',
      deleted: 'f',
      'occAttr:1': '4',
      'occAttr:4': 'Adult',
    });
  });

  it('when an occurrence is read with ?verbose, then a lookup attribute gives its term as value and the term id as raw_value', async () => {
    const created = await create({ taxa_taxon_list_id: 2, 'occAttr:1': '4', 'occAttr:4': '1' });
    const read = await api('GET', `/occurrences/${created.body.values.id}?verbose`, { token: demoToken });
    expect(read.status).toBe(200);
    expect(read.body.values).toMatchObject({
      taxon: 'Turdus merula',
      'occAttr:1': { attribute_id: '1', caption: 'Count', data_type: 'I', multi_value: 'f', value: '4', raw_value: '4', upper_value: null },
      'occAttr:4': { attribute_id: '4', caption: 'Stage', data_type: 'L', multi_value: 'f', value: 'Adult', raw_value: '1', upper_value: null },
    });
    expect(read.body.values['occAttr:4'].value_id).toMatch(/^\d+$/);
  });

  it('when an occurrence is changed, then only the sent values change, attributes are replaced and the ETag moves on', async () => {
    const created = await create({ taxa_taxon_list_id: 1, 'occAttr:1': '1' });
    const id = created.body.values.id;
    const updated = await api('PUT', `/occurrences/${id}`, { token: demoToken, body: { values: { 'occAttr:1': '7', record_status: 'V' } }, headers: { 'If-Match': created.headers.get('etag')! } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.headers.get('etag')).not.toBe(created.headers.get('etag'));
    const read = await api('GET', `/occurrences/${id}`, { token: demoToken });
    expect(read.body.values).toMatchObject({ taxa_taxon_list_id: '1', 'occAttr:1': '7', record_status: 'V' });
    const stale = await api('PUT', `/occurrences/${id}`, { token: demoToken, body: { values: { comment: 'x' } }, headers: { 'If-Match': created.headers.get('etag')! } });
    expect(stale.status).toBe(412);
  });

  it('when one stored value is sent as occAttr:<id>:<valueId>, then only it changes; a value id not of that attribute on that occurrence is 400', async () => {
    const created = await create({ taxa_taxon_list_id: 1, 'occAttr:1': '4', 'occAttr:4': '1' });
    const id = created.body.values.id;
    const values = await dbQuery<{ id: string; attribute_id: string }>(
      'SELECT id, attribute_id FROM records.occurrence_attribute_values WHERE occurrence_id = $1 AND NOT deleted ORDER BY attribute_id',
      [id],
    );
    const [count, stage] = values;
    const updated = await api('PUT', `/occurrences/${id}`, { token: demoToken, body: { values: { [`occAttr:1:${count.id}`]: '9' } } });
    expect(updated.status, updated.text).toBe(200);
    expect((await api('GET', `/occurrences/${id}`, { token: demoToken })).body.values).toMatchObject({ 'occAttr:1': '9', 'occAttr:4': 'Adult' });

    const wrong = await api('PUT', `/occurrences/${id}`, { token: demoToken, body: { values: { [`occAttr:1:${stage.id}`]: '5', comment: 'lost' } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toEqual({ [`occurrence:occAttr:1:${stage.id}`]: `Value ${stage.id} is not a current value of attribute 1 on this occurrence.` });
    const read = await api('GET', `/occurrences/${id}`, { token: demoToken });
    expect(read.body.values).toMatchObject({ 'occAttr:1': '9', comment: null });
  });

  it('when an occurrence is deleted, then it is gone (404), its sample stays, and a second delete is 404', async () => {
    const created = await create({ taxa_taxon_list_id: 3 });
    const id = created.body.values.id;
    const deleted = await api('DELETE', `/occurrences/${id}`, { token: demoToken });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await api('GET', `/occurrences/${id}`, { token: demoToken })).status).toBe(404);
    expect((await api('DELETE', `/occurrences/${id}`, { token: demoToken })).status).toBe(404);
    expect((await api('GET', `/samples/${sampleId}`, { token: demoToken })).status).toBe(200);
    const events = await dbQuery<{ operation: string }>("SELECT operation FROM records.outbox WHERE entity = 'occurrence' AND entity_id = $1 ORDER BY id", [id]);
    expect(events.map((e) => e.operation)).toEqual(['create', 'delete']);
  });

  it("when the sample is someone else's, missing or not given, then 400 on occurrence:sample_id and nothing is written", async () => {
    const othersSample = await api('POST', '/samples', { token: otherToken, body: sampleSubmission() });
    const [{ n: before }] = await dbQuery<{ n: number }>('SELECT count(*)::int AS n FROM records.occurrences');
    for (const values of [{ sample_id: othersSample.body.values.id }, { sample_id: 987654321 }]) {
      const response = await api('POST', '/occurrences', { token: demoToken, body: { values: { taxa_taxon_list_id: 1, ...values } } });
      expect(response.status).toBe(400);
      expect(response.body.message).toEqual({ 'occurrence:sample_id': 'Attempt to create occurrence in invalid sample.' });
    }
    const missing = await api('POST', '/occurrences', { token: demoToken, body: { values: { taxa_taxon_list_id: 1 } } });
    expect(missing.body.message).toEqual({ 'occurrence:sample_id': 'The sample must be supplied.' });
    const [{ n: after }] = await dbQuery<{ n: number }>('SELECT count(*)::int AS n FROM records.occurrences');
    expect(after).toBe(before);
  });

  it('when the taxon or an attribute value is bad, then 400 naming it', async () => {
    expect((await create({ taxa_taxon_list_id: 999999 })).body.message).toEqual({ 'occurrence:taxa_taxon_list_id': 'The taxon 999999 is not known.' });
    expect((await create({ taxa_taxon_list_id: 1, 'occAttr:1': 'many' })).body.message).toEqual({ 'occurrence:occAttr:1': 'Must be a whole number.' });
  });

  it("when another user reads, changes or deletes an occurrence, then 403 and nothing changes", async () => {
    const created = await create({ taxa_taxon_list_id: 1, comment: 'mine' });
    const id = created.body.values.id;
    for (const [method, body] of [['GET'], ['PUT', { values: { comment: 'theirs' } }], ['DELETE']] as const) {
      const response = await api(method, `/occurrences/${id}`, { token: otherToken, body });
      expect(response.status, method).toBe(403);
      expect(response.text).not.toContain('mine');
    }
    expect((await api('GET', `/occurrences/${id}`, { token: demoToken })).body.values.comment).toBe('mine');
  });

  it('when the list is asked for, then it holds own occurrences, filters by field and pages with a Link header', async () => {
    const list = await api('GET', `/occurrences?sample_id=${sampleId}&limit=1`, { token: demoToken });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0].values.sample_id).toBe(sampleId);
    expect(list.headers.get('link')).toMatch(/<.*offset=1.*>; rel="next"/);
    const others = await api('GET', `/occurrences?sample_id=${sampleId}`, { token: otherToken });
    expect(others.body).toEqual([]);
    expect((await api('GET', '/occurrences?sample_id=abc', { token: demoToken })).status).toBe(400);
  });

  it('when a POST is retried with the same Idempotency-Key, then one occurrence is written', async () => {
    const key = `occ-${Date.now()}`;
    const first = await create({ taxa_taxon_list_id: 4 }, demoToken, { 'Idempotency-Key': key });
    const again = await create({ taxa_taxon_list_id: 4 }, demoToken, { 'Idempotency-Key': key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('statistics after a burst of writes', () => {
  it('when many occurrences are written at once, then records analyzes its tables itself soon after, whatever the server\'s autovacuum does', async () => {
    // Autovacuum is kept off the table meanwhile: only records can have analyzed it.
    await dbQuery('ALTER TABLE records.occurrences SET (autovacuum_enabled = false)');
    onTestFinished(async () => {
      await dbQuery('ALTER TABLE records.occurrences RESET (autovacuum_enabled)');
    });
    const [{ now: burst }] = await dbQuery<{ now: string }>('SELECT now()::text AS now');
    const statistics = async () =>
      (
        await dbQuery<{ changed: string; rows: string; analyzed: boolean }>(
          `SELECT n_mod_since_analyze AS changed, n_live_tup AS rows, coalesce(last_analyze > $1::timestamptz, false) AS analyzed
             FROM pg_stat_user_tables WHERE schemaname = 'records' AND relname = 'occurrences'`,
          [burst],
        )
      )[0];
    const body = sampleSubmission({}, { occurrences: Array.from({ length: 1500 }, () => ({ values: { taxa_taxon_list_id: 1 } })) });
    expect((await api('POST', '/samples', { token: demoToken, body })).status).toBe(201);
    await eventually(async () => {
      const { changed, rows, analyzed } = await statistics();
      // last_analyze is set by an ANALYZE command, as records runs it (autovacuum would set last_autoanalyze).
      expect(analyzed).toBe(true);
      expect(Number(changed)).toBeLessThanOrEqual(500 + Number(rows) / 10);
    }, 25_000);
  }, 40_000);
});
