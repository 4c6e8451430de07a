import { beforeAll, describe, expect, it, inject } from 'vitest';
import pg from 'pg';
import { DEMO } from '@rex/admin';
import { OTHER_USER, SECOND_WEBSITE, api, dbQuery, eventually, sampleSubmission, services, setUpWorld, token } from './support/world.ts';

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const SAMPLE_FIELDS = [
  'id', 'survey_id', 'location_id', 'date_start', 'date_end', 'date_type', 'entered_sref', 'entered_sref_system',
  'location_name', 'created_on', 'updated_on', 'created_by_id', 'updated_by_id', 'comment', 'external_key',
  'sample_method_id', 'deleted', 'geom', 'recorder_names', 'parent_id', 'input_form', 'group_id', 'privacy_precision',
  'record_status', 'verified_by_id', 'verified_on', 'licence_id',
];

let demoToken: string;
let otherToken: string;

async function count(table: string): Promise<number> {
  const [row] = await dbQuery<{ n: number }>(`SELECT count(*)::int AS n FROM records.${table}`);
  return row.n;
}

async function createSample(body: Record<string, unknown> = sampleSubmission(), as = demoToken) {
  const response = await api('POST', '/samples', { token: as, body });
  expect(response.status, response.text).toBe(201);
  return response;
}

beforeAll(async () => {
  await setUpWorld();
  demoToken = await token();
  otherToken = await token({ userId: OTHER_USER });
});

describe('POST /samples', () => {
  it('when a sample with occurrences and a child sample is posted, then all are created in one response with hrefs', async () => {
    const response = await createSample(
      sampleSubmission(
        { 'smpAttr:2': 'Sunny', comment: 'Morning walk' },
        {
          occurrences: [
            { values: { taxa_taxon_list_id: 1, 'occAttr:1': '3', 'occAttr:4': '2' } },
            { values: { taxa_taxon_list_id: 2, 'occAttr:1': 1 } },
          ],
          samples: [{ values: { date: '02/05/2026', entered_sref: 'SU1235', entered_sref_system: 'OSGB' } }],
        },
      ),
    );
    const body = response.body;
    expect(response.headers.get('location')).toBe(body.href);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(body.href).toBe(`${services()}/samples/${body.values.id}`);
    expect(Object.keys(body.values).sort()).toEqual(['created_on', 'id', 'updated_on']);
    expect(body.values.id).toMatch(/^\d+$/);
    expect(body.values.created_on).toMatch(ISO_WITH_OFFSET);
    expect(body.values.updated_on).toMatch(ISO_WITH_OFFSET);
    expect(body.occurrences).toHaveLength(2);
    for (const occurrence of body.occurrences) {
      expect(occurrence.href).toBe(`${services()}/occurrences/${occurrence.values.id}`);
      expect(occurrence.values.created_on).toMatch(ISO_WITH_OFFSET);
    }
    expect(body.samples).toHaveLength(1);
    expect(body.samples[0].href).toBe(`${services()}/samples/${body.samples[0].values.id}`);

    const child = await api('GET', `/samples/${body.samples[0].values.id}`, { token: demoToken });
    expect(child.status).toBe(200);
    expect(child.body.values.parent_id).toBe(body.values.id);
    expect(child.body.values.survey_id).toBe(String(DEMO.surveyId));
    expect(child.body.values.date_start).toBe('2026-05-02');
  });

  it('when a child sample leaves out survey, date and spatial reference, then it takes them from its parent', async () => {
    const { body } = await createSample(sampleSubmission({}, { samples: [{ values: { comment: 'child' } }] }));
    const child = await api('GET', `/samples/${body.samples[0].values.id}`, { token: demoToken });
    expect(child.body.values).toMatchObject({ survey_id: '1', date_start: '2026-05-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB' });
  });

  it('when it is sent to the {services}/samples and /rest/v1.0 forms, then both create samples', async () => {
    for (const url of [`${inject('gatewayUrl')}/index.php/services/samples`, `${services()}/v1.0/samples`]) {
      const response = await api('POST', url, { token: demoToken, body: sampleSubmission() });
      expect(response.status).toBe(201);
    }
  });

  it('when an unsupported API version is asked for, written plainly or percent-encoded, then 400', async () => {
    for (const version of ['v2.0', '%762.0', 'v1%2E1']) {
      const response = await api('POST', `/${version}/samples`, { token: demoToken, body: sampleSubmission() });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 400, message: 'Unsupported API version' });
    }
  });
});

