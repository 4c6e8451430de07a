import { withTransaction, type Pool } from '@rex/db';
import { conflict, invalid } from '@rex/grpc';
import type { AuthContext__Output, SavedRecord, Submission__Output } from '@rex/protos';
import { addErrors, type Errors } from '../domain/fields.ts';
import { taxonIds } from '../domain/occurrences.ts';
import { displayDate, type StoredSample } from '../domain/samples.ts';
import type { ReferenceData } from '../db/reference-repo.ts';
import type { IdempotentSubmission } from '../db/idempotency-repo.ts';
import {
  deleteSampleTree,
  findSample,
  listSamples,
  lockSample,
  SAMPLE_FILTERS,
  type SampleOwnership,
  type SampleRow,
} from '../db/samples-repo.ts';
import { insertNewRecords, type SavedSample } from '../db/new-records.ts';
import { deleteMediaOf } from '../db/media-repo.ts';
import { withUniqueExternalKeys } from './external-keys.ts';
import { checkAssociationTargets } from './associations.ts';
import { MEDIA } from '../domain/media.ts';
import type { MediaClaims } from './media-claims.ts';
import { onceForKey } from './idempotency.ts';
import { checkNamedReferences } from './named-references.ts';
import { caller, checkOwner } from './access.ts';
import { recordsOfKind, type RecordKind } from './record-kinds.ts';
import { freshOccurrencesOf, namingRecordsOfUpdate, sampleChanges } from './sample-changes.ts';
import {
  associatingOccurrences,
  checkLocations,
  keyUsesOf,
  namingRecordsOf,
  occurrenceValuesOf,
  planNewTree,
  plannedLocations,
  savedSample,
  surveyIdsOf,
  toNewSample,
  writerOf,
} from './sample-trees.ts';
import { changeTree, newMediaOf, oneOrMany, toTree, treeMedia, type Tree } from './submissions.ts';

type LockedSample = StoredSample & SampleOwnership & { version: string };

/** Samples as the generic reads, list and removal see them. */
const SAMPLE_KIND: RecordKind<SampleRow, LockedSample> = {
  entity: 'sample',
  hidden: new Set(['owner_website_id']),
  madeFields: (row) => ({ date: displayDate(row.date_start, row.date_end, row.date_type) }),
  find: findSample,
  checkReadable: (row, who) => checkOwner(row && { website_id: row.owner_website_id, created_by_id: row.created_by_id, deleted: row.deleted }, who),
  filters: SAMPLE_FILTERS,
  listsEveryWebsiteForUserScope: true,
  list: listSamples,
  lock: lockSample,
  async remove(client, locked, id, who) {
    const deleted: { entity: string; id: string; survey_id: string }[] = await deleteSampleTree(client, id, who.userId);
    const idsOf = (entity: string) => deleted.filter((record) => record.entity === entity).map((record) => record.id);
    for (const kind of ['sample', 'occurrence'] as const) {
      const media = await deleteMediaOf(client, kind, idsOf(kind), who.userId);
      deleted.push(...media.map((mediumId) => ({ entity: MEDIA[kind].entity, id: mediumId, survey_id: String(locked.survey_id) })));
    }
    return deleted.map((record) => ({ entity: record.entity, entityId: record.id, operation: 'delete', websiteId: who.websiteId, surveyId: record.survey_id, userId: who.userId }));
  },
};

