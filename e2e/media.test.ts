import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO } from '@rex/admin';
import { startGateway } from './support/gateway.ts';
import { claimIdFor } from '../services/records/src/app/media-claims.ts';
import { jpeg, png, pngSize, queuedPhoto, upload } from './support/media.ts';
import { EDITOR_USER, OTHER_USER, api, dbQuery, eventually, sampleSubmission, services, setUpWorld, token } from './support/world.ts';

let demoToken: string;
let otherToken: string;

beforeAll(async () => {
  await setUpWorld();
  demoToken = await token();
  otherToken = await token({ userId: OTHER_USER });
});

const queueState = async (name: string) =>
  (await dbQuery<{ state: string; claim_id: string | null }>('SELECT state, claim_id FROM media.files WHERE name = $1', [name]))[0];
const count = async (table: string) => Number((await dbQuery<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`))[0].n);
const occurrence = (extra: Record<string, unknown> = {}) => ({ values: { taxa_taxon_list_id: DEMO.taxonIds[0], ...extra } });

describe('media of records', () => {
  it('when a sample names queued files for itself and its occurrence, then the media are saved, linked by href, and the files claimed', async () => {
    const [samplePhoto, occurrencePhoto] = [await queuedPhoto(demoToken), await queuedPhoto(demoToken)];
    const created = await api('POST', '/samples', {
      token: demoToken,
      body: sampleSubmission({}, {
        media: [{ values: { queued: samplePhoto, caption: 'The pond' } }],
        occurrences: [{ ...occurrence(), media: [{ values: { queued: occurrencePhoto, caption: 'A frog', licence_id: 3 } }] }],
      }),
    });
    expect(created.status, created.text).toBe(201);
    const sampleMedium = created.body.media[0];
    const occurrenceMedium = created.body.occurrences[0].media[0];
    expect(sampleMedium.href).toBe(`${services()}/sample_media/${sampleMedium.values.id}`);
    expect(occurrenceMedium.href).toBe(`${services()}/occurrence_media/${occurrenceMedium.values.id}`);

    const read = await api('GET', `/occurrence_media/${occurrenceMedium.values.id}`, { token: demoToken });
    expect(read.status).toBe(200);
    expect(read.body.values).toMatchObject({
      id: occurrenceMedium.values.id,
      occurrence_id: created.body.occurrences[0].values.id,
      path: occurrencePhoto,
      caption: 'A frog',
      licence_id: '3',
      media_type: 'Image:Local',
      website_id: String(DEMO.websiteId),
      created_by_id: String(DEMO.userId),
      deleted: 'f',
    });
    expect((await api('GET', `/sample_media/${sampleMedium.values.id}`, { token: demoToken })).body.values).toMatchObject({ path: samplePhoto, caption: 'The pond' });
    // The files move into storage just after the answer.
    await eventually(async () => expect(await queueState(occurrencePhoto)).toMatchObject({ state: 'claimed' }));
    await eventually(async () => expect(await dbQuery('SELECT confirmed FROM records.media_claims WHERE path = $1', [occurrencePhoto])).toEqual([{ confirmed: true }]));
    // The medium's file, for its owner only.
    const own = await fetch(`${services()}/occurrence_media/${occurrenceMedium.values.id}/file`, { headers: { Authorization: `Bearer ${demoToken}` } });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/jpeg');
    expect((await own.arrayBuffer()).byteLength).toBe(2048);
    const foreign = await fetch(`${services()}/occurrence_media/${occurrenceMedium.values.id}/file`, { headers: { Authorization: `Bearer ${otherToken}` } });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { code: number }).code).toBe(403);
    // A claimed file is the medium's: it is served through the medium only, no longer as a queued upload.
    const file = await fetch(`${services()}/sample_media/${sampleMedium.values.id}/file`, { headers: { Authorization: `Bearer ${demoToken}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    await eventually(async () => expect(await queueState(samplePhoto)).toMatchObject({ state: 'claimed' }));
    const queued = await fetch(`${services()}/media-queue/${samplePhoto}`, { headers: { Authorization: `Bearer ${demoToken}` } });
    expect(queued.status).toBe(404);
  });

  it('when a file was already used, or never queued, then the submission is refused on that medium and nothing is written', async () => {
    const photo = await queuedPhoto(demoToken);
    expect((await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { media: [{ values: { queued: photo } }] }) })).status).toBe(201);
    const samplesBefore = await count('records.samples');
    const again = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { occurrences: [{ ...occurrence(), media: [{ values: { queued: photo } }] }] }) });
    expect(again.status).toBe(400);
    expect(again.body.message).toEqual({ 'occurrence_medium:queued': `Requested file has already been used by another record: ${photo}` });
    const missing = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { media: [{ values: { queued: '26/01/01/000000000000000000000000.jpg' } }] }) });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toEqual({ 'sample_medium:queued': 'Requested file does not exist in the queue: 26/01/01/000000000000000000000000.jpg' });
    const noFile = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { media: [{ values: { caption: 'forgot the file' } }] }) });
    expect(noFile.body.message).toEqual({ 'sample_medium:path': 'The image file must be supplied.' });
    const pathGiven = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { media: [{ values: { path: '../../etc/passwd' } }] }) });
    expect(pathGiven.status).toBe(400);
    expect(Object.keys(pathGiven.body.message)).toEqual(['sample_medium:path']);
    expect(await count('records.samples')).toBe(samplesBefore);
  });

  it("when a user names another user's queued file, then it is not in the queue for them", async () => {
    const photo = await queuedPhoto(demoToken);
    const taken = await api('POST', '/samples', { token: otherToken, body: sampleSubmission({}, { media: [{ values: { queued: photo } }] }) });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toEqual({ 'sample_medium:queued': `Requested file does not exist in the queue: ${photo}` });
    expect(await queueState(photo)).toEqual({ state: 'queued', claim_id: null });
  });

  it('when one child of a large submission with media is invalid, then nothing is written and no file is claimed', async () => {
    const photos = await Promise.all(Array.from({ length: 10 }, () => queuedPhoto(demoToken)));
    const occurrences = Array.from({ length: 50 }, (_, i) => ({
      ...occurrence({ [`occAttr:${DEMO.countAttributeId}`]: i, ...(i === 37 ? { taxa_taxon_list_id: 999_999 } : {}) }),
      media: i < 10 ? [{ values: { queued: photos[i], caption: `photo ${i}` } }] : [],
    }));
    const before = { samples: await count('records.samples'), occurrences: await count('records.occurrences'), media: await count('records.occurrence_media') };
    const answer = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { occurrences }) });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toEqual({ 'occurrence:taxa_taxon_list_id': 'The taxon 999999 is not known.' });
    expect({ samples: await count('records.samples'), occurrences: await count('records.occurrences'), media: await count('records.occurrence_media') }).toEqual(before);
    for (const photo of photos) expect(await queueState(photo)).toEqual({ state: 'queued', claim_id: null });

    occurrences[37] = { ...occurrence(), media: [] };
    const fixed = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { occurrences }) });
    expect(fixed.status, fixed.text).toBe(201);
    expect(fixed.body.occurrences.filter((o: { media?: unknown[] }) => o.media?.length)).toHaveLength(10);
    for (const photo of photos) await eventually(async () => expect((await queueState(photo)).state).toBe('claimed'));
  });

  it('when an update that adds media fails after the files were reserved, then the files return to the queue', async () => {
    const sample = await api('POST', '/samples', { token: demoToken, body: sampleSubmission() });
    const photo = await queuedPhoto(demoToken);
    const failed = await api('PUT', `/samples/${sample.body.values.id}`, { token: demoToken, body: { values: { date: 'not a date' }, media: [{ values: { queued: photo } }] } });
    expect(failed.status).toBe(400);
    expect(failed.body.message).toEqual({ 'sample:date_type': 'The date could not be recognised.' });
    await eventually(async () => expect(await queueState(photo)).toEqual({ state: 'queued', claim_id: null }));
    const added = await api('PUT', `/samples/${sample.body.values.id}`, { token: demoToken, body: { values: {}, media: [{ values: { queued: photo } }] } });
    expect(added.status, added.text).toBe(200);
    expect(added.body.media[0].href).toMatch(/\/sample_media\/\d+$/);
    await eventually(async () => expect((await queueState(photo)).state).toBe('claimed'));
  });

  it('when an occurrence or a location is updated with new media, then they are added and answered with hrefs', async () => {
    const sample = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { occurrences: [occurrence()] }) });
    const occurrenceId = sample.body.occurrences[0].values.id;
    const onOccurrence = await api('PUT', `/occurrences/${occurrenceId}`, { token: demoToken, body: { values: { comment: 'with photo' }, media: [{ values: { queued: await queuedPhoto(demoToken) } }] } });
    expect(onOccurrence.status, onOccurrence.text).toBe(200);
    const medium = onOccurrence.body.media[0];
    expect(medium.href).toBe(`${services()}/occurrence_media/${medium.values.id}`);
    expect((await api('GET', `/occurrence_media/${medium.values.id}`, { token: demoToken })).body.values.occurrence_id).toBe(occurrenceId);

    const location = (await api('POST', '/locations', { token: demoToken, body: { values: { name: 'Hedge', centroid_sref: 'SU1234', centroid_sref_system: 'OSGB' } } })).body.values.id;
    const onLocation = await api('PUT', `/locations/${location}`, { token: demoToken, body: { values: {}, media: [{ values: { queued: await queuedPhoto(demoToken) } }] } });
    expect(onLocation.status, onLocation.text).toBe(200);
    expect(onLocation.body.media[0].href).toMatch(/\/location_media\/\d+$/);
    const missing = await api('PUT', `/locations/${location}`, { token: demoToken, body: { values: {}, media: [{ values: { queued: '26/01/01/000000000000000000000000.jpg' } }] } });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.message)).toEqual(['location_medium:queued']);
  });

  it('when a medium is read, changed or deleted, then only its creator may, whatever the role of another user, with ETags', async () => {
    const photo = await queuedPhoto(demoToken);
    const sample = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { occurrences: [occurrence()] }) });
    const occurrenceId = sample.body.occurrences[0].values.id;
    const added = await api('POST', '/occurrence-media', { token: demoToken, body: { values: { occurrence_id: occurrenceId, queued: photo, caption: 'first' } } });
    expect(added.status, added.text).toBe(201);
    expect(added.headers.get('location')).toBe(`${services()}/occurrence_media/${added.body.values.id}`);
    const id = added.body.values.id;
    const etag = added.headers.get('etag')!;

    expect((await api('GET', `/occurrence_media/${id}`, { token: otherToken })).status).toBe(403);
    expect((await api('PUT', `/occurrence_media/${id}`, { token: otherToken, body: { values: { caption: 'mine' } } })).status).toBe(403);
    expect((await api('DELETE', `/occurrence_media/${id}`, { token: otherToken })).status).toBe(403);
    const otherSample = await api('POST', '/occurrence_media', { token: otherToken, body: { values: { occurrence_id: occurrenceId, queued: await queuedPhoto(otherToken) } } });
    expect(otherSample.body.message).toEqual({ 'occurrence_medium:occurrence_id': 'Attempt to add media to an invalid occurrence.' });

    const changed = await api('PUT', `/occurrence_media/${id}`, { token: demoToken, body: { values: { caption: 'second' } }, headers: { 'If-Match': etag } });
    expect(changed.status, changed.text).toBe(200);
    expect((await api('PUT', `/occurrence_media/${id}`, { token: demoToken, body: { values: { caption: 'stale' } }, headers: { 'If-Match': etag } })).status).toBe(412);
    expect((await api('PUT', `/occurrence_media/${id}`, { token: demoToken, body: { values: { queued: await queuedPhoto(demoToken) } } })).body.message).toEqual({
      'occurrence_medium:queued': 'The file of a medium cannot be replaced; delete the medium and add another.',
    });
    const list = await api('GET', `/occurrence_media?occurrence_id=${occurrenceId}`, { token: demoToken });
    expect(list.body).toEqual([{ values: expect.objectContaining({ id, caption: 'second', path: photo }) }]);
    expect((await api('GET', `/occurrence_media?occurrence_id=${occurrenceId}`, { token: otherToken })).body).toEqual([]);
    expect((await api('GET', '/occurrence_media?occurrence_id=x', { token: demoToken })).status).toBe(400);

    const options = await fetch(`${services()}/sample-media`, { method: 'OPTIONS' });
    expect(options.headers.get('allow')).toBe('GET, POST, OPTIONS');

    expect((await api('DELETE', `/occurrence_media/${id}`, { token: await token({ userId: EDITOR_USER }) })).status).toBe(403);
    expect((await api('DELETE', `/occurrence_media/${id}`, { token: demoToken })).status).toBe(204);
    expect((await api('GET', `/occurrence_media/${id}`, { token: demoToken })).status).toBe(404);
  });

  it('when a record is deleted, then its media go with it', async () => {
    const samplePhoto = await queuedPhoto(demoToken);
    const sample = await api('POST', '/samples', {
      token: demoToken,
      body: sampleSubmission({}, { media: [{ values: { queued: samplePhoto } }], occurrences: [{ ...occurrence(), media: [{ values: { queued: await queuedPhoto(demoToken) } }] }] }),
    });
    expect((await api('DELETE', `/samples/${sample.body.values.id}`, { token: demoToken })).status).toBe(204);
    expect((await api('GET', `/sample_media/${sample.body.media[0].values.id}`, { token: demoToken })).status).toBe(404);
    // Nor is the deleted medium's file served, by any route.
    expect((await api('GET', `/sample_media/${sample.body.media[0].values.id}/file`, { token: demoToken })).status).toBe(404);
    expect((await api('GET', `/media-queue/${samplePhoto}`, { token: demoToken })).status).toBe(404);
    // After the grace period (one second here), the stored file itself is removed.
    await eventually(async () => expect(await dbQuery('SELECT 1 FROM media.files WHERE name = $1', [samplePhoto])).toEqual([]), 15_000);
    expect(existsSync(join(inject('dataDir'), 'media', 'files', samplePhoto))).toBe(false);
    expect(await dbQuery('SELECT 1 FROM records.media_claims WHERE path = $1', [samplePhoto])).toEqual([]);
    expect((await api('GET', `/occurrence_media/${sample.body.occurrences[0].media[0].values.id}`, { token: demoToken })).status).toBe(404);

    const location = await api('POST', '/locations', {
      token: demoToken,
      body: { values: { name: 'Pond', centroid_sref: 'SU1234', centroid_sref_system: 'OSGB' }, media: [{ values: { queued: await queuedPhoto(demoToken), caption: 'Pond in May' } }] },
    });
    expect(location.status, location.text).toBe(201);
    const medium = location.body.media[0];
    expect(medium.href).toBe(`${services()}/location_media/${medium.values.id}`);
    expect((await api('GET', `/location_media/${medium.values.id}`, { token: demoToken })).body.values).toMatchObject({ location_id: location.body.values.id, caption: 'Pond in May' });
    expect((await api('DELETE', `/locations/${location.body.values.id}`, { token: demoToken })).status).toBe(204);
    expect((await api('GET', `/location_media/${medium.values.id}`, { token: demoToken })).status).toBe(404);
  });

  it('when a submission with media is retried with its Idempotency-Key, then the first answer comes back and no file is claimed twice', async () => {
    const body = sampleSubmission({}, { occurrences: [{ ...occurrence(), media: [{ values: { queued: await queuedPhoto(demoToken) } }] }] });
    const headers = { 'Idempotency-Key': `media-${Date.now()}` };
    const first = await api('POST', '/samples', { token: demoToken, body, headers });
    const retry = await api('POST', '/samples', { token: demoToken, body, headers });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
  });

  it('when an attempt reserved its files and then failed without releasing them, then a retry with the same Idempotency-Key takes them over; another submission is still refused them', async () => {
    const name = await queuedPhoto(demoToken);
    const key = `media-retry-${Date.now()}`;
    // What a failed attempt leaves when the release never arrives (media died after reserving): a live reservation for its claim.
    const failedClaim = claimIdFor({ websiteId: String(DEMO.websiteId), userId: String(DEMO.userId), idempotencyKey: key });
    await dbQuery(`UPDATE media.files SET claim_id = $2, reserved_until = now() + interval '1 hour' WHERE name = $1`, [name, failedClaim]);
    const body = sampleSubmission({}, { occurrences: [{ ...occurrence(), media: [{ values: { queued: name } }] }] });
    const other = await api('POST', '/samples', { token: demoToken, body, headers: { 'Idempotency-Key': `${key}-other` } });
    expect(other.status).toBe(400);
    expect(other.body.message['occurrence_medium:queued']).toMatch(/already been used/);
    const retry = await api('POST', '/samples', { token: demoToken, body, headers: { 'Idempotency-Key': key } });
    expect(retry.status, retry.text).toBe(201);
    await eventually(async () => expect(await queueState(name)).toMatchObject({ state: 'claimed' }));
  });

  it.each(['sample', 'occurrence', 'location'])('when %s media are created, listed, read, changed and deleted on their own, then each method works', async (kind) => {
    const sample = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { occurrences: [occurrence()] }) });
    const location = await api('POST', '/locations', { token: demoToken, body: { values: { name: 'Field', centroid_sref: 'SU1234', centroid_sref_system: 'OSGB' } } });
    const parentId = { sample: sample.body.values.id, occurrence: sample.body.occurrences[0].values.id, location: location.body.values.id }[kind as 'sample' | 'occurrence' | 'location'];
    const resource = `/${kind}_media`;

    const created = await api('POST', resource, { token: demoToken, body: { values: { [`${kind}_id`]: parentId, queued: await queuedPhoto(demoToken), caption: 'one' } } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.values.id;
    expect(created.headers.get('location')).toBe(`${services()}${resource}/${id}`);
    const listed = await api('GET', `${resource}?${kind}_id=${parentId}`, { token: demoToken });
    expect(listed.body.map((row: { values: { id: string } }) => row.values.id)).toEqual([id]);
    const read = await api('GET', `${resource}/${id}`, { token: demoToken });
    expect(read.body.values).toMatchObject({ id, [`${kind}_id`]: parentId, caption: 'one', media_type: 'Image:Local' });
    expect((await api('GET', `${resource}/${id}`, { token: demoToken, headers: { 'If-None-Match': read.headers.get('etag')! } })).status).toBe(304);
    expect((await api('PUT', `${resource}/${id}`, { token: demoToken, body: { values: { caption: 'two' } } })).status).toBe(200);
    expect((await api('GET', `${resource}/${id}`, { token: demoToken })).body.values.caption).toBe('two');
    expect((await api('GET', `${resource}/${id}`, { token: otherToken })).status).toBe(403);
    expect((await api('DELETE', `${resource}/${id}`, { token: demoToken })).status).toBe(204);
    expect((await api('GET', `${resource}/${id}`, { token: demoToken })).status).toBe(404);
    expect((await api('DELETE', `${resource}/${id}`, { token: demoToken })).status).toBe(404);
    const options = await fetch(`${services()}${resource}/${id}`, { method: 'OPTIONS' });
    expect(options.headers.get('allow')).toBe('GET, PUT, DELETE, OPTIONS');
  });
});