describe('GET /samples/:id', () => {
  it('when the owner reads a sample, then every field of the spec is a string or null in the spec formats', async () => {
    const { body: created } = await createSample(
      sampleSubmission({ 'smpAttr:2': 'Cloudy', 'smpAttr:6': ['Ann', 'Bob'], location_name: 'Field', privacy_precision: 1000 }),
    );
    const response = await api('GET', `/samples/${created.values.id}`, { token: demoToken });
    expect(response.status).toBe(200);
    const values = response.body.values;
    for (const field of SAMPLE_FIELDS) {
      expect(values, field).toHaveProperty(field);
      expect(values[field] === null || typeof values[field] === 'string', field).toBe(true);
    }
    expect(values).toMatchObject({
      id: created.values.id,
      survey_id: '1',
      date_start: '2026-05-01',
      date_end: '2026-05-01',
      date_type: 'D',
      entered_sref: 'SU1234',
      entered_sref_system: 'OSGB',
      location_name: 'Field',
      created_by_id: String(DEMO.userId),
      updated_by_id: String(DEMO.userId),
      deleted: 'f',
      record_status: 'C',
      privacy_precision: '1000',
      parent_id: null,
      'smpAttr:2': 'Cloudy',
      'smpAttr:6': ['Ann', 'Bob'],
    });
    expect(values.created_on).toMatch(ISO_WITH_OFFSET);
    // EWKB polygon in EPSG:3857: the 1 km square SU1234.
    expect(values.geom).toMatch(/^0103000020110F0000010000000500000[0-9A-F]+$/);
    expect(values.geom).toHaveLength(194);
  });

  it('when ?verbose is given, then each attribute value is an object with its value id, and a multi-value attribute a list of them', async () => {
    const { body: created } = await createSample(sampleSubmission({ 'smpAttr:2': 'Cloudy', 'smpAttr:6': ['Ann'], 'smpAttr:5': '2026-04-30' }));
    const id = created.values.id;
    const plain = await api('GET', `/samples/${id}`, { token: demoToken });
    expect(plain.body.values).toMatchObject({ 'smpAttr:2': 'Cloudy', 'smpAttr:6': 'Ann' });
    const stored = await dbQuery<{ id: string; attribute_id: string }>(
      'SELECT id, attribute_id FROM records.sample_attribute_values WHERE sample_id = $1 ORDER BY attribute_id',
      [id],
    );
    const valueId = (attributeId: string) => stored.find((row) => row.attribute_id === attributeId)!.id;

    const verbose = await api('GET', `/samples/${id}?verbose`, { token: demoToken });
    expect(verbose.status).toBe(200);
    expect(verbose.headers.get('etag')).toBe(plain.headers.get('etag'));
    const { 'smpAttr:2': weather, 'smpAttr:6': observers, 'smpAttr:5': visit, ...fields } = verbose.body.values;
    const { 'smpAttr:2': _w, 'smpAttr:6': _o, 'smpAttr:5': _v, ...plainFields } = plain.body.values;
    expect(fields).toEqual(plainFields);
    expect(weather).toEqual({
      attribute_id: '2',
      value_id: valueId('2'),
      caption: 'Weather',
      data_type: 'T',
      multi_value: 'f',
      value: 'Cloudy',
      raw_value: 'Cloudy',
      upper_value: null,
    });
    expect(observers).toEqual([expect.objectContaining({ attribute_id: '6', value_id: valueId('6'), caption: 'Observers', multi_value: 't', value: 'Ann' })]);
    expect(visit).toMatchObject({ attribute_id: '5', data_type: 'D', value: plain.body.values['smpAttr:5'], raw_value: '2026-04-30' });

    const update = await api('PUT', `/samples/${id}`, { token: demoToken, body: { values: { [`smpAttr:6:${observers[0].value_id}`]: 'Bea' } } });
    expect(update.status, update.text).toBe(200);
    expect((await api('GET', `/samples/${id}?verbose=1`, { token: demoToken })).body.values['smpAttr:6']).toEqual([
      expect.objectContaining({ value_id: observers[0].value_id, value: 'Bea' }),
    ]);
  });

  it('when a lat/long is given, then the geometry is a point', async () => {
    const { body } = await createSample(sampleSubmission({ entered_sref: '51.5, -0.12', entered_sref_system: '4326' }));
    const { body: read } = await api('GET', `/samples/${body.values.id}`, { token: demoToken });
    expect(read.values.geom).toMatch(/^0101000020110F0000/);
    expect(Number(read.values.lat)).toBeCloseTo(51.5, 6);
    expect(Number(read.values.lon)).toBeCloseTo(-0.12, 6);
  });

  it('when a point is given in a UTM zone, then it is placed by that zone', async () => {
    const { status, body } = await createSample(sampleSubmission({ entered_sref: '500000, 5700000', entered_sref_system: '32631' }));
    expect(status).toBe(201);
    const { body: read } = await api('GET', `/samples/${body.values.id}`, { token: demoToken });
    expect(read.values.entered_sref_system).toBe('32631');
    expect(Number(read.values.lon)).toBeCloseTo(3, 6);
    expect(Number(read.values.lat)).toBeCloseTo(51.451, 3);
  });

  it.each([
    ['2026-05', 'O', '2026-05-01', '2026-05-31'],
    ['1998', 'Y', '1998-01-01', '1998-12-31'],
    ['01/03/2020 to 05/03/2020', 'DD', '2020-03-01', '2020-03-05'],
    ['Unknown', 'U', null, null],
  ])('when the date is %s, then it is stored as a %s date', async (date, type, start, end) => {
    const { body } = await createSample(sampleSubmission({ date }));
    const { body: read } = await api('GET', `/samples/${body.values.id}`, { token: demoToken });
    expect(read.values).toMatchObject({ date_type: type, date_start: start, date_end: end });
  });

  it('when the id does not exist, then 404 with code and status and no message', async () => {
    const response = await api('GET', '/samples/987654321', { token: demoToken });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 404, status: 'Not Found' });
  });

  it('when the id is not a number, then 404', async () => {
    const response = await api('GET', '/samples/abc', { token: demoToken });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe(404);
  });
});

