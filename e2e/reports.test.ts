import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO } from '@rex/admin';
import { freePort } from '@rex/db';
import { grpcServing } from '../scripts/suite.ts';
import { spawnService, startGateway, type ExtraGateway } from './support/gateway.ts';
import { DB_CLIENT, OTHER_USER, SECOND_WEBSITE, WEBSITE_PASSWORD, api, clientToken, dbQuery, eventually, sampleSubmission, setUpWorld, token } from './support/world.ts';

const EXPLORE = '/reports/library/occurrences/filterable_explore_list.xml';
const stamp = Date.now();
// Location names that do not contain one another (the report matches location_name by substring).
const marker = `base${stamp}`;
const names = { gone: `gone${stamp}`, before: `old${stamp}`, after: `new${stamp}` };
const dbClient = (projId: string) => ({ Authorization: `USER:${DB_CLIENT.username}:SECRET:${DB_CLIENT.secret}`, 'x-proj': projId });

let demoToken: string;
let ownOccurrences: string[];
let confidentialOccurrence: string;
let otherUsersOccurrence: string;

/** Occurrence ids of the marked test samples that a caller's run of the explore report returns. */
async function visibleIds(options: { token?: string; headers?: Record<string, string>; query?: string; base?: string } = {}): Promise<string[]> {
  const proj = options.headers?.['x-proj'];
  const query = `${options.query ?? ''}${proj ? `&proj_id=${proj}` : ''}`;
  const response = await api('GET', `${options.base ?? ''}${EXPLORE}?location_name=${marker}&limit=1000${query}`, { token: options.token, headers: options.headers });
  expect(response.status, response.text).toBe(200);
  return response.body.data.map((row: { occurrence_id: string }) => row.occurrence_id).sort();
}

beforeAll(async () => {
  await setUpWorld();
  demoToken = await token();
  const mine = await api('POST', '/samples', {
    token: demoToken,
    body: sampleSubmission(
      { location_name: marker },
      {
        occurrences: [
          { values: { taxa_taxon_list_id: 1 } },
          { values: { taxa_taxon_list_id: 2 } },
          { values: { taxa_taxon_list_id: 3, confidential: true } },
        ],
      },
    ),
  });
  expect(mine.status, mine.text).toBe(201);
  ownOccurrences = mine.body.occurrences.slice(0, 2).map((o: { values: { id: string } }) => o.values.id);
  confidentialOccurrence = mine.body.occurrences[2].values.id;
  const others = await api('POST', '/samples', {
    token: await token({ userId: OTHER_USER }),
    body: sampleSubmission({ location_name: marker }, { occurrences: [{ values: { taxa_taxon_list_id: 4 } }] }),
  });
  otherUsersOccurrence = others.body.occurrences[0].values.id;
  // The read model follows the records outbox.
  await eventually(async () => expect(await visibleIds({ token: demoToken })).toEqual([...ownOccurrences].sort()));
});

