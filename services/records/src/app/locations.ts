import { withTransaction, type Pool } from '@rex/db';
import { conflict, forbidden, invalid, notFound } from '@rex/grpc';
import type { AuthContext__Output, SavedRecord, Submission__Output } from '@rex/protos';
import { addErrors, type Errors } from '../domain/fields.ts';
import { planLocation } from '../domain/locations.ts';
import { text } from '../domain/values.ts';
import type { ReferenceData } from '../db/reference-repo.ts';
import { LOCATION_FILTERS, deleteLocation, findLocation, invisibleLocations, listLocations, type LocationRow } from '../db/locations-repo.ts';
import { deleteMediaOf } from '../db/media-repo.ts';
import { insertNewRecords } from '../db/new-records.ts';
import { planMedium } from '../domain/media.ts';
import type { MediaClaims } from './media-claims.ts';
import type { IdempotentSubmission } from '../db/idempotency-repo.ts';
import { writeOutbox, type OutboxEvent } from '../db/outbox-repo.ts';
import { withUniqueExternalKeys, type KeyUse } from './external-keys.ts';
import { checkNamedReferences, namingMedia } from './named-references.ts';
import { updateRow } from '../db/sql.ts';
import { NOT_A_USER, caller, type Caller } from './access.ts';
import { savedMedia, stamp } from './answers.ts';
import { recordsOfKind, type RecordKind } from './record-kinds.ts';
import { addMedia, changeTree, checkStoredValues, createOnce, planChildMedia, saveAttributeChanges, updateStoredMedia } from './submissions.ts';

/** Who may read a location: anyone its own and public ones; its creator the others. */
function checkReadable(row: LocationRow | undefined, who: Caller) {
  if (!row || row.deleted === 't') throw notFound();
  if (row.public === 't') return;
  if (row.website_id !== who.websiteId) throw notFound();
  if (!who.userId) throw forbidden(NOT_A_USER);
  if (row.created_by_id !== who.userId) throw forbidden('Resource belongs to a different user account.');
}

/** Locations as the generic reads, list and removal see them. */
const LOCATION_KIND: RecordKind<LocationRow, LocationRow> = {
  entity: 'location',
  hidden: new Set(['website_id']),
  find: findLocation,
  checkReadable,
  filters: LOCATION_FILTERS,
  listsEveryWebsiteForUserScope: false,
  list: listLocations,
  lock: (client, id) => findLocation(client, id, true),
  async remove(client, _locked, id, who) {
    await deleteLocation(client, id, who.userId);
    const media = await deleteMediaOf(client, 'location', [id], who.userId);
    const event = (entity: string, entityId: string): OutboxEvent => ({ entity, entityId, operation: 'delete', websiteId: who.websiteId, surveyId: null, userId: who.userId });
    return [event('location', id), ...media.map((mediumId) => event('location_medium', mediumId))];
  },
};

function replay(earlier: IdempotentSubmission, hash: string): SavedRecord {
  const saved = earlier.saved as { tree: { locations?: string[]; locationMedia?: Record<string, string[]> }; stamp: string; version: string };
  if (earlier.requestHash !== hash || !saved.tree.locations?.length) throw conflict('The Idempotency-Key was already used for a different submission.');
  const id = saved.tree.locations[0];
  return { entity: 'location', values: stamp(id, saved.stamp), media: savedMedia('location', saved.tree.locationMedia?.[id], saved.stamp), version: saved.version, replayed: true };
}

/**
 * Locations: the caller's own to change; the caller's own and public ones to
 * read. Their custom attributes (`locAttr:<id>`) are those attached to the
 * caller's website.
 */