describe('PUT /samples/:id', () => {
  it('when only some fields are sent, then only those change and the response has values and href', async () => {
    const { body: created } = await createSample(sampleSubmission({ comment: 'before', location_name: 'Wood' }));
    const id = created.values.id;
    const response = await api('PUT', `/samples/${id}`, {
      token: demoToken,
      body: { values: { comment: 'after', date: '03/05/2026', entered_sref: '51.5, -0.12', entered_sref_system: '4326', 'smpAttr:2': 'Rain' } },
    });
    expect(response.status).toBe(200);
    expect(response.body.href).toBe(`${services()}/samples/${id}`);
    expect(response.body.values.id).toBe(id);
    const { body: read } = await api('GET', `/samples/${id}`, { token: demoToken });
    expect(read.values).toMatchObject({
      comment: 'after',
      location_name: 'Wood',
      date_start: '2026-05-03',
      entered_sref_system: '4326',
      'smpAttr:2': 'Rain',
    });
    expect(read.values.geom).toMatch(/^0101000020110F0000/);
  });

  it('when the body names another id, then 400', async () => {
    const { body: created } = await createSample();
    const response = await api('PUT', `/samples/${created.values.id}`, { token: demoToken, body: { values: { id: 1 } } });
    expect(response.status).toBe(400);
    expect(response.body.message).toHaveProperty('sample:id');
  });

  it('when an update is invalid, then 400 and the sample is unchanged', async () => {
    const { body: created } = await createSample(sampleSubmission({ comment: 'kept' }));
    const response = await api('PUT', `/samples/${created.values.id}`, { token: demoToken, body: { values: { comment: 'lost', date: 'not a date' } } });
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual({ 'sample:date_type': 'The date could not be recognised.' });
    const { body: read } = await api('GET', `/samples/${created.values.id}`, { token: demoToken });
    expect(read.values.comment).toBe('kept');
  });

  it('when the sample does not exist, then 404', async () => {
    const response = await api('PUT', '/samples/987654321', { token: demoToken, body: { values: { comment: 'x' } } });
    expect(response.status).toBe(404);
  });
});