describe('running reports through the gateway', () => {
  it('when a user runs the explore report, then it sees its own records with the documented columns, count and paging', async () => {
    const response = await api('GET', `${EXPLORE}?location_name=${marker}&limit=1`, { token: demoToken });
    expect(response.status).toBe(200);
    expect(response.body.count).toBe(2);
    expect(Object.keys(response.body.data[0]).slice(0, 2)).toEqual(['occurrence_id', 'taxon']);
    expect(response.body.data[0]).toMatchObject({ taxon: expect.any(String), location_name: marker, website_id: String(DEMO.websiteId) });
    expect(response.body.paging.next).toMatch(/offset=1/);
    expect(response.body.paging.previous).toBeUndefined();
    const second = await api('GET', response.body.paging.next, { token: demoToken });
    expect(second.body.data).toHaveLength(1);
    expect(second.body.paging.previous).toMatch(/offset=0/);
    expect(second.body.paging.next).toBeUndefined();
  });

  it('when a page is asked for with the known_count its paging links carry, then that count is answered and the rows are not counted again', async () => {
    const first = await api('GET', `${EXPLORE}?location_name=${marker}&limit=1`, { token: demoToken });
    expect(first.body.paging.next).toMatch(/known_count=2/);
    // A count other than the real one shows which was answered: the one given.
    const given = await api('GET', `${EXPLORE}?location_name=${marker}&limit=1&known_count=7`, { token: demoToken });
    expect(given.status).toBe(200);
    expect(given.body.count).toBe(7);
    expect(given.body.data).toHaveLength(1);
    expect(given.body.paging.next).toMatch(/known_count=7/);
    // wantCount=0 still answers 0, and a known_count that is not a whole number is not taken.
    expect((await api('GET', `${EXPLORE}?location_name=${marker}&limit=1&known_count=7&wantCount=0`, { token: demoToken })).body.count).toBe(0);
    expect((await api('GET', `${EXPLORE}?location_name=${marker}&limit=1&known_count=-7`, { token: demoToken })).body.count).toBe(2);
  });

  it('when the same report is run by callers of different entity and scope, then each sees exactly its records', async () => {
    const websiteHeaders = { Authorization: `WEBSITE_ID:${DEMO.websiteId}:SECRET:${WEBSITE_PASSWORD}` };
    const all = [...ownOccurrences, otherUsersOccurrence].sort();
    expect(await visibleIds({ token: demoToken })).toEqual([...ownOccurrences].sort());
    expect(await visibleIds({ token: await token({ userId: OTHER_USER }) })).toEqual([otherUsersOccurrence]);
    expect(await visibleIds({ token: await token({ claims: { scope: 'reporting userWithinWebsite' } }), query: '&scope=reporting' })).toEqual(all);
    expect(await visibleIds({ headers: websiteHeaders })).toEqual(all);
    expect(await visibleIds({ token: await token({ key: 'second', userId: SECOND_WEBSITE.userId }) })).toEqual([]);
    expect(await visibleIds({ headers: dbClient(DB_CLIENT.projId) })).toEqual(all);
    expect(await visibleIds({ headers: dbClient(DB_CLIENT.confidentialProjId) })).toEqual([...all, confidentialOccurrence].sort());
  });

  it('when a sample is deleted, then its occurrences leave the reports', async () => {
    const created = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ location_name: names.gone }, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }) });
    const ids = async () =>
      (await api('GET', `${EXPLORE}?location_name=${names.gone}`, { token: demoToken })).body.data.map((r: { occurrence_id: string }) => r.occurrence_id);
    await eventually(async () => expect(await ids()).toEqual([created.body.occurrences[0].values.id]));
    await api('DELETE', `/samples/${created.body.values.id}`, { token: demoToken });
    await eventually(async () => expect(await ids()).toEqual([]));
  });

  it('when a sample is changed, then its occurrences in the reports follow', async () => {
    const created = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ location_name: names.before }, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }) });
    await api('PUT', `/samples/${created.body.values.id}`, { token: demoToken, body: { values: { location_name: names.after } } });
    await eventually(async () => {
      const response = await api('GET', `${EXPLORE}?location_name=${names.after}`, { token: demoToken });
      expect(response.body.count).toBe(1);
    });
  });

  it('when format=csv or format=ndjson, then the rows stream in that format', async () => {
    const csv = await api('GET', `${EXPLORE}?location_name=${marker}&format=csv&columns=occurrence_id,taxon`, { token: demoToken });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('occurrence_id,taxon');
    expect(lines).toHaveLength(3);
    const ndjson = await api('GET', `${EXPLORE}?location_name=${marker}&format=ndjson`, { token: demoToken });
    expect(ndjson.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const rows = ndjson.text.trim().split('\n').map((line) => JSON.parse(line));
    expect(rows.map((r) => r.occurrence_id).sort()).toEqual([...ownOccurrences].sort());
  });

  it('when an export holds several batches of rows, then every row arrives in every format', async () => {
    // More rows than the reports service reads and sends at once (500), straight into the read model.
    const bulk = `bulk${stamp}`;
    const rows = 1_234;
    await dbQuery(
      `INSERT INTO reports.occurrences (id, sample_id, website_id, survey_id, survey_title, taxa_taxon_list_id, taxon, date_start, date_end, date_type,
         entered_sref, entered_sref_system, location_name, lat, lon, record_status, confidential, release_status, zero_abundance, training,
         created_by_id, created_on, updated_on)
       SELECT 900000000 + n, 900000000 + n, $1, $2, 'Bulk', 1, 'Erithacus rubecula', DATE '2021-03-01', DATE '2021-03-01', 'D',
              'SU1234', 'OSGB', $3, 51.1, -1.8, 'C', false, 'R', false, false, $4, now(), now()
         FROM generate_series(1, $5::int) AS n`,
      [DEMO.websiteId, DEMO.surveyId, bulk, DEMO.userId, rows],
    );
    try {
      // Every column: each batch is then larger than the gateway's response takes at once.
      const query = `${EXPLORE}?location_name=${bulk}&wantCount=0`;
      const csv = await api('GET', `${query}&limit=${rows}&format=csv`, { token: demoToken });
      expect(csv.status).toBe(200);
      const [head, ...lines] = csv.text.trim().split('\r\n');
      const idAt = head.split(',').indexOf('occurrence_id');
      expect(new Set(lines.map((line) => line.split(',')[idAt])).size).toBe(rows);
      const ndjson = await api('GET', `${query}&limit=${rows}&format=ndjson`, { token: demoToken });
      const objects = ndjson.text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, string | null>);
      expect(objects).toHaveLength(rows);
      const json = await api('GET', `${query}&limit=1000`, { token: demoToken });
      expect(json.status, json.text).toBe(200);
      // The page's rows are the same rows, without the keys whose value is null or empty.
      const withoutEmpty = (row: Record<string, string | null>) => Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null && value !== ''));
      expect(json.body.data).toEqual(objects.slice(0, 1000).map(withoutEmpty));
    } finally {
      await dbQuery('DELETE FROM reports.occurrences WHERE location_name = $1', [bulk]);
    }
  });

  it('when orderby and sortdir are given, then rows come in that order', async () => {
    const asc = await api('GET', `${EXPLORE}?location_name=${marker}&orderby=occurrence_id&sortdir=ASC`, { token: demoToken });
    const ids = asc.body.data.map((r: { occurrence_id: string }) => Number(r.occurrence_id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect((await api('GET', `${EXPLORE}?orderby=nonsense`, { token: demoToken })).status).toBe(400);
  });
});

