import { beforeAll, describe, expect, it, inject } from 'vitest';
import { DEMO, importFixtures, parseFixtures } from '@rex/admin';
import { createPool } from '@rex/db';
import { OTHER_USER, api, services, setUpWorld, token } from './support/world.ts';

let demoToken: string;
let otherToken: string;
const PUBLIC_LOCATION = 700;

beforeAll(async () => {
  await setUpWorld();
  demoToken = await token();
  otherToken = await token({ userId: OTHER_USER });
  const pool = createPool(inject('databaseUrl'), { max: 1 });
  await importFixtures(pool, parseFixtures({ locations: [{ id: PUBLIC_LOCATION, name: 'Nature reserve', website_id: DEMO.websiteId, public: true, created_by_id: 1, centroid_sref: 'SU1234', centroid_sref_system: 'OSGB' }] }));
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
