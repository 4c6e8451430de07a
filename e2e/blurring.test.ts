import { beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, sampleSubmission, setUpWorld, token } from './support/world.ts';

const SAMPLE_LIST = '/reports/library/samples/sample_list.xml';
const EXPLORE = '/reports/library/occurrences/filterable_explore_list.xml';
// A date no other test uses, so that the sample list can be narrowed to this file's samples.
const DATE = '1987-03-14';

let demoToken: string;
/** The centre of the 10 km square SU15, as the API computes it for a sample recorded there. */
let su15: { lat: number; lon: number };

type Row = Record<string, string>;

async function sampleRow(id: string): Promise<Row> {
  const response = await api('GET', `${SAMPLE_LIST}?date_from=${DATE}&date_to=${DATE}&limit=1000`, { token: demoToken });
  expect(response.status, response.text).toBe(200);
  const row = response.body.data.find((candidate: Row) => candidate.sample_id === id);
  expect(row, `sample ${id} in the report`).toBeDefined();
  return row;
}

async function occurrenceRow(id: string): Promise<Row> {
  const response = await api('GET', `${EXPLORE}?occ_id=${id}`, { token: demoToken });
  expect(response.status, response.text).toBe(200);
  expect(response.body.data).toHaveLength(1);
  return response.body.data[0];
}

const latLon = (row: Record<string, unknown>) => ({ lat: Number(row.lat), lon: Number(row.lon) });

beforeAll(async () => {
  await setUpWorld();
  demoToken = await token();
  const square = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ entered_sref: 'SU15', date: '1987-03-15' }) });
  su15 = latLon((await api('GET', `/samples/${square.body.values.id}`, { token: demoToken })).body.values);
});

describe('blurred locations in reports', () => {
  it('when a sample has privacy_precision 10000, then reports show its 10 km square without the site, while its owner reads the exact place', async () => {
    const created = await api('POST', '/samples', {
      token: demoToken,
      body: sampleSubmission(
        { entered_sref: 'SU12345678', location_name: 'Secret pond', privacy_precision: 10000, date: DATE },
        { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] },
      ),
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.values.id;
    const occurrenceId = created.body.occurrences[0].values.id;

    const row = await eventually(() => sampleRow(id));
    expect(row).toMatchObject({ entered_sref: 'SU15', entered_sref_system: 'OSGB' });
    expect(row).not.toHaveProperty('location_name');
    expect(latLon(row).lat).toBeCloseTo(su15.lat, 6);
    expect(latLon(row).lon).toBeCloseTo(su15.lon, 6);
    const occurrence = await occurrenceRow(occurrenceId);
    expect(occurrence).toMatchObject({ entered_sref: 'SU15' });
    expect(occurrence).not.toHaveProperty('location_name');
    expect(latLon(occurrence).lat).toBeCloseTo(su15.lat, 6);

    const own = await api('GET', `/samples/${id}`, { token: demoToken });
    expect(own.body.values).toMatchObject({ entered_sref: 'SU12345678', entered_sref_system: 'OSGB', location_name: 'Secret pond', privacy_precision: '10000' });
    // SU 1234 5678 is about 3 km from the centre of SU15.
    expect(Math.abs(latLon(own.body.values).lat - su15.lat) + Math.abs(latLon(own.body.values).lon - su15.lon)).toBeGreaterThan(0.02);

    const cleared = await api('PUT', `/samples/${id}`, { token: demoToken, body: { values: { privacy_precision: null } } });
    expect(cleared.status, cleared.text).toBe(200);
    await eventually(async () => expect(await sampleRow(id)).toMatchObject({ entered_sref: 'SU12345678', location_name: 'Secret pond' }));
    expect(await occurrenceRow(occurrenceId)).toMatchObject({ entered_sref: 'SU12345678', location_name: 'Secret pond' });
  });

  it('when one occurrence of a sample has sensitivity_precision 10000, then reports blur that occurrence only', async () => {
    const created = await api('POST', '/samples', {
      token: demoToken,
      body: sampleSubmission(
        { entered_sref: 'SU12345678', location_name: 'Meadow', date: DATE },
        { occurrences: [{ values: { taxa_taxon_list_id: 1, sensitivity_precision: 10000 } }, { values: { taxa_taxon_list_id: 2 } }] },
      ),
    });
    expect(created.status, created.text).toBe(201);
    const [sensitive, plain] = created.body.occurrences.map((occurrence: { values: { id: string } }) => occurrence.values.id);

    const row = await eventually(() => occurrenceRow(sensitive));
    expect(row).toMatchObject({ entered_sref: 'SU15' });
    expect(row).not.toHaveProperty('location_name');
    expect(latLon(row).lat).toBeCloseTo(su15.lat, 6);
    expect(await occurrenceRow(plain)).toMatchObject({ entered_sref: 'SU12345678', location_name: 'Meadow' });
  });
});