describe('parameters', () => {
  it('when a required parameter is missing, then 400 naming it', async () => {
    const response = await api('GET', '/reports/library/locations/locations_list_mapping.xml', { token: demoToken });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('Missing parameters: location_type_id');
  });

  it('when a parameter has the wrong type, then 400 naming it', async () => {
    const response = await api('GET', `${EXPLORE}?survey_id=abc`, { token: demoToken });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/survey_id/);
  });

  it('when limit is not a number, then 400', async () => {
    expect((await api('GET', `${EXPLORE}?limit=ten`, { token: demoToken })).body.message).toBe('Invalid integer format for limit parameter');
  });

  it('when SQL-injection strings are sent to every parameter of every listed report, then each is refused or harmless and nothing changes', async () => {
    const attacks = ["1; DROP TABLE reports.occurrences; --", "' OR '1'='1", '1) OR (1=1', "x'); DELETE FROM reports.samples; --", '$1', '#columns#'];
    const before = await visibleIds({ token: demoToken });
    const reports: string[] = [];
    const walk = async (path: string) => {
      const listing = await api('GET', `/reports${path}`, { token: demoToken });
      for (const entry of Object.values(listing.body) as { type: string; href: string; path: string }[]) {
        if (entry.type === 'report') reports.push(entry.path);
        else if (!entry.href.endsWith('/featured')) await walk(entry.href.split('/rest/reports')[1]);
      }
    };
    await walk('');
    expect(reports.length).toBeGreaterThanOrEqual(10);
    const probes: string[][] = [];
    for (const report of reports) {
      const params = await api('GET', `/reports/${report}.xml/params`, { token: demoToken });
      expect(params.status).toBe(200);
      for (const name of Object.keys(params.body.data)) for (const attack of attacks) probes.push([report, name, attack]);
    }
    // Eight at a time, as several clients would send them.
    const next = () => probes.shift();
    const client = async () => {
      for (let probe = next(); probe; probe = next()) {
        const [report, name, attack] = probe;
        const response = await api('GET', `/reports/${report}.xml?${name}=${encodeURIComponent(attack)}&location_type_id=1`, { token: demoToken });
        expect([200, 400], `${report} ${name} ${attack}: ${response.text}`).toContain(response.status);
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    expect(await visibleIds({ token: demoToken })).toEqual(before);
   }, 180_000);

  it('when edited dates are ISO 8601 date-times with a UTC offset, then they bound the moment they name; a date bounds the whole day', async () => {
    const made = new Date();
    const created = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }) });
    const id = created.body.occurrences[0].values.id;
    const at = (date: Date, offsetHours: number) => {
      const shifted = new Date(date.getTime() + offsetHours * 3_600_000).toISOString().slice(0, 19);
      return `${shifted}${offsetHours < 0 ? '-' : '+'}${String(Math.abs(offsetHours)).padStart(2, '0')}:00`;
    };
    const listed = async (query: string) => {
      const answer = await api('GET', `${EXPLORE}?occ_id=${id}&${query}`, { token: demoToken });
      expect(answer.status, `${query}: ${answer.text}`).toBe(200);
      return answer.body.data.length === 1;
    };
    const hourBefore = new Date(made.getTime() - 3_600_000);
    const hourAfter = new Date(made.getTime() + 3_600_000);
    await eventually(async () => expect(await listed(`edited_date_from=${encodeURIComponent(at(hourBefore, 5))}`)).toBe(true));
    expect(await listed(`edited_date_from=${encodeURIComponent(at(hourAfter, -3))}`)).toBe(false);
    expect(await listed(`edited_date_from=${encodeURIComponent(at(hourAfter, 0).replace('+00:00', 'Z'))}`)).toBe(false);
    expect(await listed(`edited_date_to=${encodeURIComponent(at(hourBefore, 2))}`)).toBe(false);
    expect(await listed(`edited_date_to=${encodeURIComponent(at(hourAfter, 2))}`)).toBe(true);
    expect(await listed(`edited_date_from=${at(hourBefore, 1)}`)).toBe(true); // an unencoded + arrives as a space
    // The day it was saved on, in UTC as the API writes it (not the clock's day here, which a run across midnight changes).
    const savedOn = String(created.body.occurrences[0].values.updated_on).slice(0, 10);
    expect(savedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await listed(`edited_date_from=${savedOn}&edited_date_to=${savedOn}`)).toBe(true);
    const bad = await api('GET', `${EXPLORE}?edited_date_from=${encodeURIComponent('2026-11-22T06:10:58+25:00')}`, { token: demoToken });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/edited_date_from/);
  });

  it('when date_from and date_to bound a window, then a record is in it when its vague date overlaps it, and one open at the bounded end is not; with taxa, or given backwards, likewise', async () => {
    const windowMarker = `dates${stamp}`;
    const dates = ['2021-03-15', 'March 2021', '2021', 'before 2010', 'from 2022', '30/12/2020 to 02/01/2021'];
    const ids: Record<string, string> = {};
    for (const date of dates) {
      const posted = await api('POST', '/samples', {
        token: demoToken,
        body: sampleSubmission({ location_name: windowMarker, date }, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }),
      });
      expect(posted.status, posted.text).toBe(201);
      ids[date] = posted.body.occurrences[0].values.id;
    }
    const inWindow = async (query: string) => {
      const response = await api('GET', `${EXPLORE}?location_name=${windowMarker}&limit=100&${query}`, { token: demoToken });
      expect(response.status, response.text).toBe(200);
      expect(response.body.count).toBe(response.body.data.length);
      const found = new Set(response.body.data.map((row: { occurrence_id: string }) => row.occurrence_id));
      return dates.filter((date) => found.has(ids[date]));
    };
    await eventually(async () => expect(await inWindow('')).toHaveLength(dates.length));
    expect(await inWindow('date_from=2021-03-01&date_to=2021-03-31')).toEqual(['2021-03-15', 'March 2021', '2021']);
    expect(await inWindow('date_from=2021-01-01')).toEqual(['2021-03-15', 'March 2021', '2021', '30/12/2020 to 02/01/2021']);
    expect(await inWindow('date_to=2020-12-31')).toEqual(['30/12/2020 to 02/01/2021']);
    expect(await inWindow('date_from=2021-01-03&date_to=2021-03-14')).toEqual(['March 2021', '2021']);
    expect(await inWindow('date_from=2030-01-01')).toEqual([]);
    expect(await inWindow('date_to=2009-12-31')).toEqual([]);
    // Given backwards, a window keeps what spans the gap between its ends.
    expect(await inWindow('date_from=2021-03-31&date_to=2021-03-01')).toEqual(['March 2021', '2021']);
    // With taxa, the window is asked of the index of taxon and dates: the same records, of those taxa only.
    expect(await inWindow('taxa_taxon_list_id=1&date_from=2021-03-01&date_to=2021-03-31')).toEqual(['2021-03-15', 'March 2021', '2021']);
    expect(await inWindow('taxa_taxon_list_id=2,3&date_from=2021-03-01&date_to=2021-03-31')).toEqual([]);
    expect(await inWindow('taxa_taxon_list_id=1&date_to=2020-12-31')).toEqual(['30/12/2020 to 02/01/2021']);
    expect(await inWindow('taxa_taxon_list_id=1&date_from=2021-03-31&date_to=2021-03-01')).toEqual(['March 2021', '2021']);
  });

  it('when smpattrs and occattrs name custom attributes, then each adds a column of their values to the explore report', async () => {
    const created = await api('POST', '/samples', {
      token: demoToken,
      body: sampleSubmission({ [`smpAttr:${DEMO.weatherAttributeId}`]: 'Drizzle' }, { occurrences: [{ values: { taxa_taxon_list_id: 1, [`occAttr:${DEMO.countAttributeId}`]: '7' } }] }),
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.occurrences[0].values.id;
    const row = async (query: string) => {
      const answer = await api('GET', `${EXPLORE}?occ_id=${id}&${query}`, { token: demoToken });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.data[0];
    };
    const first = await eventually(async () => {
      const found = await row(`smpattrs=${DEMO.weatherAttributeId}&occattrs=${DEMO.countAttributeId},999`);
      expect(found).toBeDefined();
      return found;
    });
    expect(first).toMatchObject({ [`attr_sample_${DEMO.weatherAttributeId}`]: 'Drizzle', [`attr_occurrence_${DEMO.countAttributeId}`]: '7' });
    expect(first.attr_occurrence_999 ?? null).toBeNull(); // no value: an empty column, left out of the row as other empty columns are
    expect(await row('')).not.toHaveProperty(`attr_sample_${DEMO.weatherAttributeId}`);
    // A change to the sample's value reaches its occurrences' rows.
    expect((await api('PUT', `/samples/${created.body.values.id}`, { token: demoToken, body: { values: { [`smpAttr:${DEMO.weatherAttributeId}`]: 'Sun' } } })).status).toBe(200);
    await eventually(async () => expect((await row(`smpattrs=${DEMO.weatherAttributeId}`))[`attr_sample_${DEMO.weatherAttributeId}`]).toBe('Sun'));
    const bad = await api('GET', `${EXPLORE}?occattrs=1;DROP`, { token: demoToken });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/occattrs/);
  });

  it('when params and columns are asked for, then they describe the report', async () => {
    const params = await api('GET', `${EXPLORE}/params`, { token: demoToken });
    expect(params.body.data.date_from).toMatchObject({ datatype: 'date' });
    const columns = await api('GET', `${EXPLORE}/columns`, { token: demoToken });
    expect(Object.keys(columns.body.data).slice(0, 2)).toEqual(['occurrence_id', 'taxon']);
    expect(JSON.stringify(columns.body)).not.toContain('"sql"');
  });
});

