import { beforeAll, describe, expect, it, inject } from 'vitest';
import { DEMO, importFixtures, parseFixtures } from '@rex/admin';
import { createPool } from '@rex/db';
import { OTHER_USER, SECOND_WEBSITE, api, dbQuery, services, setUpWorld, token } from './support/world.ts';

let demoToken: string;
let otherToken: string;
const PUBLIC_LOCATION = 700;

/** Location attributes (locAttr:<id>), attached to websites; RESERVE_TYPE is a location type with a required one. */
const ATTR = { count: 701, area: 702, surveyed: 703, features: 704, soil: 705, grazed: 706, warden: 707, secondWebsite: 708 };
const SOIL = { clay: 701, sand: 702 };
const RESERVE_TYPE = 77;

beforeAll(async () => {
  await setUpWorld();
  demoToken = await token();
  otherToken = await token({ userId: OTHER_USER });
  const pool = createPool(inject('databaseUrl'), { max: 1 });
  await importFixtures(
    pool,
    parseFixtures({
      locations: [{ id: PUBLIC_LOCATION, name: 'Nature reserve', website_id: DEMO.websiteId, public: true, created_by_id: 1, centroid_sref: 'SU1234', centroid_sref_system: 'OSGB' }],
      attributes: [
        { id: ATTR.count, entity: 'location', caption: 'Ponds', data_type: 'I', website_ids: [DEMO.websiteId] },
        { id: ATTR.area, entity: 'location', caption: 'Area (ha)', data_type: 'F', website_ids: [DEMO.websiteId] },
        { id: ATTR.surveyed, entity: 'location', caption: 'First surveyed', data_type: 'D', website_ids: [DEMO.websiteId] },
        { id: ATTR.features, entity: 'location', caption: 'Features', data_type: 'T', multi_value: true, website_ids: [DEMO.websiteId] },
        { id: ATTR.soil, entity: 'location', caption: 'Soil', data_type: 'L', website_ids: [DEMO.websiteId], terms: [{ id: SOIL.clay, term: 'Clay' }, { id: SOIL.sand, term: 'Sand' }] },
        { id: ATTR.grazed, entity: 'location', caption: 'Grazed', data_type: 'B', website_ids: [DEMO.websiteId] },
        { id: ATTR.warden, entity: 'location', caption: 'Warden', data_type: 'T', required: true, website_ids: [DEMO.websiteId], location_type_id: RESERVE_TYPE },
        { id: ATTR.secondWebsite, entity: 'location', caption: 'Parish', data_type: 'T', website_ids: [SECOND_WEBSITE.id] },
      ],
    }),
  );
  await pool.end();
});

const place = (values: Record<string, unknown> = {}) => ({ values: { name: 'Back garden', centroid_sref: 'SU123456', centroid_sref_system: 'OSGB', location_type_id: 5, ...values } });