export function createSamples(db: Pool, reference: ReferenceData, claims: MediaClaims) {
  const records = recordsOfKind(db, SAMPLE_KIND);
  const { planStoredSample, saveStoredSample } = sampleChanges(reference);

  async function loadReferences(websiteId: string, trees: Tree[], storedSurveyId?: string) {
    const ids = new Set<string>(storedSurveyId ? [storedSurveyId] : []);
    for (const tree of trees) surveyIdsOf(tree, undefined, ids);
    const [surveys, taxa] = await Promise.all([reference.surveys(websiteId, [...ids]), reference.taxa(taxonIds(trees.flatMap(occurrenceValuesOf)))]);
    return { surveys, taxa };
  }

  /** The first answer to submissions sent again under their idempotency key. */
  function replayAll(earlier: IdempotentSubmission, hash: string): SavedRecord[] {
    const saved = earlier.saved as { tree: { samples: SavedSample[] }; stamp: string; version: string };
    if (earlier.requestHash !== hash || !saved.tree.samples?.length) throw conflict('The Idempotency-Key was already used for a different submission.');
    return saved.tree.samples.map((sample) => ({ ...savedSample(sample, saved.stamp, saved.version), replayed: true }));
  }

  /** Saves new sample trees in one statement (or one transaction), with the files their media claim. */
  async function createTrees(auth: AuthContext__Output | null, submissions: (Submission__Output | null)[], idempotencyKey: string, hash: string, numbered: boolean) {
    const who = caller(auth);
    const author = writerOf(who);
    const replay = (earlier: IdempotentSubmission) => replayAll(earlier, hash);
    return onceForKey(db, { websiteId: who.websiteId, userId: author.createdById }, idempotencyKey, replay, async () => {
      const trees = submissions.map(toTree);
      const errors: Errors = {};
      const keyed = (index: number, found: Errors) => {
        for (const [key, message] of Object.entries(found)) errors[numbered ? `${index}/${key}` : key] = message;
      };
      trees.forEach((tree, index) => {
        if (!Object.keys(tree.values).length) keyed(index, { 'sample:id': 'Values not submitted for sample.' });
      });
      if (Object.keys(errors).length) throw invalid(errors);
      const { surveys, taxa } = await loadReferences(who.websiteId, trees);
      const plans = trees.map((tree, index) => {
        const found: Errors = {};
        const plan = planNewTree(tree, undefined, surveys, taxa, found);
        keyed(index, found);
        return plan;
      });
      for (const [index, plan] of plans.entries()) await checkLocations(db, plannedLocations(plan), who, (found) => keyed(index, found));
      await checkNamedReferences(reference, who.websiteId, plans.flatMap((plan, index) => namingRecordsOf(plan, (found) => keyed(index, found))));
      await checkAssociationTargets(db, { websiteId: who.websiteId, userId: author.createdById }, associatingOccurrences(plans, keyed));
      if (Object.keys(errors).length) throw invalid(errors);
      const uses = trees.flatMap((tree, index) => keyUsesOf(tree, undefined, numbered ? `${index}/` : ''));
      return withUniqueExternalKeys(db, who.websiteId, uses, () =>
        claims.withClaim(auth, trees.flatMap((tree) => treeMedia(tree)), async ({ claimId, columnsOf }) => {
          const result = await insertNewRecords(
            { pool: db },
            { samples: plans.map((plan) => toNewSample(plan, columnsOf)), occurrences: [], parent: null, claimId },
            author,
            idempotencyKey ? { key: idempotencyKey, requestHash: hash } : undefined,
          );
          return result.samples.map((sample) => savedSample(sample, result.stamp, result.version));
        }, { websiteId: who.websiteId, userId: author.createdById, idempotencyKey }),
      );
    });
  }

  return {
    ...oneOrMany('sample', createTrees),

    get: records.get,

    /**
     * The caller's own samples: in the authenticated website for the
     * userWithinWebsite scope (and any other), in every website for the user scope.
     */
    list: records.list,

    /**
     * Changes a sample and, in the same transaction, the children the submission names by id
     * (occurrences, media, child samples: each must be a live child of the record it sits under);
     * children without an id are created.
     */
    async update(auth: AuthContext__Output | null, id: string, submission: Submission__Output | null, ifMatch: string[] = []): Promise<SavedRecord> {
      const who = caller(auth);
      const tree = changeTree('sample', id, submission);
      const stored = await findSample(db, id);
      checkOwner(stored && { website_id: stored.owner_website_id, created_by_id: stored.created_by_id, deleted: stored.deleted === 't' }, who, 'PUT');
      const { surveys, taxa } = await loadReferences(who.websiteId, [tree], String(stored!.survey_id));
      const uses = keyUsesOf(tree, id, '');
      return withUniqueExternalKeys(db, who.websiteId, uses, () =>
        claims.withClaim(auth, newMediaOf(tree), ({ claimId, columnsOf }) =>
          withTransaction(db, async (client) => {
            const locked = await records.lockForChange(client, id, who, 'PUT', ifMatch);
            const errors: Errors = {};
            const plan = await planStoredSample(client, who, tree, locked, surveys, taxa, errors);
            await checkAssociationTargets(client, who, freshOccurrencesOf(plan, (found) => addErrors(errors, found)));
            await checkNamedReferences(reference, who.websiteId, namingRecordsOfUpdate(plan, (found) => addErrors(errors, found)));
            if (Object.keys(errors).length) throw invalid(errors);
            return saveStoredSample(client, who, plan, columnsOf, claimId);
          }),
        ),
      );
    },

    remove: records.remove,
  };
}

export type Samples = ReturnType<typeof createSamples>;