describe('the report hierarchy', () => {
  it('when the top is listed, then folders come with titles and links, and a virtual featured folder', async () => {
    const response = await api('GET', '/reports', { token: demoToken });
    expect(response.status).toBe(200);
    expect(response.body.library).toMatchObject({ type: 'folder', title: expect.any(String), href: expect.stringMatching(/\/rest\/reports\/library$/) });
    expect(response.body.featured).toMatchObject({ type: 'folder' });
    const featured = await api('GET', '/reports/featured', { token: demoToken });
    expect(featured.body['library/occurrences/filterable_explore_list']).toMatchObject({ type: 'report', featured: 'true' });
  });

  it('when a folder is listed, then its reports carry hrefs for running, params and columns', async () => {
    const response = await api('GET', '/reports/library/occurrences', { token: demoToken });
    const report = response.body.filterable_explore_list;
    expect(report).toMatchObject({ type: 'report', path: 'library/occurrences/filterable_explore_list', featured: 'true' });
    expect(report.href).toMatch(/\/rest\/reports\/library\/occurrences\/filterable_explore_list\.xml$/);
    expect(report.params.href).toMatch(/\.xml\/params$/);
    expect(report.columns.href).toMatch(/\.xml\/columns$/);
    expect(response.body.explore_list).toBeDefined();
    expect(response.body.list_for_elastic_all).toBeUndefined();
  });

  it('when an unknown folder or report is asked for, then 404', async () => {
    expect((await api('GET', '/reports/library/nothing', { token: demoToken })).status).toBe(404);
    expect((await api('GET', '/reports/library/occurrences/nothing.xml', { token: demoToken })).status).toBe(404);
    expect((await api('GET', '/reports/toplevel.xml', { token: demoToken })).status).toBe(404);
  });

  it('when a restricted report is asked for without authorisation, then it does not exist (404)', async () => {
    expect((await api('GET', '/reports/library/occurrences/list_for_elastic_all.xml', { token: demoToken })).status).toBe(404);
  });
});

