import { withTransaction, type Pool } from '@rex/db';
import { DomainError, conflict, invalid } from '@rex/grpc';
import type { AuthContext__Output, SavedRecord, Submission__Output } from '@rex/protos';
import { planOccurrence } from '../domain/occurrences.ts';
import { addErrors, type Errors } from '../domain/fields.ts';
import { parseInteger, text } from '../domain/values.ts';
import { insertNewRecords } from '../db/new-records.ts';
import { deleteMediaOf } from '../db/media-repo.ts';
import { planMedium } from '../domain/media.ts';
import type { MediaClaims } from './media-claims.ts';
import {
  OCCURRENCE_FILTERS,
  deleteOccurrence,
  findOccurrence,
  listOccurrences,
  lockOccurrence,
  sampleForOccurrence,
  type LockedOccurrence,
  type OccurrenceRow,
} from '../db/occurrences-repo.ts';
import type { ReferenceData } from '../db/reference-repo.ts';
import type { IdempotentSubmission } from '../db/idempotency-repo.ts';
import type { OutboxEvent } from '../db/outbox-repo.ts';
import { onceForKey } from './idempotency.ts';
import { checkAssociationTargets } from './associations.ts';
import { planAssociations } from '../domain/associations.ts';
import { associationsOf } from '../db/associations-repo.ts';
import { withUniqueExternalKeys, type KeyUse } from './external-keys.ts';
import { checkNamedReferences, namingMedia } from './named-references.ts';
import { caller, creator, type Caller } from './access.ts';
import { savedOccurrence, stamp } from './answers.ts';
import { recordsOfKind, type RecordKind } from './record-kinds.ts';
import { addMedia, changeTree, checkStoredValues, oneOrMany, planChildMedia, updateStoredMedia, updateStoredOccurrence, toTree, type Tree } from './submissions.ts';

const INVALID_SAMPLE = 'Attempt to create occurrence in invalid sample.';

/** Occurrences as the generic reads, list and removal see them. */
const OCCURRENCE_KIND: RecordKind<OccurrenceRow, LockedOccurrence> = {
  entity: 'occurrence',
  hidden: new Set(),
  find: findOccurrence,
  verboseExtras: async (db, id) => ({ associations: await associationsOf(db, id) }),
  filters: OCCURRENCE_FILTERS,
  listsEveryWebsiteForUserScope: true,
  list: listOccurrences,
  lock: lockOccurrence,
  async remove(client, locked, id, who) {
    await deleteOccurrence(client, id, who.userId);
    const media = await deleteMediaOf(client, 'occurrence', [id], who.userId);
    const event = (entity: string, entityId: string): OutboxEvent => ({ entity, entityId, operation: 'delete', websiteId: who.websiteId, surveyId: locked.survey_id, userId: who.userId });
    return [event('occurrence', id), ...media.map((mediumId) => event('occurrence_medium', mediumId))];
  },
};

function replayAll(earlier: IdempotentSubmission, hash: string): SavedRecord[] {
  const saved = earlier.saved as { tree: { occurrences?: string[]; samples?: unknown[]; occurrenceMedia?: Record<string, string[]> }; stamp: string; version: string };
  if (earlier.requestHash !== hash || !saved.tree.occurrences?.length || saved.tree.samples?.length) throw conflict('The Idempotency-Key was already used for a different submission.');
  return saved.tree.occurrences.map((id) => ({ ...savedOccurrence(id, saved.tree.occurrenceMedia, saved.stamp), version: saved.version, replayed: true }));
}

