// The hostile inputs an attack pass sent, each pinned by name: every one is a
// JSON 4xx that says what is wrong, never a 5xx, and writes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, dbQuery, sampleSubmission, setUpWorld, token } from './support/world.ts';

let bearer: string;

beforeAll(async () => {
  await setUpWorld();
  bearer = await token();
});

const savedWith = async (marker: string) =>
  Number((await dbQuery<{ n: string }>('SELECT count(*) AS n FROM records.samples WHERE location_name = $1', [marker]))[0].n);

/** A sample with `depth` levels of child samples below it, as JSON text (too deep for JSON.stringify). */
function nested(depth: number, marker: string): string {
  const child = `{"values":{"location_name":${JSON.stringify(marker)}},"samples":[`;
  const parent = JSON.stringify(sampleSubmission({ location_name: marker })).slice(0, -1);
  return `${parent},"samples":[${child.repeat(depth - 1)}{"values":{}}${']}'.repeat(depth - 1)}]}`;
}

describe('bad input is a 4xx, never a 5xx', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'when a list is filtered by a name every object inherits (%s), then it is an unknown name like any other, not a 500',
    async (name) => {
      const unknown = await api('GET', '/samples?no_such_field=1&limit=5', { token: bearer });
      const inherited = await api('GET', `/samples?${name}=1&limit=5`, { token: bearer });
      expect(inherited.status, inherited.text.slice(0, 300)).toBe(unknown.status);
      expect(inherited.body).toEqual(unknown.body);
      const report = await api('GET', `/reports/library/occurrences/filterable_explore_list.xml?${name}=1&limit=1`, { token: bearer });
      expect(report.status, report.text.slice(0, 300)).toBe(200);
      // The query parser drops __proto__ before anything sees it; the others are named as unknown.
      const warnings = name === '__proto__' ? undefined : [`Unknown parameter ${name}: the report does not take it, so it was ignored.`];
      expect(report.body.warnings).toEqual(warnings);
    },
  );

  it('when an Authorization header names a user "constructor", then 401 JSON', async () => {
    for (const header of ['USER:constructor:SECRET:x', 'USER_ID:constructor:WEBSITE_ID:__proto__:SECRET:x', 'WEBSITE_ID:toString:SECRET:x']) {
      const response = await api('GET', '/samples', { headers: { Authorization: header } });
      expect(response.status, header).toBeGreaterThanOrEqual(400);
      expect(response.status, header).toBeLessThan(500);
      expect(response.body, header).toMatchObject({ code: response.status });
    }
  });

  it('when a date that no calendar has is given, then 400 names the field', async () => {
    const report = await api('GET', '/reports/library/occurrences/filterable_explore_list.xml?date_from=2024-99-99', { token: bearer });
    expect(report.status, report.text).toBe(400);
    expect(report.text).toContain('date_from');
    const marker = `bad-date-${Date.now()}`;
    for (const values of [{ date: '2024-02-30' }, { date: null, date_start: '2024-99-99', date_end: '2024-12-31', date_type: 'DD' }]) {
      const response = await api('POST', '/samples', { token: bearer, body: sampleSubmission({ location_name: marker, ...values }) });
      expect(response.status, response.text).toBe(400);
      expect(Object.keys(response.body.message).join(' ')).toMatch(/sample:date/);
    }
    expect(await savedWith(marker)).toBe(0);
  });

  it('when a value holds a NUL character, then 400 names the field and nothing is saved', async () => {
    const marker = `nul-${Date.now()}`;
    const response = await api('POST', '/samples', { token: bearer, body: sampleSubmission({ location_name: marker, comment: 'before\u0000after' }) });
    expect(response.status, response.text).toBe(400);
    expect(response.body.message).toHaveProperty(['sample:comment']);
    expect(await savedWith(marker)).toBe(0);
  });

  it('when an id is beyond what the database holds, then 400 names it', async () => {
    for (const path of ['/samples/99999999999999999999', '/occurrences/18446744073709551616', '/samples/1e400']) {
      const response = await api('GET', path, { token: bearer });
      expect(response.status, `${path}: ${response.text}`).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      expect(response.body, path).toMatchObject({ code: response.status });
    }
    const list = await api('GET', '/samples?survey_id=99999999999999999999', { token: bearer });
    expect(list.status, list.text).toBe(400);
    expect(list.text).toContain('survey_id');
  });

  it('when child samples are nested deeper than SUBMISSION_MAX_DEPTH (8), 100 or 3 000 deep, then 400 names the limit and nothing is saved', async () => {
    for (const depth of [9, 100, 3000]) {
      const marker = `deep-${depth}-${Date.now()}`;
      const response = await api('POST', '/samples', { token: bearer, body: nested(depth, marker) });
      expect(response.status, `${depth}: ${response.text.slice(0, 300)}`).toBe(400);
      expect(JSON.stringify(response.body.message)).toMatch(/8 levels|depth|nested/i);
      expect(await savedWith(marker)).toBe(0);
    }
    const marker = `deep-ok-${Date.now()}`;
    expect((await api('POST', '/samples', { token: bearer, body: nested(7, marker) })).status).toBe(201);
  });

  it('when a submission holds more records than SUBMISSION_MAX_RECORDS (5 000), then 400 names the limit and nothing is saved', async () => {
    const marker = `many-${Date.now()}`;
    const occurrences = Array.from({ length: 5_000 }, () => ({ values: { taxa_taxon_list_id: 1 } }));
    const response = await api('POST', '/samples', { token: bearer, body: sampleSubmission({ location_name: marker }, { occurrences }) });
    expect(response.status, response.text.slice(0, 300)).toBe(400);
    expect(JSON.stringify(response.body.message)).toMatch(/5000|5 000/);
    expect(await savedWith(marker)).toBe(0);
    const list = await api('POST', '/samples/list', {
      token: bearer,
      body: Array.from({ length: 3 }, () => sampleSubmission({ location_name: marker }, { occurrences: occurrences.slice(0, 2_000) })),
    });
    expect(list.status, list.text.slice(0, 300)).toBe(400);
    expect(await savedWith(marker)).toBe(0);
  });
});