describe('report permissions of methods and connections', () => {
  let gateway: ExtraGateway;
  beforeAll(async () => {
    gateway = await startGateway({
      authentication_methods: {
        jwtUser: { allow_http: true, resource_options: { reports: { featured: true, limit_to_own_data: true } } },
        jwtClient: { allow_http: true, resource_options: { reports: { authorise: ['library/occurrences/list_for_elastic_all.xml'] } } },
        directClient: { allow_http: true },
      },
    });
  });
  afterAll(() => gateway?.stop());

  it('when the method is featured-only, then other reports are refused and hidden, and there is no featured folder', async () => {
    const base = gateway.services;
    expect((await api('GET', `${base}/reports/library/occurrences/explore_list.xml`, { token: demoToken })).status).toBe(403);
    expect((await api('GET', `${base}${EXPLORE}`, { token: demoToken })).status).toBe(200);
    const listing = await api('GET', `${base}/reports/library/occurrences`, { token: demoToken });
    expect(listing.body.explore_list).toBeUndefined();
    expect(listing.body.filterable_explore_list).toBeDefined();
    expect((await api('GET', `${base}/reports`, { token: demoToken })).body.featured).toBeUndefined();
  });

  it('when the method limits to own data, then a wider scope still sees only own records', async () => {
    const wide = await token({ claims: { scope: 'reporting' } });
    expect(await visibleIds({ base: gateway.services, token: wide, query: '&scope=reporting' })).toEqual([...ownOccurrences].sort());
  });

  it('when a method authorises a restricted report, then its callers may run it', async () => {
    const response = await api('GET', `${gateway.services}/reports/library/occurrences/list_for_elastic_all.xml?proj_id=${DB_CLIENT.projId}&limit=5`, { token: await clientToken() });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.length).toBeGreaterThan(0);
  });

  it("when a connection may not run reports, then 401; when it is limited to some reports, others are 403", async () => {
    const header = { Authorization: `USER:${DB_CLIENT.username}:SECRET:${DB_CLIENT.secret}` };
    const denied = await api('GET', `${gateway.services}${EXPLORE}?proj_id=${DB_CLIENT.noReportsProjId}`, { headers: header });
    expect(denied.status).toBe(401);
    expect(denied.body.message).toBe('Access to reports unauthorised');
    const limited = await api('GET', `${gateway.services}${EXPLORE}?proj_id=${DB_CLIENT.oneReportProjId}`, { headers: header });
    expect(limited.status).toBe(403);
    expect(limited.body.message).toBe('Report requested is not allowed');
    expect((await api('GET', `${gateway.services}/reports/library/occurrences/explore_list.xml?proj_id=${DB_CLIENT.oneReportProjId}`, { headers: header })).status).toBe(200);
  });
});