describe('locations', () => {
  it('when a location is created, then it reads back with its centroid, not public, and only its creator may change it', async () => {
    const created = await api('POST', '/locations', { token: demoToken, body: place({ public: true }) });
    expect(created.status, created.text).toBe(201);
    expect(created.body.href).toBe(`${services()}/locations/${created.body.values.id}`);
    const id = created.body.values.id;
    const read = await api('GET', `/locations/${id}`, { token: demoToken });
    expect(read.body.values).toMatchObject({ name: 'Back garden', centroid_sref: 'SU123456', centroid_sref_system: 'OSGB', location_type_id: '5', public: 'f', deleted: 'f' });
    expect(read.body.values.centroid_geom).toMatch(/^0103000020110F0000/);
    expect(Number(read.body.values.lat)).toBeCloseTo(51.21, 1);
    expect((await api('GET', `/locations/${id}`, { token: otherToken })).status).toBe(403);
    expect((await api('PUT', `/locations/${id}`, { token: otherToken, body: { values: { name: 'Mine now' } } })).status).toBe(403);
    const updated = await api('PUT', `/locations/${id}`, { token: demoToken, body: { values: { name: 'Front garden' } }, headers: { 'If-Match': read.headers.get('etag')! } });
    expect(updated.status).toBe(200);
    expect((await api('GET', `/locations/${id}`, { token: demoToken })).body.values.name).toBe('Front garden');
    expect((await api('DELETE', `/locations/${id}`, { token: demoToken, headers: { 'If-Match': read.headers.get('etag')! } })).status).toBe(412);
    expect((await api('DELETE', `/locations/${id}`, { token: demoToken })).status).toBe(204);
    expect((await api('GET', `/locations/${id}`, { token: demoToken })).status).toBe(404);
  });

  it('when a public location is read by anyone of the website, then it is served; changing it is refused', async () => {
    const read = await api('GET', `/locations/${PUBLIC_LOCATION}`, { token: otherToken });
    expect(read.status).toBe(200);
    expect(read.body.values).toMatchObject({ name: 'Nature reserve', public: 't' });
    expect((await api('PUT', `/locations/${PUBLIC_LOCATION}`, { token: otherToken, body: { values: { name: 'x' } } })).status).toBe(403);
  });

  it('when the list is asked for, then it holds own and public locations', async () => {
    await api('POST', '/locations', { token: demoToken, body: place({ name: 'Listed' }) });
    const names = (await api('GET', '/locations?limit=1000', { token: demoToken })).body.map((l: { values: { name: string } }) => l.values.name);
    expect(names).toContain('Listed');
    expect(names).toContain('Nature reserve');
    const others = (await api('GET', '/locations?limit=1000', { token: otherToken })).body.map((l: { values: { name: string } }) => l.values.name);
    expect(others).not.toContain('Listed');
    expect(others).toContain('Nature reserve');
  });

  it.each([
    ['the name is missing', { name: undefined }, 'location:name', 'The name is required.'],
    ['the spatial reference is missing', { centroid_sref: undefined }, 'location:centroid_sref', 'The spatial reference must be supplied.'],
    ['the spatial reference is malformed', { centroid_sref: 'QQ99' }, 'location:centroid_sref', 'The spatial reference is not recognised.'],
    ['the type is not a number', { location_type_id: 'wood' }, 'location:location_type_id', 'Must be a whole number.'],
  ])('when %s, then 400 naming %s', async (_case, values, key, message) => {
    const response = await api('POST', '/locations', { token: demoToken, body: place(values) });
    expect(response.status).toBe(400);
    expect(response.body.message[key]).toBe(message);
  });
});

