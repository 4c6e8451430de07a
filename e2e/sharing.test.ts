import { beforeAll, describe, expect, it, inject } from 'vitest';
import { DEMO, importFixtures, parseFixtures } from '@rex/admin';
import { createPool } from '@rex/db';
import { SECOND_WEBSITE, WEBSITE_PASSWORD, api, eventually, sampleSubmission, setUpWorld, token } from './support/world.ts';

const place = `sharing${Date.now()}`;
const EXPLORE = `/reports/library/occurrences/filterable_explore_list.xml?location_name=${place}`;
let fromSecond: string;
let fromDemo: string;

beforeAll(async () => {
  await setUpWorld();
  const pool = createPool(inject('databaseUrl'), { max: 1 });
  // The second website shares its records with the demo website for reporting only.
  await importFixtures(pool, parseFixtures({ website_sharing: [{ from_website_id: SECOND_WEBSITE.id, to_website_id: DEMO.websiteId, tasks: ['reporting'] }] }));
  await pool.end();
  const second = await api('POST', '/samples', {
    token: await token({ key: 'second' }),
    body: sampleSubmission({ survey_id: SECOND_WEBSITE.surveyId, location_name: place }, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }),
  });
  fromSecond = second.body.occurrences[0].values.id;
  const demo = await api('POST', '/samples', { token: await token(), body: sampleSubmission({ location_name: place }, { occurrences: [{ values: { taxa_taxon_list_id: 2 } }] }) });
  fromDemo = demo.body.occurrences[0].values.id;
});

const ids = (body: { data: { occurrence_id: string }[] }) => body.data.map((row) => row.occurrence_id).sort();

describe('websites sharing records', () => {
  it('when a website shares with another for reporting, then the receiving website sees both in that scope, not in others', async () => {
    const website = (scope: string) => ({ Authorization: `WEBSITE_ID:${DEMO.websiteId}:SECRET:${WEBSITE_PASSWORD}:SCOPE:${scope}` });
    await eventually(async () => expect(ids((await api('GET', EXPLORE, { headers: website('reporting') })).body)).toEqual([fromDemo, fromSecond].sort()));
    expect(ids((await api('GET', EXPLORE, { headers: website('verification') })).body)).toEqual([fromDemo]);
  });

  it('when sharing goes one way, then the sharing website does not see the receiver’s records', async () => {
    const secondWebsite = { Authorization: `WEBSITE_ID:${SECOND_WEBSITE.id}:SECRET:second-password:SCOPE:reporting` };
    expect(ids((await api('GET', EXPLORE, { headers: secondWebsite })).body)).toEqual([fromSecond]);
  });

  it('when a user reports on their own records, then sharing adds nothing', async () => {
    expect(ids((await api('GET', EXPLORE, { token: await token() })).body)).toEqual([fromDemo]);
  });
});