describe('standard parameter names and unknown parameters', () => {
  const run = (query: string, headers: Record<string, string> = {}) => api('GET', `${EXPLORE}?location_name=${marker}&${query}`, { token: demoToken, headers });

  it("when a filter is given by the warehouse's standard name, then it filters as the report's own name does", async () => {
    const [first] = ownOccurrences;
    const byOwnName = await run(`occ_id=${first}`);
    const byAlias = await run(`occurrence_id=${first}`);
    expect(byOwnName.body.data.map((row: { occurrence_id: string }) => row.occurrence_id)).toEqual([first]);
    expect(byAlias.body.data).toEqual(byOwnName.body.data);
    expect(byAlias.body.warnings).toBeUndefined();
    const otherSurvey = await run('survey_list=999999');
    expect(otherSurvey.body.data).toEqual([]);
    expect((await run('occ_id=1&occurrence_id=2')).status).toBe(400);
  });

  it('when the params are asked for, then each standard param names its aliases', async () => {
    const params = await api('GET', `${EXPLORE}/params`, { token: demoToken });
    expect(params.body.data.occ_id.aliases).toEqual(['occurrence_id']);
    expect(params.body.data.sample_id.aliases).toEqual(['smp_id']);
    expect(params.body.data.survey_id.aliases).toEqual(['survey_list']);
    expect(params.body.data.date_from.aliases).toBeUndefined();
  });

  it('when a parameter the report does not take is given, then the rows come and warnings name it; controls and client-library parameters are not named', async () => {
    const response = await run('sortby=taxon&nonce=n&auth_token=t&callback=cb&wantColumns=1&wantParameters=1&reportSource=local&_=1&limit=10');
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toHaveLength(2);
    expect(response.body.warnings).toEqual(['Unknown parameter sortby: the report does not take it, so it was ignored.']);
    expect(response.headers.get('unknown-parameters')).toBe('sortby');
    const clean = await run('limit=10');
    expect(clean.body).not.toHaveProperty('warnings');
    expect(clean.headers.get('unknown-parameters')).toBeNull();
  });

  it('when a download has unknown parameters, then the body stays valid CSV or NDJSON and the header names them', async () => {
    const csv = await run('format=csv&columns=occurrence_id&filter_id=3&ünknown%2C=1');
    expect(csv.status).toBe(200);
    expect(csv.text.trim().split('\r\n')).toEqual(['occurrence_id', ...[...ownOccurrences].sort((a, b) => Number(b) - Number(a))]);
    expect(csv.headers.get('unknown-parameters')!.split(', ').map(decodeURIComponent)).toEqual(['filter_id', 'ünknown,']);
    const ndjson = await run('format=ndjson&filter_id=3');
    for (const line of ndjson.text.trim().split('\n')) expect(JSON.parse(line)).toHaveProperty('occurrence_id');
    expect(ndjson.headers.get('unknown-parameters')).toBe('filter_id');
  });

  it('when a report parameter is given twice, then 400 naming it', async () => {
    const response = await run('survey_id=1&survey_id=2');
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('Parameter survey_id is given more than once');
  });
});

