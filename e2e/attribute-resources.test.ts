// sample-attributes, occurrence-attributes and location-attributes: what forms
// and apps read to know which custom attributes a website's records carry.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, importFixtures, parseFixtures } from '@rex/admin';
import { createPool } from '@rex/db';
import { DB_CLIENT, EDITOR_USER, SECOND_WEBSITE, api, setUpWorld, token } from './support/world.ts';

let user: string;
let surveyA: string;
let surveyB: string;
let weather: string;
let stage: string;
const LOCATION = { warden: 901, ponds: 902, parish: 903 };
const RESERVE_TYPE = 91;

beforeAll(async () => {
  await setUpWorld();
  user = await token();
  const editor = await token({ userId: EDITOR_USER });
  const survey = async (title: string) => (await api('POST', '/surveys', { token: editor, body: { values: { title } } })).body.values.id as string;
  [surveyA, surveyB] = [await survey('Attribute survey A'), await survey('Attribute survey B')];
  const attribute = async (surveyId: string, values: Record<string, unknown>) => {
    const created = await api('POST', `/surveys/${surveyId}/attributes`, { token: editor, body: { values } });
    expect(created.status, created.text).toBe(201);
    return created.body.values.id as string;
  };
  weather = await attribute(surveyA, { entity: 'sample', caption: 'Cloud cover', data_type: 'I', required: true });
  stage = await attribute(surveyB, { entity: 'occurrence', caption: 'Life stage', data_type: 'L', multi_value: true, terms: ['Egg', 'Larva', 'Adult'] });
  const pool = createPool(inject('databaseUrl'), { max: 1 });
  await importFixtures(
    pool,
    parseFixtures({
      attributes: [
        { id: LOCATION.warden, entity: 'location', caption: 'Reserve warden', data_type: 'T', required: true, website_ids: [DEMO.websiteId], location_type_id: RESERVE_TYPE },
        { id: LOCATION.ponds, entity: 'location', caption: 'Pond count', data_type: 'I', website_ids: [DEMO.websiteId] },
        { id: LOCATION.parish, entity: 'location', caption: 'Civil parish', data_type: 'T', website_ids: [SECOND_WEBSITE.id] },
      ],
    }),
  );
  await pool.end();
});

const list = (path: string, as = user) => api('GET', path, { token: as });
const ids = (answer: { body: { values: { id: string } }[] }) => answer.body.map((attribute) => attribute.values.id);

describe('attribute resources', () => {
  it("when a user lists sample attributes, then the website's are listed with their surveys, and restrict_to_survey_id gives one survey's with its required flag", async () => {
    const all = await list('/sample-attributes');
    expect(all.status, all.text).toBe(200);
    expect(ids(all)).toContain(weather);
    expect(ids(all)).toContain(String(DEMO.weatherAttributeId));
    expect(ids(all)).not.toContain(stage);
    const listed = all.body.find((attribute: { values: { id: string } }) => attribute.values.id === weather);
    expect(listed.values).toEqual({
      id: weather,
      caption: 'Cloud cover',
      data_type: 'I',
      multi_value: 'f',
      terms: [],
      restrict_to_survey_ids: [surveyA],
      required_in_survey_ids: [surveyA],
    });
    const inA = await list(`/sample-attributes?restrict_to_survey_id=${surveyA}`);
    expect(inA.body).toEqual([{ values: { ...listed.values, required: 't' } }]);
    expect((await list(`/sample_attributes?restrict_to_survey_id=${surveyB}`)).body).toEqual([]);
  });

  it('when a user lists occurrence attributes, then lookups carry their terms, and one attribute is read by id (either spelling)', async () => {
    const inB = await list(`/occurrence-attributes?restrict_to_survey_id=${surveyB}`);
    expect(inB.status).toBe(200);
    expect(ids(inB)).toEqual([stage]);
    expect(inB.body[0].values).toMatchObject({ caption: 'Life stage', data_type: 'L', multi_value: 't', required: 'f' });
    expect(inB.body[0].values.terms.map((term: string) => term.split(':')[1])).toEqual(['Egg', 'Larva', 'Adult']);
    const one = await list(`/occurrence_attributes/${stage}`);
    expect(one.status).toBe(200);
    expect(one.body.values).toMatchObject({ id: stage, caption: 'Life stage', restrict_to_survey_ids: [surveyB] });
    expect((await list(`/occurrence-attributes/${weather}`)).status).toBe(404);
    expect((await list('/occurrence-attributes/999999999')).body).toEqual({ code: 404, status: 'Not Found' });
  });

  it("when a user lists location attributes, then the website's are listed, and location_type_id keeps those for that type and for any type", async () => {
    const all = await list('/location-attributes');
    expect(ids(all)).toEqual(expect.arrayContaining([String(LOCATION.warden), String(LOCATION.ponds)]));
    expect(ids(all)).not.toContain(String(LOCATION.parish));
    const ofOtherType = await list('/location-attributes?location_type_id=5');
    expect(ids(ofOtherType)).toContain(String(LOCATION.ponds));
    expect(ids(ofOtherType)).not.toContain(String(LOCATION.warden));
    const reserves = await list(`/location-attributes?location_type_id=${RESERVE_TYPE}`);
    expect(reserves.body.find((attribute: { values: { id: string } }) => attribute.values.id === String(LOCATION.warden)).values).toEqual({
      id: String(LOCATION.warden),
      caption: 'Reserve warden',
      data_type: 'T',
      multi_value: 'f',
      terms: [],
      required: 't',
      location_type_id: String(RESERVE_TYPE),
    });
  });

  it("when another website's user asks, then only that website's attributes are listed", async () => {
    const second = await token({ key: 'second', userId: SECOND_WEBSITE.userId });
    expect(ids(await list('/location-attributes', second))).toContain(String(LOCATION.parish));
    expect(ids(await list('/sample-attributes', second))).not.toContain(weather);
    expect((await list(`/sample-attributes/${weather}`, second)).status).toBe(404);
  });

  it('when a filter is not a whole number, or the caller is not authenticated, then a JSON 400 or 401', async () => {
    const bad = await list('/sample-attributes?restrict_to_survey_id=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual({ 'sample_attribute:restrict_to_survey_id': 'Invalid filter on numeric field restrict_to_survey_id' });
    expect((await list('/location-attributes?location_type_id=1%3B%20DROP')).status).toBe(400);
    const anonymous = await api('GET', '/sample-attributes');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(401);
  });

  it('when a client connection reads them, then they are listed for its website', async () => {
    const answer = await api('GET', `/sample-attributes?proj_id=${DB_CLIENT.projId}`, { headers: { Authorization: `USER:${DB_CLIENT.username}:SECRET:${DB_CLIENT.secret}` } });
    expect(answer.status, answer.text).toBe(200);
    expect(ids(answer)).toContain(weather);
  });
});