describe('PUT /samples/:id with smpAttr:<id>:<valueId>', () => {
  /** The live values of a sample's attribute, oldest first: what a client learns from GET ?verbose. */
  const storedValues = (sampleId: string, attributeId: number) =>
    dbQuery<{ id: string; text_value: string }>(
      'SELECT id, text_value FROM records.sample_attribute_values WHERE sample_id = $1 AND attribute_id = $2 AND NOT deleted ORDER BY id',
      [sampleId, attributeId],
    );

  it('when one stored value of a multi-value attribute is sent, then only that value changes', async () => {
    const { body: created } = await createSample(sampleSubmission({ 'smpAttr:6': ['Ann', 'Bob'], 'smpAttr:2': 'Sunny' }));
    const id = created.values.id;
    const [, bob] = await storedValues(id, 6);
    const [weather] = await storedValues(id, 2);
    const response = await api('PUT', `/samples/${id}`, {
      token: demoToken,
      body: { values: { [`smpAttr:6:${bob.id}`]: 'Bea', [`smpAttr:2:${weather.id}`]: 'Rain' } },
    });
    expect(response.status, response.text).toBe(200);
    const { body: read } = await api('GET', `/samples/${id}`, { token: demoToken });
    expect(read.values['smpAttr:6']).toEqual(['Ann', 'Bea']);
    expect(read.values['smpAttr:2']).toBe('Rain');
    expect((await storedValues(id, 6)).map((value) => value.id)).toContain(bob.id);
  });

  it('when a stored value is sent empty, then that one value is removed and the others stay', async () => {
    const { body: created } = await createSample(sampleSubmission({ 'smpAttr:6': ['Ann', 'Bob'] }));
    const id = created.values.id;
    const [ann] = await storedValues(id, 6);
    const response = await api('PUT', `/samples/${id}`, { token: demoToken, body: { values: { [`smpAttr:6:${ann.id}`]: '' } } });
    expect(response.status, response.text).toBe(200);
    expect((await api('GET', `/samples/${id}`, { token: demoToken })).body.values['smpAttr:6']).toBe('Bob');
  });

  it('when the value id is not a current value of that attribute on that sample, then 400 naming the key and nothing changes', async () => {
    const { body: created } = await createSample(sampleSubmission({ 'smpAttr:6': ['Ann', 'Bob'], 'smpAttr:2': 'Sunny', comment: 'kept' }));
    const id = created.values.id;
    const [ann, bob] = await storedValues(id, 6);
    const { body: other } = await createSample(sampleSubmission({ 'smpAttr:2': 'Fog' }));
    const [othersWeather] = await storedValues(other.values.id, 2);
    await api('PUT', `/samples/${id}`, { token: demoToken, body: { values: { [`smpAttr:6:${bob.id}`]: '' } } });
    const cases = [
      [`smpAttr:2:${ann.id}`, `Value ${ann.id} is not a current value of attribute 2 on this sample.`],
      [`smpAttr:2:${othersWeather.id}`, `Value ${othersWeather.id} is not a current value of attribute 2 on this sample.`],
      [`smpAttr:6:${bob.id}`, `Value ${bob.id} is not a current value of attribute 6 on this sample.`],
      ['smpAttr:6:99999999999999999999', 'Value 99999999999999999999 is not a current value of attribute 6 on this sample.'],
    ];
    for (const [key, message] of cases) {
      const response = await api('PUT', `/samples/${id}`, { token: demoToken, body: { values: { [key]: 'Zed', comment: 'lost' } } });
      expect(response.status, key).toBe(400);
      expect(response.body.message).toEqual({ [`sample:${key}`]: message });
    }
    const { body: read } = await api('GET', `/samples/${id}`, { token: demoToken });
    expect(read.values).toMatchObject({ 'smpAttr:6': 'Ann', 'smpAttr:2': 'Sunny', comment: 'kept' });
  });

  it('when a value id is sent on a new sample, then 400 naming the key', async () => {
    const response = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ 'smpAttr:2:1': 'Rain' }) });
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual({ 'sample:smpAttr:2:1': 'A new sample has no stored values; send smpAttr:2 instead.' });
  });
});

describe('DELETE /samples/:id', () => {
  it('when the owner deletes a sample, then 204 with no body, its children go with it and a second delete is 404', async () => {
    const { body: created } = await createSample(
      sampleSubmission({}, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }], samples: [{ values: { comment: 'child' } }] }),
    );
    const id = created.values.id;
    const response = await api('DELETE', `/samples/${id}`, { token: demoToken });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await api('GET', `/samples/${id}`, { token: demoToken })).status).toBe(404);
    expect((await api('GET', `/samples/${created.samples[0].values.id}`, { token: demoToken })).status).toBe(404);
    expect((await api('DELETE', `/samples/${id}`, { token: demoToken })).status).toBe(404);
    expect((await api('PUT', `/samples/${id}`, { token: demoToken, body: { values: { comment: 'x' } } })).status).toBe(404);

    const rows = await dbQuery<{ deleted: boolean }>('SELECT deleted FROM records.occurrences WHERE id = $1', [created.occurrences[0].values.id]);
    // Ids are counted per table: an occurrence deleted elsewhere may share a sample's id, so each id goes with its entity.
    const events = await dbQuery<{ entity: string }>(
      `SELECT entity, operation FROM records.outbox
        WHERE operation = 'delete' AND ((entity = 'sample' AND entity_id = ANY($1::bigint[])) OR (entity = 'occurrence' AND entity_id = $2::bigint))
        ORDER BY entity`,
      [[id, created.samples[0].values.id], created.occurrences[0].values.id],
    );
    expect(rows[0].deleted).toBe(true);
    expect(events.map((e: { entity: string }) => e.entity)).toEqual(['occurrence', 'sample', 'sample']);
  });
});