describe('HTML and CSV answers', () => {
  it('when a folder of the hierarchy is asked for as HTML (format or Accept), then it is a page of its reports with their links', async () => {
    for (const [query, headers] of [['?format=html', {}], ['', { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }]] as const) {
      const response = await api('GET', `/reports/library/occurrences${query}`, { token: demoToken, headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('vary')).toMatch(/Accept/);
      expect(response.text).toMatch(/^<!DOCTYPE HTML>/);
      expect(response.text).toContain('Explore records (filterable)');
      expect(response.text).toMatch(/<a href="http:\/\/[^"]+\/reports\/library\/occurrences\/filterable_explore_list\.xml\/params[^"]*">/);
    }
    const json = await api('GET', '/reports/library/occurrences', { token: demoToken, headers: { Accept: '*/*' } });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('when the params or columns are asked for as CSV, then there is a row per name; as HTML, a page', async () => {
    const json = await api('GET', `${EXPLORE}/params`, { token: demoToken });
    const csv = await api('GET', `${EXPLORE}/params?format=csv`, { token: demoToken });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('name,display,description,datatype,default,aliases,lookup_values');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(Object.keys(json.body.data));
    expect(lines.find((line) => line.startsWith('occ_id,'))).toContain('"[""occurrence_id""]"');
    const columns = await api('GET', `${EXPLORE}/columns`, { token: demoToken, headers: { Accept: 'text/csv' } });
    expect(columns.text.split('\r\n')[0]).toBe('name,display,datatype,visible');
    const html = await api('GET', `${EXPLORE}/columns?format=html`, { token: demoToken });
    expect(html.text).toContain('<title>Columns of Explore records (filterable)</title>');
    expect(html.text).toContain('<th>occurrence_id</th>');
  });

  it('when a report is run as HTML, then its rows are a table, with count and paging links', async () => {
    const response = await api('GET', `${EXPLORE}?location_name=${marker}&format=html&columns=occurrence_id,taxon&limit=1`, { token: demoToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.text).toContain('<tr><th>occurrence_id</th><th>taxon</th></tr>');
    expect(response.text.match(/<tr><td>/g)).toHaveLength(1);
    expect(response.text).toMatch(/<th>count<\/th><td>2<\/td>/);
    expect(response.text).toMatch(/<th>next<\/th><td><a href="[^"]*offset=1[^"]*">/);
    expect(response.text.trim()).toMatch(/<\/html>$/);
  });

  it('when a record, a parameter value or a parameter name carries markup, then the HTML page shows it escaped', async () => {
    const attack = `<script>alert("x${stamp}")</script>`;
    const created = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ location_name: attack }, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }) });
    expect(created.status, created.text).toBe(201);
    const url = `${EXPLORE}?location_name=${encodeURIComponent(attack)}&format=html&${encodeURIComponent('<img src=x onerror=alert(1)>')}=1`;
    const page = await eventually(async () => {
      const response = await api('GET', url, { token: demoToken });
      expect(response.text).toContain('&lt;script&gt;alert(&quot;x');
      return response.text;
    });
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img');
    expect(page).toContain('Unknown parameter &lt;img src=x onerror=alert(1)&gt;');
    expect(page).not.toMatch(/href="[^"]*<script/);
  });
});

describe('a library with markup in its titles and parameters', () => {
  const HOSTILE = `<?xml version="1.0" encoding="UTF-8"?>
<report title="&lt;script&gt;alert('title')&lt;/script&gt;" description="&lt;img src=x onerror=alert('description')&gt;" table="occurrences">
  <query>SELECT #columns# FROM reports.occurrences o WHERE #sharing_filter# #filters#</query>
  <params>
    <param name="taxon" display="&lt;b onmouseover=alert('display')&gt;Taxon&lt;/b&gt;" description="&quot;&gt;&lt;script&gt;alert('param')&lt;/script&gt;" datatype="text" default="&lt;i&gt;">
      <where>o.taxon = #taxon#</where>
    </param>
  </params>
  <columns>
    <column name="occurrence_id" display="&lt;svg onload=alert('column')&gt;" sql="o.id" datatype="integer" />
  </columns>
</report>`;
  let reports: ChildProcess;
  let gateway: ExtraGateway;

  beforeAll(async () => {
    const library = mkdtempSync(join(tmpdir(), 'rex-library-'));
    mkdirSync(join(library, 'hostile'));
    writeFileSync(join(library, 'hostile', 'markup.xml'), HOSTILE);
    const port = await freePort();
    reports = spawnService('reports', { DATABASE_URL: inject('databaseUrl'), GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port), PROJECTOR_ENABLED: 'false', REPORTS_LIBRARY_DIRS: library });
    for (let i = 0; i < 300 && !(await grpcServing(`127.0.0.1:${port}`, 'reports.v1.ReportsService')); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    gateway = await startGateway({ authentication_methods: { jwtUser: { allow_http: true } } }, { REPORTS_ADDR: `127.0.0.1:${port}` });
  });

  afterAll(() => {
    gateway?.stop();
    reports?.kill('SIGTERM');
  });

  it('when its folder, params and columns are read as HTML, then every title, description and display text is escaped', async () => {
    const pages = await Promise.all(
      ['/reports/hostile', '/reports/hostile/markup.xml/params', '/reports/hostile/markup.xml/columns'].map((path) =>
        api('GET', `${gateway.services}${path}?format=html`, { token: demoToken }),
      ),
    );
    for (const page of pages) {
      expect(page.status, page.text).toBe(200);
      expect(page.text).not.toMatch(/<(script|img|b|svg|i)[\s>]/);
    }
    const [folder, params, columns] = pages.map((page) => page.text);
    expect(folder).toContain('&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;');
    expect(folder).toContain('&lt;img src=x onerror=alert(&#39;description&#39;)&gt;');
    expect(params).toContain('<title>Parameters of &lt;script&gt;');
    expect(params).toContain('&quot;&gt;&lt;script&gt;alert(&#39;param&#39;)&lt;/script&gt;');
    expect(params).toContain('&lt;b onmouseover=alert(&#39;display&#39;)&gt;Taxon&lt;/b&gt;');
    expect(columns).toContain('&lt;svg onload=alert(&#39;column&#39;)&gt;');
  });
});

