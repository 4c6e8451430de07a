import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createHmac } from 'node:crypto';
import { DEMO, importFixtures, parseFixtures } from '@rex/admin';
import { createPool } from '@rex/db';
import { startGateway, type ExtraGateway } from './support/gateway.ts';
import { DB_CLIENT, api, eventually, sampleSubmission, setUpWorld, token } from './support/world.ts';

const clientHeader = { Authorization: `USER:${DB_CLIENT.username}:SECRET:${DB_CLIENT.secret}` };
const today = new Date().toISOString().slice(0, 10);
let gateway: ExtraGateway;
let occurrenceId: string;
let externalKeyed: string;
const startedAt = new Date();

beforeAll(async () => {
  await setUpWorld();
  gateway = await startGateway({
    user_id: 'BRC',
    authentication_methods: { jwtUser: { allow_http: true }, directClient: { allow_http: true }, hmacClient: { allow_http: true } },
    clients: { LEGACY: { shared_secret: 'legacy-secret', projects: { LP1: { website_id: DEMO.websiteId, title: 'Legacy project', description: 'Shared data', filter_id: 3, resources: ['taxon-observations'] } } } },
  });
  const created = await api('POST', '/samples', {
    token: await token(),
    body: sampleSubmission(
      { date: '2026-04-02', entered_sref: 'SU1234', entered_sref_system: 'OSGB', location_name: 'Exchange meadow', recorder_names: 'A. Recorder' },
      { occurrences: [{ values: { taxa_taxon_list_id: 1 } }, { values: { taxa_taxon_list_id: 2, external_key: `EXT-${Date.now()}` } }] },
    ),
  });
  expect(created.status).toBe(201);
  occurrenceId = created.body.occurrences[0].values.id;
  externalKeyed = created.body.occurrences[1].values.id;
  const pool = createPool(inject('databaseUrl'), { max: 1 });
  await importFixtures(pool, parseFixtures({ occurrence_comments: [{ occurrence_id: Number(occurrenceId), comment: 'Checked the photo', person_name: 'Verifier', created_by_id: 1 }] }));
  await pool.end();
});

afterAll(() => gateway?.stop());

const observations = (query: string) => api('GET', `${gateway.services}/taxon-observations?proj_id=${DB_CLIENT.projId}&${query}`, { headers: clientHeader });

/** Every record the query lists, following the next links as a synchronising system does (other tests add records too). */
async function allObservations(query: string): Promise<Array<Record<string, string>>> {
  const records: Array<Record<string, string>> = [];
  let answer = await observations(`${query}&page_size=1000`);
  for (;;) {
    expect(answer.status).toBe(200);
    records.push(...answer.body.data);
    if (!answer.body.paging.next) return records;
    answer = await api('GET', answer.body.paging.next, { headers: clientHeader });
  }
}

describe('taxon-observations', () => {
  it('when a connection lists edited records, then they come in the exchange shape, paged, with a Deprecation header', async () => {
    const record = await eventually(async () => {
      const found = (await allObservations(`edited_date_from=${today}`)).find((o) => o.id === `BRC${occurrenceId}`);
      expect(found).toBeDefined();
      return found!;
    });
    const response = await observations(`edited_date_from=${today}&page_size=1`);
    expect(response.status).toBe(200);
    expect(response.headers.get('deprecation')).toBe('true');
    expect(record).toMatchObject({
      taxonVersionKey: 'NHMSYS0000530420',
      taxonName: 'Erithacus rubecula',
      zeroAbundance: 'FALSE',
      startDate: '2026-04-02',
      endDate: '2026-04-02',
      dateType: 'D',
      siteName: 'Exchange meadow',
      gridReference: 'SU1234',
      projection: 'OSGB',
      precision: '1000',
      recorder: 'A. Recorder',
      href: `taxon-observations/BRC${occurrenceId}`,
    });
    expect(record.lastEditDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(record).not.toHaveProperty('siteKey');
  });

  it('when page_size is smaller than the set, then a next link gives the following page', async () => {
    const first = await observations(`edited_date_from=${today}&page_size=1`);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.paging.next).toMatch(/\/rest\/taxon-observations\?.*page=2/);
    const second = await api('GET', first.body.paging.next, { headers: clientHeader });
    expect(second.body.data).toHaveLength(1);
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
    expect(second.body.paging.previous).toMatch(/page=1/);
  });

  it('when one is asked for by id or by external key, then it is returned; an unknown id is a JSON 404', async () => {
    await eventually(async () => expect((await api('GET', `${gateway.services}/taxon-observations/BRC${occurrenceId}?proj_id=${DB_CLIENT.projId}`, { headers: clientHeader })).status).toBe(200));
    const byKey = await api('GET', `${gateway.services}/taxon-observations/BRC${externalKeyed}?proj_id=${DB_CLIENT.projId}`, { headers: clientHeader });
    expect(byKey.status).toBe(404);
    const missing = await api('GET', `${gateway.services}/taxon-observations/BRC999999999?proj_id=${DB_CLIENT.projId}`, { headers: clientHeader });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 404, status: 'Not Found' });
  });

  it('when edited_date_from is missing or a date is malformed, then 400 naming it', async () => {
    expect((await observations('')).body.message).toBe('Missing edited_date_from parameter');
    expect((await observations('edited_date_from=yesterday')).body.message).toBe('Invalid date for edited_date_from parameter');
    expect((await observations(`edited_date_from=${today}&edited_date_to=2026-13-45`)).body.message).toBe('Invalid date for edited_date_to parameter');
    expect((await observations(`edited_date_from=${today}&page=0`)).status).toBe(400);
  });

  it('when a record is deleted, then it stays listed, marked delete: T, for remote systems to remove it', async () => {
    const created = await api('POST', '/samples', {
      token: await token(),
      body: sampleSubmission({ location_name: 'Exchange deleted' }, { occurrences: [{ values: { taxa_taxon_list_id: 3 } }] }),
    });
    const id = `BRC${created.body.occurrences[0].values.id}`;
    await api('DELETE', `/samples/${created.body.values.id}`, { token: await token() });
    await eventually(async () => {
      expect((await allObservations(`edited_date_from=${today}`)).find((o) => o.id === id)).toMatchObject({ delete: 'T' });
    });
  });

  it('when edited dates are ISO 8601 date-times with a UTC offset, then they bound the moment they name (an unencoded + too)', async () => {
    const seen = async (query: string) => (await allObservations(query)).some((o) => o.id === `BRC${occurrenceId}`);
    // The same moments written at other offsets: an hour before the record was made, and an hour after.
    const at = (date: Date, offsetHours: number) => {
      const shifted = new Date(date.getTime() + offsetHours * 3_600_000).toISOString().slice(0, 19);
      const sign = offsetHours < 0 ? '-' : '+';
      return `${shifted}${sign}${String(Math.abs(offsetHours)).padStart(2, '0')}:00`;
    };
    const before = new Date(startedAt.getTime() - 3_600_000);
    const after = new Date(Date.now() + 3_600_000);
    await eventually(async () => expect(await seen(`edited_date_from=${encodeURIComponent(at(before, 5))}`)).toBe(true));
    expect(await seen(`edited_date_from=${encodeURIComponent(at(after, -5))}`)).toBe(false);
    expect(await seen(`edited_date_from=${encodeURIComponent(at(after, 0).replace('+00:00', 'Z'))}`)).toBe(false);
    expect(await seen(`edited_date_from=${encodeURIComponent(at(before, 0))}&edited_date_to=${encodeURIComponent(at(after, 9))}`)).toBe(true);
    expect(await seen(`edited_date_from=${at(before, 2)}`)).toBe(true);
    expect(await seen(`edited_date_from=${at(after, 2)}`)).toBe(false);
    expect((await observations(`edited_date_from=${encodeURIComponent('2026-11-22T06:10:58+25:00')}`)).body.message).toBe('Invalid date for edited_date_from parameter');
  });

  it('when the edited dates exclude the records, then none are listed', async () => {
    const response = await observations('edited_date_from=2000-01-01&edited_date_to=2000-12-31');
    expect(response.body.data).toEqual([]);
  });
});