describe('locations with custom attributes (locAttr:<id>)', () => {
  const loc = (key: keyof typeof ATTR) => `locAttr:${ATTR[key]}`;

  async function createWithAttributes(values: Record<string, unknown> = {}) {
    const created = await api('POST', '/locations', {
      token: demoToken,
      body: place({
        [loc('count')]: '3',
        [loc('area')]: 2.5,
        [loc('surveyed')]: '2026-04-30',
        [loc('features')]: ['Pond', 'Hedge'],
        [loc('soil')]: String(SOIL.clay),
        [loc('grazed')]: 'yes',
        ...values,
      }),
    });
    expect(created.status, created.text).toBe(201);
    return created.body.values.id as string;
  }

  /** The stored value ids of one attribute of a location, as ?verbose gives them. */
  async function valueIds(id: string, key: keyof typeof ATTR): Promise<string[]> {
    const read = await api('GET', `/locations/${id}?verbose`, { token: demoToken });
    const details = read.body.values[loc(key)];
    return (Array.isArray(details) ? details : [details]).map((detail: { value_id: string }) => detail.value_id);
  }

  it('when a location has a boundary, then it is stored in EPSG:3857 and can be changed or removed', async () => {
    const created = await api('POST', '/locations', {
      token: demoToken,
      body: place({ boundary_geom: 'SRID=27700;POLYGON((412000 134000, 412000 135000, 413000 135000, 413000 134000, 412000 134000))' }),
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.values.id;
    const read = await api('GET', `/locations/${id}`, { token: demoToken });
    expect(read.body.values.boundary_geom).toMatch(/^0103000020110F0000/);
    const square = 'POLYGON((0 0, 0 10, 10 10, 10 0, 0 0))';
    expect((await api('PUT', `/locations/${id}`, { token: demoToken, body: { values: { boundary_geom: square } } })).status).toBe(200);
    expect((await api('GET', `/locations/${id}`, { token: demoToken })).body.values.boundary_geom).toBe(
      '0103000020110F000001000000050000000000000000000000000000000000000000000000000000000000000000002440000000000000244000000000000024400000000000002440000000000000000000000000000000000000000000000000',
    );
    expect((await api('PUT', `/locations/${id}`, { token: demoToken, body: { values: { boundary_geom: null } } })).status).toBe(200);
    expect((await api('GET', `/locations/${id}`, { token: demoToken })).body.values.boundary_geom).toBeNull();
    const bad = await api('POST', '/locations', { token: demoToken, body: place({ boundary_geom: 'POINT(1 2)' }) });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.message)).toEqual(['location:boundary_geom']);
  });

  it('when a parent location is given, then it must be one the caller can see', async () => {
    const parent = (await api('POST', '/locations', { token: demoToken, body: place({ name: 'Estate' }) })).body.values.id;
    const child = await api('POST', '/locations', { token: demoToken, body: place({ name: 'Walled garden', parent_id: parent }) });
    expect(child.status, child.text).toBe(201);
    expect((await api('GET', `/locations/${child.body.values.id}`, { token: demoToken })).body.values.parent_id).toBe(parent);
    expect((await api('POST', '/locations', { token: demoToken, body: place({ parent_id: PUBLIC_LOCATION }) })).status).toBe(201);
    const missing = await api('POST', '/locations', { token: demoToken, body: place({ parent_id: 987_654 }) });
    expect(missing.body.message).toEqual({ 'location:parent_id': 'The parent location 987654 is not known.' });
    const itself = await api('PUT', `/locations/${parent}`, { token: demoToken, body: { values: { parent_id: parent } } });
    expect(itself.status).toBe(400);
  });

  it("when a location or a sample names another user's private location, then it is refused as not known, as a missing one is", async () => {
    const otherToken = await token({ userId: OTHER_USER });
    const private_ = (await api('POST', '/locations', { token: otherToken, body: place({ name: 'Nest site' }) })).body.values.id;
    const asParent = await api('POST', '/locations', { token: demoToken, body: place({ parent_id: private_ }) });
    expect(asParent.status).toBe(400);
    expect(asParent.body.message).toEqual({ 'location:parent_id': `The parent location ${private_} is not known.` });
    const sample = { values: { survey_id: DEMO.surveyId, date: '2026-05-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB', location_id: private_ } };
    const named = await api('POST', '/samples', { token: demoToken, body: sample });
    expect(named.status).toBe(400);
    expect(named.body.message).toEqual({ 'sample:location_id': `The location ${private_} is not known.` });
    const nested = await api('POST', '/samples', { token: demoToken, body: { ...sample, values: { ...sample.values, location_id: PUBLIC_LOCATION }, samples: [sample] } });
    expect(nested.status).toBe(400);
    const own = (await api('POST', '/locations', { token: demoToken, body: place({ name: 'My pond' }) })).body.values.id;
    const saved = await api('POST', '/samples', { token: demoToken, body: { values: { ...sample.values, location_id: own } } });
    expect(saved.status, saved.text).toBe(201);
    const changed = await api('PUT', `/samples/${saved.body.values.id}`, { token: demoToken, body: { values: { location_id: private_ } } });
    expect(changed.status).toBe(400);
    expect(changed.body.message).toEqual({ 'sample:location_id': `The location ${private_} is not known.` });
  });

  it('when a location is created with values of several types, then it reads back with them, plainly, in the list and in detail', async () => {
    const id = await createWithAttributes();
    const read = await api('GET', `/locations/${id}`, { token: demoToken });
    expect(read.status).toBe(200);
    expect(read.body.values).toMatchObject({
      name: 'Back garden',
      [loc('count')]: '3',
      [loc('area')]: '2.5',
      [loc('surveyed')]: '30/04/2026',
      [loc('features')]: ['Pond', 'Hedge'],
      [loc('soil')]: 'Clay',
      [loc('grazed')]: '1',
    });
    expect(read.body.values).not.toHaveProperty('attribute_values');
    const listed = (await api('GET', `/locations?id=${id}`, { token: demoToken })).body;
    expect(listed).toHaveLength(1);
    expect(listed[0].values).toMatchObject({ [loc('count')]: '3', [loc('features')]: ['Pond', 'Hedge'] });

    const verbose = await api('GET', `/locations/${id}?verbose`, { token: demoToken });
    expect(verbose.status).toBe(200);
    expect(verbose.headers.get('etag')).toBe(read.headers.get('etag'));
    const stored = await dbQuery<{ id: string; attribute_id: string }>(
      'SELECT id::text, attribute_id::text FROM records.location_attribute_values WHERE location_id = $1 AND NOT deleted ORDER BY id',
      [id],
    );
    expect(stored).toHaveLength(7);
    const idOf = (key: keyof typeof ATTR) => stored.find((row) => row.attribute_id === String(ATTR[key]))!.id;
    expect(verbose.body.values[loc('soil')]).toEqual({
      attribute_id: String(ATTR.soil),
      value_id: idOf('soil'),
      caption: 'Soil',
      data_type: 'L',
      multi_value: 'f',
      value: 'Clay',
      raw_value: String(SOIL.clay),
      upper_value: null,
    });
    expect(verbose.body.values[loc('features')]).toEqual([
      expect.objectContaining({ attribute_id: String(ATTR.features), caption: 'Features', multi_value: 't', value: 'Pond' }),
      expect.objectContaining({ attribute_id: String(ATTR.features), multi_value: 't', value: 'Hedge' }),
    ]);
    expect(verbose.body.values[loc('surveyed')]).toMatchObject({ data_type: 'D', value: '30/04/2026', raw_value: '2026-04-30' });
    const { [loc('count')]: _c, [loc('area')]: _a, [loc('surveyed')]: _s, [loc('features')]: _f, [loc('soil')]: _l, [loc('grazed')]: _g, ...plainFields } = read.body.values;
    const { [loc('count')]: _vc, [loc('area')]: _va, [loc('surveyed')]: _vs, [loc('features')]: _vf, [loc('soil')]: _vl, [loc('grazed')]: _vg, ...verboseFields } = verbose.body.values;
    expect(verboseFields).toEqual(plainFields);
  });

  it('when a required attribute of the location type is missing, then 400 keyed location:locAttr:<id> as samples key theirs, and nothing is written', async () => {
    const before = await dbQuery<{ n: number }>('SELECT count(*)::int AS n FROM records.locations');
    const response = await api('POST', '/locations', { token: demoToken, body: place({ location_type_id: RESERVE_TYPE, [loc('count')]: '1' }) });
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual({ [`location:${loc('warden')}`]: 'A value is required for this attribute.' });
    expect((await dbQuery<{ n: number }>('SELECT count(*)::int AS n FROM records.locations'))[0].n).toBe(before[0].n);
    const empty = await api('POST', '/locations', { token: demoToken, body: place({ location_type_id: RESERVE_TYPE, [loc('warden')]: '' }) });
    expect(empty.body.message).toEqual({ [`location:${loc('warden')}`]: 'A value is required for this attribute.' });

    const given = await api('POST', '/locations', { token: demoToken, body: place({ location_type_id: RESERVE_TYPE, [loc('warden')]: 'Jo' }) });
    expect(given.status, given.text).toBe(201);
    expect((await api('GET', `/locations/${given.body.values.id}`, { token: demoToken })).body.values[loc('warden')]).toBe('Jo');
  });

  it('when an attribute restricted to another location type is sent, then 400 naming that type', async () => {
    const response = await api('POST', '/locations', { token: demoToken, body: place({ [loc('warden')]: 'Jo' }) });
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual({ [`location:${loc('warden')}`]: `Attribute ${ATTR.warden} is only available for locations of type ${RESERVE_TYPE}.` });
  });

  it.each([
    ['an integer is not a whole number', 'count', 'many', 'Must be a whole number.'],
    ['a float is not a number', 'area', 'big', 'Must be a number.'],
    ['a date is not a date', 'surveyed', 'not a date', 'The date could not be recognised.'],
    ['a boolean is not a boolean', 'grazed', 'perhaps', 'Must be true or false.'],
    ['a lookup is not one of its terms', 'soil', '999', "The value 999 is not a term of this attribute's list."],
    ['a single-value attribute gets a list', 'count', ['1', '2'], 'This attribute takes a single value.'],
  ] as const)('when %s, then 400 keyed location:locAttr:<id>', async (_case, key, value, message) => {
    const response = await api('POST', '/locations', { token: demoToken, body: place({ [loc(key)]: value }) });
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual({ [`location:${loc(key)}`]: message });
  });

  it('when an attribute of another website is sent, then it is refused; that website\'s own users may use it', async () => {
    const response = await api('POST', '/locations', { token: demoToken, body: place({ [loc('secondWebsite')]: 'Hursley' }) });
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual({ [`location:${loc('secondWebsite')}`]: `Attribute ${ATTR.secondWebsite} is not available for locations of this website.` });

    const secondToken = await token({ key: 'second', userId: SECOND_WEBSITE.userId });
    const theirs = await api('POST', '/locations', { token: secondToken, body: place({ [loc('secondWebsite')]: 'Hursley' }) });
    expect(theirs.status, theirs.text).toBe(201);
    expect((await api('GET', `/locations/${theirs.body.values.id}`, { token: secondToken })).body.values[loc('secondWebsite')]).toBe('Hursley');
    const refused = await api('POST', '/locations', { token: secondToken, body: place({ [loc('count')]: '1' }) });
    expect(refused.body.message).toEqual({ [`location:${loc('count')}`]: `Attribute ${ATTR.count} is not available for locations of this website.` });
  });

  it('when PUT sends locAttr:<id>, then that attribute\'s values are replaced and the others kept', async () => {
    const id = await createWithAttributes();
    const read = await api('GET', `/locations/${id}`, { token: demoToken });
    const updated = await api('PUT', `/locations/${id}`, {
      token: demoToken,
      body: { values: { [loc('count')]: '4', [loc('features')]: ['Wall'] } },
      headers: { 'If-Match': read.headers.get('etag')! },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.headers.get('etag')).not.toBe(read.headers.get('etag'));
    const after = (await api('GET', `/locations/${id}`, { token: demoToken })).body.values;
    expect(after).toMatchObject({ name: 'Back garden', [loc('count')]: '4', [loc('features')]: 'Wall', [loc('soil')]: 'Clay', [loc('area')]: '2.5' });
    const live = await dbQuery<{ n: number }>(
      'SELECT count(*)::int AS n FROM records.location_attribute_values WHERE location_id = $1 AND attribute_id = $2 AND NOT deleted',
      [id, ATTR.count],
    );
    expect(live[0].n).toBe(1);

    const wrong = await api('PUT', `/locations/${id}`, { token: demoToken, body: { values: { [loc('count')]: 'x', name: 'Renamed' } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toEqual({ [`location:${loc('count')}`]: 'Must be a whole number.' });
    expect((await api('GET', `/locations/${id}`, { token: demoToken })).body.values).toMatchObject({ name: 'Back garden', [loc('count')]: '4' });
  });

  it('when PUT sends locAttr:<id>:<valueId>, then that one stored value of a multi-value attribute changes', async () => {
    const id = await createWithAttributes();
    const [pond, hedge] = await valueIds(id, 'features');
    const updated = await api('PUT', `/locations/${id}`, { token: demoToken, body: { values: { [`${loc('features')}:${hedge}`]: 'Ditch' } } });
    expect(updated.status, updated.text).toBe(200);
    expect((await api('GET', `/locations/${id}`, { token: demoToken })).body.values[loc('features')]).toEqual(['Pond', 'Ditch']);
    expect(await valueIds(id, 'features')).toEqual([pond, hedge]);

    const removed = await api('PUT', `/locations/${id}`, { token: demoToken, body: { values: { [`${loc('features')}:${pond}`]: '' } } });
    expect(removed.status, removed.text).toBe(200);
    expect((await api('GET', `/locations/${id}`, { token: demoToken })).body.values[loc('features')]).toBe('Ditch');

    const other = await createWithAttributes();
    const [othersPond] = await valueIds(other, 'features');
    const refused = await api('PUT', `/locations/${id}`, { token: demoToken, body: { values: { [`${loc('features')}:${othersPond}`]: 'Moat' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toEqual({
      [`location:${loc('features')}:${othersPond}`]: `Value ${othersPond} is not a current value of attribute ${ATTR.features} on this location.`,
    });
    const onPost = await api('POST', '/locations', { token: demoToken, body: place({ [`${loc('features')}:${pond}`]: 'Moat' }) });
    expect(onPost.body.message).toEqual({ [`location:${loc('features')}:${pond}`]: `A new location has no stored values; send ${loc('features')} instead.` });
  });

  it('when a location with attribute values is created, then exactly one outbox event is written for it', async () => {
    const id = await createWithAttributes();
    const events = await dbQuery<{ entity: string; operation: string }>("SELECT entity, operation FROM records.outbox WHERE entity = 'location' AND entity_id = $1", [id]);
    expect(events).toEqual([{ entity: 'location', operation: 'create' }]);
  });
});