export function createLocations(db: Pool, reference: ReferenceData, claims: MediaClaims) {
  const records = recordsOfKind(db, LOCATION_KIND);

  /** A parent location must be one the caller can read, and not the location itself. */
  async function checkParent(parentId: unknown, who: Caller, ownId: string | undefined, errors: Errors) {
    if (parentId === undefined || parentId === null) return;
    const unreadable = String(parentId) === ownId || (await invisibleLocations(db, [String(parentId)], who)).length > 0;
    if (unreadable) errors['location:parent_id'] = `The parent location ${parentId} is not known.`;
  }

  return {
    async create(auth: AuthContext__Output | null, submission: Submission__Output | null, idempotencyKey = ''): Promise<SavedRecord> {
      return createOnce(db, auth, submission, idempotencyKey, 'location', replay, async (who, tree, errors, hash) => {
        const changes = planLocation(tree.values, undefined, await reference.locationAttributes(who.websiteId), errors);
        await checkParent(changes.columns.parent_id, who, undefined, errors);
        const media = tree.media.map((medium) => planMedium('location', medium.values, true, errors));
        await checkNamedReferences(reference, who.websiteId, namingMedia('location', media, (found) => addErrors(errors, found)));
        if (Object.keys(errors).length) throw invalid(errors);
        const uses: KeyUse[] = [{ entity: 'location', key: text(tree.values, 'external_key'), errorKey: 'location:external_key' }];
        return withUniqueExternalKeys(db, who.websiteId, uses, () => claims.withClaim(auth, media, async ({ claimId, columnsOf }) => {
          const result = await insertNewRecords(
            { pool: db },
            { samples: [], occurrences: [], parent: null, locations: [{ columns: changes.columns, attributes: changes.attributes, media: media.map((medium) => ({ columns: columnsOf(medium) })) }], claimId },
            { websiteId: who.websiteId, userId: who.userId, createdById: who.userId },
            idempotencyKey ? { key: idempotencyKey, requestHash: hash } : undefined,
          );
          const id = result.locations[0];
          return { entity: 'location', values: stamp(id, result.stamp), media: savedMedia('location', result.locationMedia[id], result.stamp), version: result.version };
        }, { websiteId: who.websiteId, userId: who.userId, idempotencyKey }));
      });
    },

    get: records.get,
    list: records.list,

    async update(auth: AuthContext__Output | null, id: string, submission: Submission__Output | null, ifMatch: string[] = []): Promise<SavedRecord> {
      const who = caller(auth);
      const tree = changeTree('location', id, submission);
      const attributes = await reference.locationAttributes(who.websiteId);
      const uses: KeyUse[] = [{ entity: 'location', key: text(tree.values, 'external_key'), recordId: id, errorKey: 'location:external_key' }];
      const mediaErrors: Errors = {};
      const planned = tree.media.filter((medium) => text(medium.values, 'id') === undefined).map((medium) => planMedium('location', medium.values, true, mediaErrors));
      if (Object.keys(mediaErrors).length) throw invalid(mediaErrors);
      return withUniqueExternalKeys(db, who.websiteId, uses, () => claims.withClaim(auth, planned, ({ claimId, columnsOf }) => withTransaction(db, async (client) => {
        const stored = await records.lockForChange(client, id, who, 'PUT', ifMatch);
        const errors: Errors = {};
        const changes = planLocation(tree.values, stored, attributes, errors);
        await checkParent(changes.columns.parent_id, who, id, errors);
        await checkStoredValues(client, 'location', id, changes.updatedAttributeValues, errors);
        const { storedMedia, newMedia } = await planChildMedia(client, 'location', id, tree.media, errors);
        await checkNamedReferences(reference, who.websiteId, namingMedia('location', [...storedMedia, ...newMedia], (found) => addErrors(errors, found)));
        if (Object.keys(errors).length) throw invalid(errors);
        const row = await updateRow(client, 'records.locations', id, { ...changes.columns, updated_by_id: who.userId });
        await saveAttributeChanges(client, 'location', id, changes);
        await writeOutbox(client, [{ entity: 'location', entityId: id, operation: 'update', websiteId: who.websiteId, surveyId: null, userId: who.userId }]);
        const media = [...(await updateStoredMedia(client, who, 'location', null, storedMedia)), ...(await addMedia(client, 'location', id, null, newMedia.map(columnsOf), claimId, who))];
        return { entity: 'location', values: stamp(row.id, row.created_on, row.updated_on), version: row.version, media };
      })));
    },

    remove: records.remove,
  };
}

export type Locations = ReturnType<typeof createLocations>;