/** Occurrences on their own: created in one of the caller's samples, read and changed by their creator. */
export function createOccurrences(db: Pool, reference: ReferenceData, claims: MediaClaims) {
  const records = recordsOfKind(db, OCCURRENCE_KIND);

  async function attributesOf(websiteId: string, surveyId: string) {
    const surveys = await reference.surveys(websiteId, [surveyId]);
    return surveys.get(surveyId)?.attributes.occurrence ?? new Map();
  }

  /** Checks a new occurrence and the caller's sample it goes into; problems go to `errors`. */
  async function planStandalone(who: Caller, tree: Tree, errors: Errors) {
    const sampleId = parseInteger(text(tree.values, 'sample_id') ?? '');
    if (sampleId === undefined) throw invalid({ 'occurrence:sample_id': 'The sample must be supplied.' });
    const sample = await sampleForOccurrence(db, String(sampleId));
    if (!sample || sample.deleted || sample.website_id !== who.websiteId || sample.created_by_id !== who.userId) {
      throw invalid({ 'occurrence:sample_id': INVALID_SAMPLE });
    }
    const taxa = await reference.taxa([text(tree.values, 'taxa_taxon_list_id') ?? ''].filter(Boolean).map((id) => String(parseInteger(id) ?? id)));
    const changes = planOccurrence(tree.values, taxa, await attributesOf(who.websiteId, sample.survey_id), true, errors);
    const media = tree.media.map((medium) => planMedium('occurrence', medium.values, true, errors));
    const associations = planAssociations(tree.associations.map((association) => association.values), errors);
    return { sample, changes, media, associations };
  }

  /** New occurrences in the caller's samples, in one statement, with the files their media claim. */
  async function createOccurrences(auth: AuthContext__Output | null, submissions: (Submission__Output | null)[], idempotencyKey: string, hash: string, numbered: boolean) {
    const who = creator(auth);
    const replay = (earlier: IdempotentSubmission) => replayAll(earlier, hash);
    return onceForKey(db, { websiteId: who.websiteId, userId: who.userId }, idempotencyKey, replay, async () => {
      const errors: Errors = {};
      const plans: Awaited<ReturnType<typeof planStandalone>>[] = [];
      const report = (index: number, found: Errors) => {
        for (const [field, message] of Object.entries(found)) errors[numbered ? `${index}/${field}` : field] ??= message;
      };
      for (const [index, submission] of submissions.entries()) {
        const found: Errors = {};
        try {
          plans.push(await planStandalone(who, toTree(submission), found));
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          for (const violation of error.violations) found[violation.field] = violation.description;
        }
        report(index, found);
      }
      if (Object.keys(errors).length) throw invalid(errors);
      await checkAssociationTargets(
        db,
        who,
        plans.map((plan, index) => ({ columns: plan.changes.columns, associations: plan.associations, report: (found: Errors) => report(index, found) })),
      );
      await checkNamedReferences(reference, who.websiteId, plans.flatMap((plan, index) => namingMedia('occurrence', plan.media, (found) => report(index, found))));
      if (Object.keys(errors).length) throw invalid(errors);
      const uses = submissions.map((submission, index): KeyUse => ({
        entity: 'occurrence',
        key: text(toTree(submission).values, 'external_key'),
        errorKey: `${numbered ? `${index}/` : ''}occurrence:external_key`,
      }));
      return withUniqueExternalKeys(db, who.websiteId, uses, () => claims.withClaim(auth, plans.flatMap((plan) => plan.media), async ({ claimId, columnsOf }) => {
        const result = await insertNewRecords(
          { pool: db },
          {
            samples: [],
            occurrences: plans.map(({ sample, changes, media, associations }) => ({
              columns: changes.columns,
              attributes: changes.attributes,
              associations,
              media: media.map((medium) => ({ columns: columnsOf(medium) })),
              sample: { sampleId: sample.id, surveyId: sample.survey_id },
            })),
            parent: null,
            claimId,
          },
          { websiteId: who.websiteId, userId: who.userId, createdById: who.userId },
          idempotencyKey ? { key: idempotencyKey, requestHash: hash } : undefined,
        );
        return result.occurrences.map((id) => ({ ...savedOccurrence(id, result.occurrenceMedia, result.stamp), version: result.version }));
      }, { websiteId: who.websiteId, userId: who.userId, idempotencyKey }));
    });
  }

  return {
    ...oneOrMany('occurrence', createOccurrences),

    get: records.get,
    list: records.list,

    async update(auth: AuthContext__Output | null, id: string, submission: Submission__Output | null, ifMatch: string[] = []): Promise<SavedRecord> {
      const who = caller(auth);
      const tree = changeTree('occurrence', id, submission);
      const uses: KeyUse[] = [{ entity: 'occurrence', key: text(tree.values, 'external_key'), recordId: id, errorKey: 'occurrence:external_key' }];
      const claimed = tree.media.filter((medium) => text(medium.values, 'id') === undefined);
      const mediaErrors: Errors = {};
      const planned = claimed.map((medium) => planMedium('occurrence', medium.values, true, mediaErrors));
      if (Object.keys(mediaErrors).length) throw invalid(mediaErrors);
      return withUniqueExternalKeys(db, who.websiteId, uses, () => claims.withClaim(auth, planned, ({ claimId, columnsOf }) => withTransaction(db, async (client) => {
        const locked = await records.lockForChange(client, id, who, 'PUT', ifMatch);
        if ('sample_id' in tree.values && text(tree.values, 'sample_id') !== locked.sample_id) {
          throw invalid({ 'occurrence:sample_id': 'An occurrence cannot move to another sample.' });
        }
        const taxonId = text(tree.values, 'taxa_taxon_list_id');
        const taxa = taxonId ? await reference.taxa([String(parseInteger(taxonId) ?? taxonId)]) : new Set<string>();
        const errors: Errors = {};
        const changes = planOccurrence(tree.values, taxa, await attributesOf(who.websiteId, locked.survey_id), false, errors);
        await checkStoredValues(client, 'occurrence', id, changes.updatedAttributeValues, errors);
        const { storedMedia, newMedia } = await planChildMedia(client, 'occurrence', id, tree.media, errors);
        await checkNamedReferences(reference, who.websiteId, namingMedia('occurrence', [...storedMedia, ...newMedia], (found) => addErrors(errors, found)));
        if (Object.keys(errors).length) throw invalid(errors);
        const row = await updateStoredOccurrence(client, who, id, locked.survey_id, changes);
        const media = [
          ...(await updateStoredMedia(client, who, 'occurrence', locked.survey_id, storedMedia)),
          ...(await addMedia(client, 'occurrence', id, locked.survey_id, newMedia.map(columnsOf), claimId, who)),
        ];
        return { entity: 'occurrence', values: stamp(row.id, row.created_on, row.updated_on), version: row.version, media };
      })));
    },

    remove: records.remove,
  };
}

export type Occurrences = ReturnType<typeof createOccurrences>;