describe('ownership', () => {
  it("when another user of the website reads, changes or deletes a sample, then 403 with a message and nothing leaks or changes", async () => {
    const { body: created } = await createSample(sampleSubmission({ comment: 'private note' }));
    const id = created.values.id;
    for (const [method, body] of [['GET'], ['PUT', { values: { comment: 'hijacked' } }], ['DELETE']] as const) {
      const response = await api(method, `/samples/${id}`, { token: otherToken, body });
      expect(response.status, method).toBe(403);
      expect(response.body).toEqual({ code: 403, status: 'Forbidden', message: 'Resource belongs to a different user account.' });
      expect(response.text).not.toContain('private note');
    }
    const { body: read } = await api('GET', `/samples/${id}`, { token: demoToken });
    expect(read.values.comment).toBe('private note');
  });

  it("when many reads of different samples by different users arrive at once, then each caller gets its own sample, or the refusal it would get alone", async () => {
    const mine = await Promise.all([1, 2, 3, 4, 5].map((n) => createSample(sampleSubmission({ comment: `mine ${n}` }))));
    const theirs = await Promise.all([1, 2, 3].map((n) => createSample(sampleSubmission({ comment: `theirs ${n}` }), otherToken)));
    const ids = [...mine, ...theirs].map((created) => created.body.values.id as string);
    // Each user reads every sample, all at once: the reads share their queries in records.
    const reads = await Promise.all(
      [demoToken, otherToken].flatMap((as) => [...ids, '999999999'].map(async (id) => ({ as, id, response: await api('GET', `/samples/${id}`, { token: as }) }))),
    );
    for (const { as, id, response } of reads) {
      const own = as === demoToken ? ids.indexOf(id) < 5 : ids.indexOf(id) >= 5;
      if (id === '999999999') expect(response.status).toBe(404);
      else if (own) {
        expect(response.status).toBe(200);
        expect(response.body.values.id).toBe(id);
        expect(response.body.values.comment).toBe(as === demoToken ? `mine ${ids.indexOf(id) + 1}` : `theirs ${ids.indexOf(id) - 4}`);
      } else {
        expect(response.status).toBe(403);
        expect(response.text).not.toMatch(/mine|theirs/);
      }
    }
  });

  it("when a user of another website asks for the sample, then 404 as if it did not exist", async () => {
    const { body: created } = await createSample();
    const secondToken = await token({ key: 'second', userId: SECOND_WEBSITE.userId });
    for (const method of ['GET', 'DELETE']) {
      const response = await api(method, `/samples/${created.values.id}`, { token: secondToken });
      expect(response.status, method).toBe(404);
    }
  });

  it("when a survey of another website is named, then 400 on sample:survey_id", async () => {
    const response = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ survey_id: SECOND_WEBSITE.surveyId }) });
    expect(response.status).toBe(400);
    expect(response.body.message).toHaveProperty('sample:survey_id');
  });
});