describe('annotations', () => {
  it('when comments exist on visible records, then they are listed with a link to their observation carrying proj_id', async () => {
    const response = await eventually(async () => {
      const answer = await api('GET', `${gateway.services}/annotations?proj_id=${DB_CLIENT.projId}&edited_date_from=${today}`, { headers: clientHeader });
      expect(answer.body.data.some((a: { comment: string }) => a.comment === 'Checked the photo')).toBe(true);
      return answer;
    });
    expect(response.headers.get('deprecation')).toBe('true');
    const annotation = response.body.data.find((a: { comment: string }) => a.comment === 'Checked the photo');
    expect(annotation).toMatchObject({ authorName: 'Verifier', taxonVersionKey: 'NHMSYS0000530420', href: `annotations/${annotation.id}` });
    expect(annotation.taxonObservation).toEqual({
      id: `BRC${occurrenceId}`,
      href: `${gateway.services}/taxon-observations/BRC${occurrenceId}?proj_id=${DB_CLIENT.projId}`,
    });
    const one = await api('GET', `${gateway.services}/annotations/${annotation.id}?proj_id=${DB_CLIENT.projId}`, { headers: clientHeader });
    expect(one.body.comment).toBe('Checked the photo');
    expect((await api('GET', `${gateway.services}/annotations/999999999?proj_id=${DB_CLIENT.projId}`, { headers: clientHeader })).status).toBe(404);
  });
});

describe('projects', () => {
  it("when a legacy client lists its projects, then they come without internal keys", async () => {
    const response = await api('GET', `${gateway.services}/projects`, { headers: { Authorization: 'USER:LEGACY:SECRET:legacy-secret' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('deprecation')).toBe('true');
    expect(response.body.data).toEqual([{ id: 'LP1', title: 'Legacy project', description: 'Shared data', href: `${gateway.services}/projects/LP1` }]);
    expect(response.body.paging.self).toMatch(/\/rest\/projects\?page=1$/);
  });

  it('when a legacy client signs with HMAC, then it lists its projects too, and reads one by id', async () => {
    const url = `${gateway.services}/projects/LP1`;
    const signature = createHmac('sha1', 'legacy-secret').update(url).digest('hex');
    const response = await api('GET', url, { headers: { Authorization: `USER:LEGACY:HMAC:${signature}` } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: 'LP1', title: 'Legacy project', description: 'Shared data', href: url });
  });

  it('when a database client lists its projects, then its connections are listed', async () => {
    const response = await api('GET', `${gateway.services}/projects`, { headers: clientHeader });
    expect(response.body.data.map((p: { id: string }) => p.id)).toContain(DB_CLIENT.projId);
  });

  it('when a user asks for projects, then 401', async () => {
    expect((await api('GET', `${gateway.services}/projects`, { token: await token() })).status).toBe(401);
  });
});