describe('media that are links', () => {
  const YOUTUBE = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
  const INAT = 'https://inaturalist-open-data.s3.amazonaws.com/photos/1234/square.jpg';
  const claimsOf = async (path: string) => Number((await dbQuery<{ n: string }>('SELECT count(*)::text AS n FROM records.media_claims WHERE path = $1', [path]))[0].n);

  it('when records carry links to media kept elsewhere, then they are stored and returned as sent, and nothing is claimed from the media service', async () => {
    const photo = await queuedPhoto(demoToken);
    const created = await api('POST', '/samples', {
      token: demoToken,
      body: sampleSubmission({}, {
        media: [{ values: { path: YOUTUBE, media_type: 'Video:Youtube', caption: 'Pond survey' } }, { values: { queued: photo } }],
        occurrences: [{ ...occurrence(), media: [{ values: { path: INAT, media_type: 'image:inaturalist', licence_id: 2 } }] }],
      }),
    });
    expect(created.status, created.text).toBe(201);
    const [link, file] = created.body.media;
    expect((await api('GET', `/sample_media/${link.values.id}`, { token: demoToken })).body.values).toMatchObject({ path: YOUTUBE, media_type: 'Video:Youtube', caption: 'Pond survey' });
    expect((await api('GET', `/sample_media/${file.values.id}`, { token: demoToken })).body.values).toMatchObject({ path: photo, media_type: 'Image:Local' });
    // The type is kept in the warehouse's spelling, whatever case it came in.
    expect((await api('GET', `/occurrence_media/${created.body.occurrences[0].media[0].values.id}`, { token: demoToken })).body.values).toMatchObject({ path: INAT, media_type: 'Image:iNaturalist', licence_id: '2' });
    // The queued file beside the links is claimed; the links are not files of the media service.
    await eventually(async () => expect(await queueState(photo)).toMatchObject({ state: 'claimed' }));
    expect(await claimsOf(YOUTUBE)).toBe(0);
    expect(await claimsOf(INAT)).toBe(0);
    expect(await dbQuery('SELECT name FROM media.files WHERE name = ANY($1::text[])', [[YOUTUBE, INAT]])).toEqual([]);
    // A link has no file here.
    const noFile = await api('GET', `/sample_media/${link.values.id}/file`, { token: demoToken });
    expect(noFile.status).toBe(404);
    expect(noFile.body).toMatchObject({ code: 404 });

    const location = await api('POST', '/locations', {
      token: demoToken,
      body: { values: { name: 'Reedbed', centroid_sref: 'SU1234', centroid_sref_system: 'OSGB' }, media: [{ values: { path: 'https://vimeo.com/76979871', media_type: 'Video:Vimeo' } }] },
    });
    expect(location.status, location.text).toBe(201);
    expect((await api('GET', `/location_media/${location.body.media[0].values.id}`, { token: demoToken })).body.values).toMatchObject({ path: 'https://vimeo.com/76979871', media_type: 'Video:Vimeo' });

    const standalone = await api('POST', '/occurrence-media', {
      token: demoToken,
      body: { values: { occurrence_id: created.body.occurrences[0].values.id, path: 'https://soundcloud.com/user/skylark-song', media_type: 'Audio:SoundCloud' } },
    });
    expect(standalone.status, standalone.text).toBe(201);
    const id = standalone.body.values.id;
    // An update may send the medium's values back; it may not point it elsewhere.
    const same = await api('PUT', `/occurrence_media/${id}`, { token: demoToken, body: { values: { path: 'https://soundcloud.com/user/skylark-song', media_type: 'Audio:SoundCloud', caption: 'Skylark' } } });
    expect(same.status, same.text).toBe(200);
    const moved = await api('PUT', `/occurrence_media/${id}`, { token: demoToken, body: { values: { path: 'https://soundcloud.com/user/other', media_type: 'Video:Vimeo' } } });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toEqual({
      'occurrence_medium:path': 'The file of a medium cannot be replaced; delete the medium and add another.',
      'occurrence_medium:media_type': 'The media type follows the file or link of a medium and cannot be changed.',
    });
    expect((await api('GET', `/occurrence_media/${id}`, { token: demoToken })).body.values).toMatchObject({ path: 'https://soundcloud.com/user/skylark-song', caption: 'Skylark' });
    expect((await api('DELETE', `/occurrence_media/${id}`, { token: demoToken })).status).toBe(204);
  });

  it.each([
    ['plain http', 'http://www.youtube.com/watch?v=x', 'Only https:// links may be given as the path.'],
    ['a script', 'javascript:alert(document.cookie)', 'Only https:// links may be given as the path.'],
    ['another scheme', 'ftp://example.org/frog.jpg', 'Only https:// links may be given as the path.'],
    ['over-long', `https://www.youtube.com/watch?v=${'x'.repeat(2100)}`, 'The link may be at most 2048 characters long.'],
    ['holding a NUL', 'https://www.youtube.com/watch?v=x\u0000y', 'Text may not contain NUL characters.'],
    ['holding a line break', 'https://www.youtube.com/watch?v=x\r\nSet-Cookie: a=b', 'The link may not contain spaces, control or formatting characters.'],
    ['holding a right-to-left override', 'https://evil.example/\u202egpj.exe', 'The link may not contain spaces, control or formatting characters.'],
    ['carrying credentials', 'https://user:password@www.youtube.com/watch?v=x', 'The link may not carry a user name or password.'],
    ['without a host', 'https://', 'The link is not a valid URL.'],
  ])('when a link is %s, then the medium is refused naming its path and nothing is written', async (_what, path, message) => {
    const before = await count('records.samples');
    const answer = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { occurrences: [{ ...occurrence(), media: [{ values: { path, media_type: 'Video:Youtube' } }] }] }) });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toEqual({ 'occurrence_medium:path': message });
    expect(await count('records.samples')).toBe(before);
  });

  it('when a link has no external media type, or comes with a queued file, or a path is not a link, then the medium is refused naming the field', async () => {
    const noType = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { media: [{ values: { path: YOUTUBE } }] }) });
    expect(noType.status).toBe(400);
    expect(noType.body.message).toEqual({ 'sample_medium:media_type': expect.stringMatching(/^A link needs one of the external media types: Video:Youtube, /) });
    const localType = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { media: [{ values: { path: YOUTUBE, media_type: 'Image:Local' } }] }) });
    expect(Object.keys(localType.body.message)).toEqual(['sample_medium:media_type']);
    const photo = await queuedPhoto(demoToken);
    const both = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { media: [{ values: { path: YOUTUBE, media_type: 'Video:Youtube', queued: photo } }] }) });
    expect(both.body.message).toEqual({ 'sample_medium:queued': 'A medium is an uploaded file (queued) or a link (path), not both.' });
    expect(await queueState(photo)).toEqual({ state: 'queued', claim_id: null });
    // Files only come through the queue: a bare name is not a link.
    for (const path of ['26/11/22/0123456789abcdef01234567.jpg', '//evil.example/x.jpg', '/etc/passwd']) {
      const bare = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { media: [{ values: { path, media_type: 'Image:Flickr' } }] }) });
      expect(bare.status).toBe(400);
      expect(Object.keys(bare.body.message)).toEqual(['sample_medium:path']);
    }
  });
});