describe('validation', () => {
  it.each([
    ['the survey is missing', { survey_id: undefined }, 'sample:survey_id', 'The survey must be supplied.'],
    ['the survey is unknown', { survey_id: 999 }, 'sample:survey_id', 'The survey 999 is not a survey of this website.'],
    ['the date is missing', { date: undefined }, 'sample:date_type', 'Please supply a date for your observation.'],
    ['the date is not a date', { date: '31/02/2020' }, 'sample:date_type', 'The date could not be recognised.'],
    ['the date is in the future', { date: '01/01/2999' }, 'sample:date_start', 'Please specify a date that is not in the future.'],
    ['the spatial reference is missing', { entered_sref: undefined }, 'sample:entered_sref', 'The spatial reference must be supplied.'],
    ['the spatial reference is malformed', { entered_sref: 'XX12' }, 'sample:entered_sref', 'The spatial reference is not recognised.'],
    ['the system is unknown', { entered_sref_system: 'nowhere' }, 'sample:entered_sref_system', 'The spatial reference system is not a valid EPSG or notation code.'],
    ['a numeric field is not a number', { location_id: 'abc' }, 'sample:location_id', 'Must be a whole number.'],
    ['an attribute value has the wrong type', { 'smpAttr:5': 'not a date' }, 'sample:smpAttr:5', 'The date could not be recognised.'],
    ['an attribute is not linked to the survey', { 'smpAttr:3': 'x' }, 'sample:smpAttr:3', 'Attribute 3 is not available for this survey.'],
  ])('when %s, then 400 naming %s', async (_case, values, key, message) => {
    const response = await api('POST', '/samples', { token: demoToken, body: sampleSubmission(values) });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(400);
    expect(response.body.status).toBe('Bad Request');
    expect(response.body.message[key]).toBe(message);
  });

  it('when a required attribute of the survey is not given, then 400 naming it', async () => {
    const response = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ survey_id: 3 }) });
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual({ 'sample:smpAttr:3': 'A value is required for this attribute.' });
  });

  it.each([
    ['the taxon is missing', {}, 'occurrence:taxa_taxon_list_id', 'The taxon must be specified.'],
    ['the taxon is unknown', { taxa_taxon_list_id: 424242 }, 'occurrence:taxa_taxon_list_id', 'The taxon 424242 is not known.'],
    ['an integer attribute is not a number', { taxa_taxon_list_id: 1, 'occAttr:1': 'many' }, 'occurrence:occAttr:1', 'Must be a whole number.'],
    ['a lookup value is not in its list', { taxa_taxon_list_id: 1, 'occAttr:4': '99' }, 'occurrence:occAttr:4', "The value 99 is not a term of this attribute's list."],
  ])('when in an occurrence %s, then 400 naming %s', async (_case, values, key, message) => {
    const response = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { occurrences: [{ values }] }) });
    expect(response.status).toBe(400);
    expect(response.body.message[key]).toBe(message);
  });

  it('when the last of many occurrences is invalid, then nothing at all is written', async () => {
    const before = { samples: await count('samples'), occurrences: await count('occurrences'), outbox: await count('outbox') };
    const occurrences = Array.from({ length: 20 }, (_, i) => ({ values: { taxa_taxon_list_id: (i % 4) + 1, 'occAttr:1': String(i) } }));
    occurrences.push({ values: { taxa_taxon_list_id: 1, 'occAttr:1': 'oops' } });
    const response = await api('POST', '/samples', {
      token: demoToken,
      body: sampleSubmission({}, { occurrences, samples: [{ values: { comment: 'child' } }] }),
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual({ 'occurrence:occAttr:1': 'Must be a whole number.' });
    expect({ samples: await count('samples'), occurrences: await count('occurrences'), outbox: await count('outbox') }).toEqual(before);
  });

  it('when a value is an object, then 400 naming the field', async () => {
    const response = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ comment: { nested: true } }) });
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual({ 'sample:comment': 'Must be a text, number, boolean, null or a list of those.' });
  });

  it('when media name a file that is not queued, then 400 on sample_medium:queued and nothing is written', async () => {
    const before = await count('samples');
    const response = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { media: [{ values: { queued: 'nope.jpg' } }] }) });
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual({ 'sample_medium:queued': 'Requested file does not exist in the queue: nope.jpg' });
    expect(await count('samples')).toBe(before);
  });
});

