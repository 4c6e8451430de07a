import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '@rex/admin';
import { startGateway, type ExtraGateway } from './support/gateway.ts';
import { DB_CLIENT, OTHER_USER, SECOND_WEBSITE, WEBSITE_PASSWORD, api, clientToken, eventually, sampleSubmission, setUpWorld, token } from './support/world.ts';

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
    for (const report of reports) {
      const params = await api('GET', `/reports/${report}.xml/params`, { token: demoToken });
      expect(params.status).toBe(200);
      for (const name of Object.keys(params.body.data)) {
        for (const attack of attacks) {
          const response = await api('GET', `/reports/${report}.xml?${name}=${encodeURIComponent(attack)}&location_type_id=1`, { token: demoToken });
          expect([200, 400], `${report} ${name} ${attack}: ${response.text}`).toContain(response.status);
        }
      }
    }
    expect(await visibleIds({ token: demoToken })).toEqual(before);
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