/** Where the apps find saved files: `<base>/upload/<path>`, beside the service root. */
const base = () => inject('gatewayUrl');

/** A request sent exactly as written: fetch would tidy `..` and backslashes away before sending. */
function rawRequest(method: string, path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(base());
  return new Promise((resolve, reject) => {
    const sent = request({ host: url.hostname, port: url.port, method, path }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString() }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** Uploads a file, saves it as a medium of a new sample, and waits until it is stored; answers its name and medium. */
async function savedFile(content: Buffer, filename: string, type: string) {
  const answer = await upload([['photo', content, filename, type]], demoToken);
  expect(answer.status, answer.text).toBe(200);
  const name: string = answer.body.photo.name;
  const sample = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { media: [{ values: { queued: name } }] }) });
  expect(sample.status, sample.text).toBe(201);
  await eventually(async () => expect(await queueState(name)).toMatchObject({ state: 'claimed' }));
  return { name, tempPath: answer.body.photo.tempPath as string, mediumId: sample.body.media[0].values.id as string };
}

const variantsOf = async (name: string) => (await dbQuery<{ variants: string | null }>('SELECT variants FROM media.files WHERE name = $1', [name]))[0]?.variants;

describe('files at the paths the apps build', () => {
  it('when a photo is saved with a record, then it and its thumb- and med- images are served at /upload without credentials, and the queued copy is gone', async () => {
    const photo = png(800, 600);
    const answer = await upload([['photo', photo, 'pond.png', 'image/png']], demoToken);
    const name: string = answer.body.photo.name;
    // Before the record is saved, the app shows the file from its tempPath.
    expect(answer.body.photo.tempPath).toBe(`${base()}/upload-queue/${name}`);
    const queued = await fetch(answer.body.photo.tempPath);
    expect(queued.status).toBe(200);
    expect(Buffer.from(await queued.arrayBuffer()).equals(photo)).toBe(true);
    expect((await fetch(`${base()}/upload/${name}`)).status).toBe(404);

    const sample = await api('POST', '/samples', { token: demoToken, body: sampleSubmission({}, { media: [{ values: { queued: name } }] }) });
    expect(sample.status, sample.text).toBe(201);
    await eventually(async () => expect(await variantsOf(name)).toBe('made'));

    const original = await fetch(`${base()}/upload/${name}`);
    expect(original.status).toBe(200);
    expect(Object.fromEntries(['content-type', 'content-length', 'cache-control', 'accept-ranges', 'x-content-type-options'].map((header) => [header, original.headers.get(header)]))).toEqual({
      'content-type': 'image/png',
      'content-length': String(photo.length),
      'cache-control': 'public, max-age=3600',
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    });
    expect(original.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(Buffer.from(await original.arrayBuffer()).equals(photo)).toBe(true);
    for (const [variant, size] of [['thumb', { width: 100, height: 75 }], ['med', { width: 500, height: 375 }]] as const) {
      const image = await fetch(`${base()}/upload/${variant}-${name}`);
      expect(image.status, variant).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(image.headers.get('etag')).not.toBe(original.headers.get('etag'));
      expect(pngSize(Buffer.from(await image.arrayBuffer()))).toEqual(size);
    }
    // Saved, the file has left the queue: its tempPath is gone.
    const gone = await fetch(answer.body.photo.tempPath);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ code: 404 });
  });

  it('when a saved file cannot be read as an image, then the record and the file are saved all the same, without thumb- or med- images', async () => {
    const { name } = await savedFile(jpeg(5000), 'broken.jpg', 'image/jpeg');
    await eventually(async () => expect(await variantsOf(name)).toBe('none'));
    expect((await fetch(`${base()}/upload/${name}`)).status).toBe(200);
    for (const variant of ['thumb', 'med']) {
      const missing = await fetch(`${base()}/upload/${variant}-${name}`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ code: 404 });
    }
    const pdf = await savedFile(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n', 'latin1'), 'notes.pdf', 'application/pdf');
    await eventually(async () => expect(await variantsOf(pdf.name)).toBe('none'));
    // Anything but an image or a sound is an attachment, in a sandbox.
    const served = await fetch(`${base()}/upload/${pdf.name}`);
    expect([served.headers.get('content-type'), served.headers.get('content-disposition'), served.headers.get('content-security-policy')]).toEqual(['application/pdf', 'attachment', 'sandbox']);
  });

  it('when a stored image lacks its smaller images (the service stopped before making them, or they predate it), then the sweep makes them', async () => {
    const { name } = await savedFile(png(400, 300), 'late.png', 'image/png');
    await eventually(async () => expect(await variantsOf(name)).toBe('made'));
    const thumb = join(inject('dataDir'), 'media', 'files', `thumb-${name}`);
    rmSync(thumb);
    expect((await fetch(`${base()}/upload/thumb-${name}`)).status).toBe(404);
    // Marked as the service leaves a file it stopped before making its images for; the sweep may come at once.
    await dbQuery("UPDATE media.files SET variants = NULL, claimed_on = now() - interval '2 minutes' WHERE name = $1", [name]);
    await eventually(async () => expect(await variantsOf(name)).toBe('made'));
    const made = await fetch(`${base()}/upload/thumb-${name}`);
    expect(made.status).toBe(200);
    expect(pngSize(Buffer.from(await made.arrayBuffer()))).toEqual({ width: 100, height: 75 });
  });

  it('when a saved file is asked for in part, conditionally or by HEAD, then it answers as HTTP says', async () => {
    const content = jpeg(5000);
    const { name } = await savedFile(content, 'parts.jpg', 'image/jpeg');
    const url = `${base()}/upload/${name}`;
    const etag = (await fetch(url)).headers.get('etag')!;
    const part = async (range: string, headers: Record<string, string> = {}) => {
      const answer = await fetch(url, { headers: { Range: range, ...headers } });
      return { status: answer.status, range: answer.headers.get('content-range'), length: answer.headers.get('content-length'), body: Buffer.from(await answer.arrayBuffer()) };
    };
    expect(await part('bytes=0-99')).toEqual({ status: 206, range: 'bytes 0-99/5000', length: '100', body: content.subarray(0, 100) });
    expect(await part('bytes=4990-')).toEqual({ status: 206, range: 'bytes 4990-4999/5000', length: '10', body: content.subarray(4990) });
    expect(await part('bytes=-10')).toEqual({ status: 206, range: 'bytes 4990-4999/5000', length: '10', body: content.subarray(4990) });
    expect(await part('bytes=4000-9999')).toMatchObject({ status: 206, range: 'bytes 4000-4999/5000', body: content.subarray(4000) });
    // Several ranges, or a malformed one, are ignored: the whole file comes.
    expect(await part('bytes=0-1,5-6')).toMatchObject({ status: 200, range: null, body: content });
    expect(await part('bytes=abc')).toMatchObject({ status: 200, body: content });
    const outside = await part('bytes=5000-');
    expect(outside).toMatchObject({ status: 416, range: 'bytes */5000' });
    expect(JSON.parse(outside.body.toString())).toEqual({ code: 416, status: 'Range Not Satisfiable', message: 'The range asked for lies outside the file.' });
    // A range is served only of the version the client holds part of.
    expect(await part('bytes=0-99', { 'If-Range': etag })).toMatchObject({ status: 206, body: content.subarray(0, 100) });
    expect(await part('bytes=0-99', { 'If-Range': '"another"' })).toMatchObject({ status: 200, body: content });

    const unchanged = await fetch(url, { headers: { 'If-None-Match': `"x", ${etag}` } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect((await unchanged.arrayBuffer()).byteLength).toBe(0);
    expect((await fetch(url, { headers: { 'If-None-Match': '"another"' } })).status).toBe(200);

    const head = await fetch(url, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), head.headers.get('content-type'), head.headers.get('etag')]).toEqual([200, '5000', 'image/jpeg', etag]);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('when a file path is tampered with or names no file, then the answer is a JSON error and nothing else is served', async () => {
    const { name } = await savedFile(jpeg(), 'target.jpg', 'image/jpeg');
    const [folders, file] = [name.slice(0, 8), name.slice(9)];
    for (const path of [
      '/upload/../package.json',
      '/upload/../../../../etc/passwd',
      '/upload/..%2F..%2Fpackage.json',
      '/upload/%2e%2e/%2e%2e/package.json',
      `/upload/${name.replaceAll('/', '%2F')}`,
      `/upload/${folders.replaceAll('/', '\\')}\\${file}`,
      `/upload/${folders}/./${file}`,
      `/upload/${folders}//${file}`,
      `/upload-queue/../upload/${name}`,
    ]) {
      const answer = await rawRequest('GET', path);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body), path).toMatchObject({ code: 400 });
    }
    const nul = await rawRequest('GET', `/upload/${name}%00.jpg`);
    expect([nul.status, JSON.parse(nul.body).code]).toEqual([400, 400]);
    for (const path of [
      '/upload/26/01/01/000000000000000000000000.jpg',
      '/upload/thumb-26/01/01/000000000000000000000000.jpg',
      `/upload/big-${name}`,
      `/upload/thumb-../${name}`,
      `/upload/${name}.txt`,
      `/upload/${name.toUpperCase()}`,
      '/upload/package.json',
      '/upload/',
    ]) {
      const answer = await rawRequest('GET', path);
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(answer.body), path).toMatchObject({ code: 404 });
    }
    const written = await rawRequest('PUT', `/upload/${name}`);
    expect([written.status, written.headers.allow, JSON.parse(written.body).code]).toEqual([405, 'GET, HEAD, OPTIONS', 405]);
  });

  it('when a medium is deleted, then its file and its images are gone from /upload', async () => {
    const { name, mediumId } = await savedFile(png(300, 200), 'gone.png', 'image/png');
    await eventually(async () => expect(await variantsOf(name)).toBe('made'));
    expect((await fetch(`${base()}/upload/thumb-${name}`)).status).toBe(200);
    expect((await api('DELETE', `/sample_media/${mediumId}`, { token: demoToken })).status).toBe(204);
    await eventually(async () => {
      for (const path of [name, `thumb-${name}`, `med-${name}`]) expect((await fetch(`${base()}/upload/${path}`)).status, path).toBe(404);
    }, 5_000);
    // After the grace period (one second here), the file and its images are removed from storage too.
    await eventually(async () => expect(await dbQuery('SELECT 1 FROM media.files WHERE name = $1', [name])).toEqual([]), 15_000);
    for (const path of [name, `thumb-${name}`, `med-${name}`]) expect(existsSync(join(inject('dataDir'), 'media', 'files', path)), path).toBe(false);
  });

  it('when a deployment turns public files off, then /upload and /upload-queue are 404 and tempPath is the credentialed one', async () => {
    const { name } = await savedFile(jpeg(), 'private.jpg', 'image/jpeg');
    expect((await fetch(`${base()}/upload/${name}`)).status).toBe(200);
    const off = { authentication_methods: { jwtUser: { allow_http: true } }, media: { public_files: false } };
    // A gateway with public files off, in front of a media service reading the same stored files.
    const sharedFiles = { MEDIA_DIR: join(inject('dataDir'), 'media') };
    const gateway = await startGateway(off, {}, false, true, sharedFiles);
    try {
      for (const path of [`/upload/${name}`, `/upload/thumb-${name}`]) {
        const answer = await fetch(`${gateway.url}${path}`);
        expect(answer.status).toBe(404);
        expect(await answer.json()).toMatchObject({ code: 404 });
      }
      const form = new FormData();
      form.append('photo', new Blob([jpeg()]), 'a.jpg');
      const uploaded = await fetch(`${gateway.services}/media-queue`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${demoToken}` } });
      const queued = ((await uploaded.json()) as { photo: { name: string; tempPath: string } }).photo;
      expect(queued.tempPath).toBe(`${gateway.services}/media-queue/${queued.name}`);
      expect((await fetch(queued.tempPath)).status).toBe(401);
      expect((await fetch(queued.tempPath, { headers: { Authorization: `Bearer ${demoToken}` } })).status).toBe(200);
      expect((await fetch(`${gateway.url}/upload-queue/${queued.name}`)).status).toBe(404);
    } finally {
      gateway.stop();
    }
    // The media service refuses public downloads by its own configuration, whatever a gateway in front asks.
    const dir = mkdtempSync(join(tmpdir(), 'rex-media-config-'));
    writeFileSync(join(dir, 'rest.json'), JSON.stringify(off));
    const mediaOff = await startGateway({ authentication_methods: { jwtUser: { allow_http: true } } }, {}, false, true, { ...sharedFiles, REX_CONFIG: join(dir, 'rest.json') });
    try {
      const answer = await fetch(`${mediaOff.url}/upload/${name}`);
      expect(answer.status).toBe(404);
      expect(await answer.json()).toMatchObject({ code: 404 });
    } finally {
      mediaOff.stop();
    }
  });
});