describe('bad requests', () => {
  it('when the body is not valid JSON, then a JSON 400', async () => {
    const response = await api('POST', '/samples', { token: demoToken, body: '{"values": ' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 400, status: 'Bad Request', message: 'The request body is not valid JSON.' });
  });

  it('when the content type is not JSON, then a JSON 415', async () => {
    const response = await api('POST', '/samples', { token: demoToken, body: 'values=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(response.status).toBe(415);
    expect(response.body.code).toBe(415);
  });

  it('when the body is larger than the limit, then a JSON 413', async () => {
    const response = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ comment: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe(413);
  });

  it('when the body is a JSON array, then a JSON 400', async () => {
    const response = await api('POST', '/samples', { token: demoToken, body: [sampleSubmission()] });
    expect(response.status).toBe(400);
    expect(response.body.message).toHaveProperty('sample:values');
  });

  it('when an unknown resource is asked for, then a JSON 404', async () => {
    const response = await api('GET', '/no-such-thing', { token: demoToken });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe(404);
  });
});

describe('versions (ETags)', () => {
  it('when a sample is created, read and changed, then ETags follow its version and If-None-Match gives 304', async () => {
    const created = await createSample();
    const id = created.body.values.id;
    const tag = created.headers.get('etag');
    expect(tag).toMatch(/^"\d+"$/);
    const read = await api('GET', `/samples/${id}`, { token: demoToken });
    expect(read.headers.get('etag')).toBe(tag);
    const unchanged = await api('GET', `/samples/${id}`, { token: demoToken, headers: { 'If-None-Match': tag! } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    const updated = await api('PUT', `/samples/${id}`, { token: demoToken, body: { values: { comment: 'v2' } }, headers: { 'If-Match': tag! } });
    expect(updated.status).toBe(200);
    expect(updated.headers.get('etag')).not.toBe(tag);
    expect((await api('GET', `/samples/${id}`, { token: demoToken, headers: { 'If-None-Match': tag! } })).status).toBe(200);
  });

  it('when If-Match holds a stale version, then PUT and DELETE are 412 and change nothing', async () => {
    const created = await createSample(sampleSubmission({ comment: 'first' }));
    const id = created.body.values.id;
    const stale = created.headers.get('etag')!;
    await api('PUT', `/samples/${id}`, { token: demoToken, body: { values: { comment: 'second' } } });
    const put = await api('PUT', `/samples/${id}`, { token: demoToken, body: { values: { comment: 'lost update' } }, headers: { 'If-Match': stale } });
    expect(put.status).toBe(412);
    expect(put.body).toEqual({ code: 412, status: 'Precondition Failed', message: 'If-Match condition not met. Record may have been updated by another user.' });
    expect((await api('DELETE', `/samples/${id}`, { token: demoToken, headers: { 'If-Match': stale } })).status).toBe(412);
    const read = await api('GET', `/samples/${id}`, { token: demoToken });
    expect(read.body.values.comment).toBe('second');
    expect((await api('DELETE', `/samples/${id}`, { token: demoToken, headers: { 'If-Match': read.headers.get('etag')! } })).status).toBe(204);
  });
});

describe('samples posted at once', () => {
  const shaped = (run: string, i: number, key: string) =>
    sampleSubmission(
      { comment: `${run} ${i}`, external_key: key },
      { occurrences: [1, 2].map((taxon) => ({ values: { taxa_taxon_list_id: taxon, 'occAttr:1': String(i) } })) },
    );

  /**
   * Posts `bodies` at once while samples are held from being written (a lock on the table), until
   * the first writes wait for it, so that the writes after them gather behind them.
   */
  async function postTogether(bodies: unknown[]) {
    const holder = new pg.Client({ connectionString: inject('databaseUrl') });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE records.samples IN SHARE MODE');
      const sent = Promise.all(bodies.map((body) => api('POST', '/samples', { token: demoToken, body })));
      await eventually(async () => {
        const [{ n }] = await dbQuery<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'records.samples'::regclass AND NOT granted");
        expect(n).toBeGreaterThan(0);
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await holder.query('COMMIT');
      return await sent;
    } finally {
      await holder.end();
    }
  }

  /** Each answered sample is written with its own occurrences, as its answer says. */
  async function expectWritten(run: string, answers: Awaited<ReturnType<typeof api>>[], except?: number) {
    for (const [i, answer] of answers.entries()) {
      if (i === except) continue;
      const read = await api('GET', `/samples/${answer.body.values.id}`, { token: demoToken });
      expect(read.body.values.comment).toBe(`${run} ${i}`);
      const occurrences = await dbQuery<{ id: string }>('SELECT id FROM records.occurrences WHERE sample_id = $1 ORDER BY id', [answer.body.values.id]);
      expect(occurrences.map((row) => row.id)).toEqual(answer.body.occurrences.map((occurrence: { values: { id: string } }) => occurrence.values.id));
    }
  }

  it('when a dozen samples are posted at once, then each is written with its own occurrences, several of them in one transaction', async () => {
    const run = `burst-${Date.now()}`;
    // The shape twice first: from its second write on it is a named statement, which writes arriving together share.
    for (const i of [-2, -1]) await createSample(shaped(run, i, `${run} key ${i}`));
    const answers = await postTogether(Array.from({ length: 12 }, (_, i) => shaped(run, i, `${run} key ${i}`)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(201));
    await expectWritten(run, answers);
    // Written in one transaction, they carry one version.
    const versions = answers.map((answer) => answer.headers.get('etag'));
    expect(new Set(versions).size, JSON.stringify(versions)).toBeLessThan(versions.length);
  });

  it('when two of a dozen samples posted at once name the same new external_key, then one of those two is refused with 409 naming the other, and every other sample is written', async () => {
    const run = `clash-${Date.now()}`;
    for (const i of [-2, -1]) await createSample(shaped(run, i, `${run} key ${i}`));
    const answers = await postTogether(Array.from({ length: 12 }, (_, i) => shaped(run, i, `${run} key ${i === 7 ? 3 : i}`)));
    const refused = answers.flatMap((answer, i) => (answer.status === 201 ? [] : [i]));
    expect(refused.length, answers.map((answer) => answer.text).join('\n')).toBe(1);
    expect([3, 7]).toContain(refused[0]);
    const other = answers[refused[0] === 3 ? 7 : 3];
    expect(answers[refused[0]].status).toBe(409);
    expect(answers[refused[0]].body.duplicate_of).toEqual({ id: other.body.values.id, href: other.body.href });
    await expectWritten(run, answers, refused[0]);
    const [{ n }] = await dbQuery<{ n: number }>('SELECT count(*)::int AS n FROM records.samples WHERE comment LIKE $1', [`${run} %`]);
    expect(n).toBe(2 + 11);
  });
});

describe('retries and duplicates', () => {
  it('when a submission is retried with the same Idempotency-Key, then the first answer comes back and nothing new is written', async () => {
    const key = `retry-${Date.now()}`;
    const body = sampleSubmission({ comment: 'once only' }, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] });
    const before = await count('samples');
    const first = await api('POST', '/samples', { token: demoToken, body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    const retries = await Promise.all([1, 2, 3].map(() => api('POST', '/samples', { token: demoToken, body, headers: { 'Idempotency-Key': key } })));
    for (const retry of retries) {
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    }
    expect(await count('samples')).toBe(before + 1);
  });

  it('when an Idempotency-Key is older than its lifetime (30 days), then it is deleted and the key may be used afresh', async () => {
    const key = `expiring-${Date.now()}`;
    const body = sampleSubmission({ comment: 'expiring key' });
    const first = await api('POST', '/samples', { token: demoToken, body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    await dbQuery("UPDATE records.idempotency_keys SET created_on = now() - interval '31 days' WHERE key = $1", [key]);
    await eventually(async () => expect(await dbQuery('SELECT 1 FROM records.idempotency_keys WHERE key = $1', [key])).toEqual([]));
    const again = await api('POST', '/samples', { token: demoToken, body, headers: { 'Idempotency-Key': key } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.values.id).not.toBe(first.body.values.id);
  });

  it('when retries race each other, then exactly one submission is written', async () => {
    const key = `race-${Date.now()}`;
    const body = sampleSubmission({ comment: 'raced' });
    const before = await count('samples');
    const answers = await Promise.all(Array.from({ length: 6 }, () => api('POST', '/samples', { token: demoToken, body, headers: { 'Idempotency-Key': key } })));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((a) => a.body.values.id)).size).toBe(1);
    expect(await count('samples')).toBe(before + 1);
  });

  it('when the same Idempotency-Key comes with a different submission, then 409', async () => {
    const key = `reuse-${Date.now()}`;
    await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ comment: 'a' }), headers: { 'Idempotency-Key': key } });
    const reused = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ comment: 'b' }), headers: { 'Idempotency-Key': key } });
    expect(reused.status).toBe(409);
    expect(reused.body.message).toBe('The Idempotency-Key was already used for a different submission.');
  });

  it("when another user sends the same Idempotency-Key, then it is that user's own key", async () => {
    const key = `shared-${Date.now()}`;
    const mine = await api('POST', '/samples', { token: demoToken, body: sampleSubmission(), headers: { 'Idempotency-Key': key } });
    const theirs = await api('POST', '/samples', { token: otherToken, body: sampleSubmission(), headers: { 'Idempotency-Key': key } });
    expect(theirs.status).toBe(201);
    expect(theirs.body.values.id).not.toBe(mine.body.values.id);
  });

  it('when an external_key is already used in the website, then 409 naming the sample that has it', async () => {
    const externalKey = `ext-${Date.now()}`;
    const first = await createSample(sampleSubmission({ external_key: externalKey }));
    const duplicate = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({ external_key: externalKey }) });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({
      code: 409,
      status: 'Conflict',
      message: 'Duplicate external_key would be created',
      duplicate_of: { id: first.body.values.id, href: first.body.href },
    });
    const other = await createSample();
    const update = await api('PUT', `/samples/${other.body.values.id}`, { token: demoToken, body: { values: { external_key: externalKey } } });
    expect(update.status).toBe(409);
    expect((await api('PUT', `/samples/${first.body.values.id}`, { token: demoToken, body: { values: { external_key: externalKey, comment: 'kept key' } } })).status).toBe(200);
  });
});