describe('a second reports replica: a count limit (REPORT_COUNT_LIMIT), counts kept until the read model changes (REPORT_COUNT_CACHE_MS)', () => {
  let reports: ChildProcess;
  let gateway: ExtraGateway;
  let metricsUrl: string;
  const limitMarker = `counted${stamp}`;

  beforeAll(async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    reports = spawnService('reports', {
      DATABASE_URL: inject('databaseUrl'),
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: String(port),
      METRICS_PORT: String(metricsPort),
      PROJECTOR_ENABLED: 'false',
      REPORT_COUNT_LIMIT: '3',
    });
    for (let i = 0; i < 300 && !(await grpcServing(`127.0.0.1:${port}`, 'reports.v1.ReportsService')); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    gateway = await startGateway({ authentication_methods: { jwtUser: { allow_http: true } } }, { REPORTS_ADDR: `127.0.0.1:${port}` });
    const posted = await api('POST', '/samples', {
      token: demoToken,
      body: sampleSubmission({ location_name: limitMarker }, { occurrences: [1, 2, 3, 4].map((taxon) => ({ values: { taxa_taxon_list_id: taxon } })) }),
    });
    expect(posted.status, posted.text).toBe(201);
    await eventually(async () => expect((await api('GET', `${EXPLORE}?location_name=${limitMarker}`, { token: demoToken })).body.count).toBe(4));
  });

  afterAll(() => {
    gateway?.stop();
    reports?.kill('SIGTERM');
  });

  it('when a report has more rows than the limit, then its page comes without the count and pages on; with as many rows or fewer, with it', async () => {
    const over = await api('GET', `${gateway.services}${EXPLORE}?location_name=${limitMarker}&limit=2`, { token: demoToken });
    expect(over.status, over.text).toBe(200);
    expect(over.body.data).toHaveLength(2);
    expect(over.body.count).toBe(0);
    expect(over.body.paging.next).toContain('offset=2');

    const within = await api('GET', `${gateway.services}${EXPLORE}?location_name=${limitMarker}&taxa_taxon_list_id=1,2,3&limit=2`, { token: demoToken });
    expect(within.status, within.text).toBe(200);
    expect(within.body.count).toBe(3);
    expect(within.body.paging.next).toContain('known_count=3');
  });

  it("when a page is asked for again, then its count is the one kept; when the other replica's projector applies a new record, then it is counted again", async () => {
    /** This replica's report counts so far, by where each came from. */
    const counts = async () => {
      const text = await (await fetch(metricsUrl)).text();
      const of = (source: string) => Number(text.split('\n').find((line) => line.startsWith(`reports_page_counts_total{source="${source}"}`))?.split(' ')[1] ?? 0);
      return { database: of('database'), cache: of('cache') };
    };
    const page = `${gateway.services}${EXPLORE}?location_name=${limitMarker}&taxa_taxon_list_id=1,2&limit=1`;
    const counted = async () => (await api('GET', page, { token: demoToken })).body.count;
    expect(await counted()).toBe(2);
    // Retried: a change to the read model between the pages (a batch the projector applies late) would rightly forget the count.
    const before = await eventually(async () => {
      const start = await counts();
      expect(await counted()).toBe(2);
      expect(await counted()).toBe(2);
      expect(await counts()).toEqual({ database: start.database, cache: start.cache + 2 });
      return start;
    });

    const posted = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ location_name: limitMarker }, { occurrences: [{ values: { taxa_taxon_list_id: 2 } }] }) });
    expect(posted.status, posted.text).toBe(201);
    await eventually(async () => expect(await counted()).toBe(3));
    expect((await counts()).database).toBeGreaterThan(before.database);
  });
});
