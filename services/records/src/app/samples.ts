import { withTransaction, type Pool, type PoolClient } from '@rex/db';
import { conflict, invalid } from '@rex/grpc';
import { isRecordId } from '@rex/protos';
import type { AuthContext__Output, SavedRecord, Submission__Output } from '@rex/protos';
import { addErrors, type Errors } from '../domain/fields.ts';
import { planOccurrence, taxonIds, type OccurrenceChanges } from '../domain/occurrences.ts';
import { displayDate, inheritFromParent, planNewSample, planSampleUpdate, type SampleChanges, type StoredSample, type SurveyReference } from '../domain/samples.ts';
import { parseInteger, text, type Values } from '../domain/values.ts';
import type { ReferenceData } from '../db/reference-repo.ts';
import type { IdempotentSubmission } from '../db/idempotency-repo.ts';
import { writeOutbox } from '../db/outbox-repo.ts';
import { deleteSampleTree, findSample, listSamples, lockSample, SAMPLE_FILTERS, type SampleOwnership, type SampleRow } from '../db/samples-repo.ts';
import { updateRow } from '../db/sql.ts';
import { insertNewRecords, type NewOccurrence, type NewSample, type SavedSample, type Writer } from '../db/new-records.ts';
import { deleteMediaOf } from '../db/media-repo.ts';
import { lockOccurrence } from '../db/occurrences-repo.ts';
import { withUniqueExternalKeys, type KeyUse } from './external-keys.ts';
import { checkAssociationTargets, type AssociatingOccurrence } from './associations.ts';
import { planAssociations, type AssociationPlan } from '../domain/associations.ts';
import type { AttributeDefinition } from '../domain/attributes.ts';
import { invisibleLocations } from '../db/locations-repo.ts';
import { MEDIA, type MediumPlan } from '../domain/media.ts';
import type { MediaClaims } from './media-claims.ts';
import { onceForKey } from './idempotency.ts';
import { checkNamedReferences, namingMedia, type NamingRecord } from './named-references.ts';
import { ANONYMOUS_USER_ID, caller, checkOwner, type Caller } from './access.ts';
import { savedMedia, savedOccurrence, stamp } from './answers.ts';
import { recordsOfKind, type RecordKind } from './record-kinds.ts';
import {
  addMedia,
  changeTree,
  checkStoredValues,
  newMediaOf,
  planChildMedia,
  oneOrMany,
  planMedia,
  saveAttributeChanges,
  toTree,
  treeMedia,
  updateStoredMedia,
  updateStoredOccurrence,
  type StoredMediumPlan,
  type Tree,
} from './submissions.ts';

type OccurrencePlan = { changes: OccurrenceChanges; media: MediumPlan[]; associations: AssociationPlan[] };

type SamplePlan = {
  values: Values;
  changes: SampleChanges;
  occurrences: OccurrencePlan[];
  samples: SamplePlan[];
  media: MediumPlan[];
};

/** A medium's columns once its file is claimed (see media-claims.ts). */
type ColumnsOf = (plan: MediumPlan) => Record<string, unknown>;

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

function surveyIdsOf(tree: Tree, inherited: Values | undefined, ids: Set<string>): void {
  const values = inherited ? inheritFromParent(tree.values, inherited) : tree.values;
  const id = parseInteger(text(values, 'survey_id') ?? '');
  if (id !== undefined) ids.add(String(id));
  for (const child of tree.samples) surveyIdsOf(child, values, ids);
}

function occurrenceValuesOf(tree: Tree): Values[] {
  return [...tree.occurrences.map((occurrence) => occurrence.values), ...tree.samples.flatMap(occurrenceValuesOf)];
}

function planOccurrences(tree: Tree, survey: SurveyReference | undefined, taxa: Set<string>, errors: Errors): OccurrencePlan[] {
  const definitions = survey?.attributes.occurrence ?? new Map();
  return tree.occurrences.map((occurrence) => {
    if (text(occurrence.values, 'id') !== undefined) {
      errors['occurrence:id'] = 'Cannot create an occurrence with an id; update it with PUT.';
    }
    return planNewOccurrence(occurrence, definitions, taxa, errors);
  });
}

function planNewOccurrence(occurrence: Tree, definitions: Map<string, AttributeDefinition>, taxa: Set<string>, errors: Errors): OccurrencePlan {
  return {
    changes: planOccurrence(occurrence.values, taxa, definitions, true, errors),
    media: planMedia('occurrence', occurrence.media, errors),
    associations: planAssociations(occurrence.associations.map((association) => association.values), errors),
  };
}

/** The new occurrences of planned sample trees, each reporting its problems where its sample does. */
function associatingOccurrences(plans: SamplePlan[], report: (index: number, errors: Errors) => void): AssociatingOccurrence[] {
  const of = (plan: SamplePlan, index: number): AssociatingOccurrence[] => [
    ...plan.occurrences.map((occurrence) => ({ columns: occurrence.changes.columns, associations: occurrence.associations, report: (errors: Errors) => report(index, errors) })),
    ...plan.samples.flatMap((child) => of(child, index)),
  ];
  return plans.flatMap(of);
}

/** The locations a plan's samples name (children included). */
function plannedLocations(plan: { changes: { columns: Record<string, unknown> }; samples: SamplePlan[] }): string[] {
  const own = plan.changes.columns.location_id;
  return [...(own === undefined || own === null ? [] : [String(own)]), ...plan.samples.flatMap(plannedLocations)];
}

/** A planned new sample tree's samples and media, for the check of the licences, groups and sample methods they name. */
function namingRecordsOf(plan: SamplePlan, report: (errors: Errors) => void): NamingRecord[] {
  return [
    { entity: 'sample', columns: plan.changes.columns, report },
    ...namingMedia('sample', plan.media, report),
    ...plan.occurrences.flatMap((occurrence) => namingMedia('occurrence', occurrence.media, report)),
    ...plan.samples.flatMap((child) => namingRecordsOf(child, report)),
  ];
}

/** A sample may name only a location its caller can see. */
async function checkLocations(db: Pool | PoolClient, ids: string[], who: Caller, report: (found: Errors) => void): Promise<void> {
  for (const id of await invisibleLocations(db, [...new Set(ids)], who)) report({ 'sample:location_id': `The location ${id} is not known.` });
}

function planNewTree(tree: Tree, parent: Values | undefined, surveys: Map<string, SurveyReference>, taxa: Set<string>, errors: Errors): SamplePlan {
  const values = parent ? inheritFromParent(tree.values, parent) : tree.values;
  const changes = planNewSample(values, surveys, errors);
  return {
    values,
    changes,
    media: planMedia('sample', tree.media, errors),
    occurrences: planOccurrences(tree, changes.survey, taxa, errors),
    samples: tree.samples.map((child) => planNewTree(child, values, surveys, taxa, errors)),
  };
}

function toNewSample(plan: SamplePlan, columnsOf: ColumnsOf): NewSample {
  return {
    columns: plan.changes.columns,
    attributes: plan.changes.attributes,
    occurrences: plan.occurrences.map((occurrence) => toNewOccurrence(occurrence, columnsOf)),
    samples: plan.samples.map((child) => toNewSample(child, columnsOf)),
    media: plan.media.map((medium) => ({ columns: columnsOf(medium) })),
  };
}

const toNewOccurrence = ({ changes, media, associations }: OccurrencePlan, columnsOf: ColumnsOf): NewOccurrence => ({
  columns: changes.columns,
  attributes: changes.attributes,
  media: media.map((medium) => ({ columns: columnsOf(medium) })),
  associations,
});

function savedSample(saved: SavedSample, when: string, version = ''): SavedRecord {
  return {
    entity: 'sample',
    values: stamp(saved.id, when),
    occurrences: saved.occurrences.map((id) => savedOccurrence(id, saved.occurrenceMedia, when)),
    samples: saved.samples.map((child) => savedSample(child, when)),
    media: savedMedia('sample', saved.media, when),
    version,
  };
}

/** The external keys a sample tree gives: `recordId` is the stored sample a PUT changes; children with an id are stored ones. */
export function keyUsesOf(tree: Tree, recordId: string | undefined, prefix: string): KeyUse[] {
  return [
    { entity: 'sample', key: text(tree.values, 'external_key'), recordId, errorKey: `${prefix}sample:external_key` },
    ...tree.occurrences.map((occurrence): KeyUse => ({
      entity: 'occurrence',
      key: text(occurrence.values, 'external_key'),
      recordId: recordId === undefined ? undefined : text(occurrence.values, 'id'),
      errorKey: `${prefix}occurrence:external_key`,
    })),
    ...tree.samples.flatMap((child) => keyUsesOf(child, recordId === undefined ? undefined : text(child.values, 'id'), prefix)),
  ];
}

/** A stored occurrence a PUT changes, with its media: those named by id are changed, the others added. */
type StoredOccurrencePlan = { id: string; changes: OccurrenceChanges; storedMedia: StoredMediumPlan[]; newMedia: MediumPlan[] };

/** A stored sample a PUT changes; each child is stored (named by id) or fresh, in the submission's order. */
type StoredSamplePlan = {
  id: string;
  surveyId: string;
  changes: SampleChanges;
  occurrences: { stored?: StoredOccurrencePlan; fresh?: OccurrencePlan }[];
  samples: { stored?: StoredSamplePlan; fresh?: SamplePlan }[];
  storedMedia: StoredMediumPlan[];
  newMedia: MediumPlan[];
};

/** The new occurrences anywhere in a planned update (under stored and new samples alike). */
function freshOccurrencesOf(plan: StoredSamplePlan, report: (errors: Errors) => void): AssociatingOccurrence[] {
  return [
    ...plan.occurrences.flatMap((child) => (child.fresh ? [{ columns: child.fresh.changes.columns, associations: child.fresh.associations, report }] : [])),
    ...plan.samples.flatMap((child) => (child.stored ? freshOccurrencesOf(child.stored, report) : associatingOccurrences([child.fresh!], (_, found) => report(found)))),
  ];
}

/** The same for a planned update: the changed and new samples and media, everywhere in it. */
function namingRecordsOfUpdate(plan: StoredSamplePlan, report: (errors: Errors) => void): NamingRecord[] {
  return [
    { entity: 'sample', columns: plan.changes.columns, report },
    ...namingMedia('sample', [...plan.storedMedia, ...plan.newMedia], report),
    ...plan.occurrences.flatMap((child) =>
      child.fresh ? namingMedia('occurrence', child.fresh.media, report) : namingMedia('occurrence', [...child.stored!.storedMedia, ...child.stored!.newMedia], report),
    ),
    ...plan.samples.flatMap((child) => (child.fresh ? namingRecordsOf(child.fresh, report) : namingRecordsOfUpdate(child.stored!, report))),
  ];
}

export function createSamples(db: Pool, reference: ReferenceData, claims: MediaClaims) {
  const records = recordsOfKind(db, SAMPLE_KIND);
  const writer = (who: Caller): Writer => ({ websiteId: who.websiteId, userId: who.userId || null, createdById: who.userId || ANONYMOUS_USER_ID });

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
    const author = writer(who);
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


  /** Surveys not loaded yet (those of stored child samples). */
  async function withSurveys(websiteId: string, surveys: Map<string, SurveyReference>, ids: string[]): Promise<Map<string, SurveyReference>> {
    const missing = ids.filter((surveyId) => !surveys.has(surveyId));
    if (!missing.length) return surveys;
    return new Map([...surveys, ...(await reference.surveys(websiteId, missing))]);
  }

  /** Checks an update of a stored sample and of every child its submission names, locking them; problems go to `errors`. */
  async function planStoredSample(
    client: PoolClient,
    who: Caller,
    tree: Tree,
    locked: StoredSample & { id: string },
    known: Map<string, SurveyReference>,
    taxa: Set<string>,
    errors: Errors,
  ): Promise<StoredSamplePlan> {
    const id = String(locked.id);
    const surveys = await withSurveys(who.websiteId, known, [String(locked.survey_id)]);
    const changes = planSampleUpdate(tree.values, locked, surveys, errors);
    const survey = changes.survey;
    const surveyId = String(changes.columns.survey_id ?? locked.survey_id);
    const parentValues = { ...tree.values, survey_id: surveyId };
    await checkStoredValues(client, 'sample', id, changes.updatedAttributeValues, errors);
    const occurrences: StoredSamplePlan['occurrences'] = [];
    for (const occurrence of tree.occurrences) {
      const childId = text(occurrence.values, 'id');
      if (childId === undefined) {
        occurrences.push({ fresh: planNewOccurrence(occurrence, survey?.attributes.occurrence ?? new Map(), taxa, errors) });
        continue;
      }
      const stored = isRecordId(childId) ? await lockOccurrence(client, childId) : undefined;
      if (!stored || stored.deleted || stored.sample_id !== id) {
        errors['occurrence:id'] ??= `The occurrence ${childId} is not an occurrence of sample ${id}.`;
        continue;
      }
      if ('sample_id' in occurrence.values && text(occurrence.values, 'sample_id') !== id) errors['occurrence:sample_id'] = 'An occurrence cannot move to another sample.';
      const occurrenceChanges = planOccurrence(occurrence.values, taxa, survey?.attributes.occurrence ?? new Map(), false, errors);
      await checkStoredValues(client, 'occurrence', childId, occurrenceChanges.updatedAttributeValues, errors);
      const media = await planChildMedia(client, 'occurrence', childId, occurrence.media, errors);
      occurrences.push({ stored: { id: childId, changes: occurrenceChanges, ...media } });
    }
    const media = await planChildMedia(client, 'sample', id, tree.media, errors);
    const samples: StoredSamplePlan['samples'] = [];
    for (const child of tree.samples) {
      const childId = text(child.values, 'id');
      if (childId === undefined) {
        samples.push({ fresh: planNewTree(child, parentValues, surveys, taxa, errors) });
        continue;
      }
      const stored = isRecordId(childId) ? await lockSample(client, childId) : undefined;
      if (!stored || stored.deleted || String(stored.parent_id) !== id) {
        errors['sample:id'] ??= `The sample ${childId} is not a child sample of sample ${id}.`;
        continue;
      }
      samples.push({ stored: await planStoredSample(client, who, child, stored, surveys, taxa, errors) });
    }
    const named = [changes.columns.location_id, ...samples.flatMap((child) => (child.fresh ? plannedLocations(child.fresh) : []))]
      .filter((location) => location !== undefined && location !== null)
      .map(String);
    await checkLocations(client, named, who, (found) => addErrors(errors, found));
    return { id, surveyId, changes, occurrences, samples, ...media };
  }

  /** Writes a planned update of a stored sample and its children; the answer lists the children in the submission's order. */
  async function saveStoredSample(client: PoolClient, who: Caller, plan: StoredSamplePlan, columnsOf: ColumnsOf, claimId: string | undefined): Promise<SavedRecord> {
    const { id, surveyId, changes } = plan;
    const row = await updateRow(client, 'records.samples', id, { ...changes.columns, updated_by_id: who.userId });
    await saveAttributeChanges(client, 'sample', id, changes);
    await writeOutbox(client, [{ entity: 'sample', entityId: id, operation: 'update', websiteId: who.websiteId, surveyId, userId: who.userId }]);
    const freshOccurrences = plan.occurrences.flatMap((child) => (child.fresh ? [child.fresh] : []));
    const freshSamples = plan.samples.flatMap((child) => (child.fresh ? [child.fresh] : []));
    const created = await insertNewRecords(
      { transaction: client },
      {
        samples: freshSamples.map((child) => toNewSample(child, columnsOf)),
        occurrences: freshOccurrences.map((occurrence) => toNewOccurrence(occurrence, columnsOf)),
        parent: { sampleId: id, surveyId },
        media: plan.newMedia.map((medium) => ({ kind: 'sample' as const, parentId: id, surveyId, columns: columnsOf(medium) })),
        claimId,
      },
      writer(who),
    );
    const newOccurrenceIds = created.occurrences.values();
    const newSamples = created.samples.values();
    const occurrences: SavedRecord[] = [];
    for (const child of plan.occurrences) {
      if (child.fresh) {
        occurrences.push(savedOccurrence(newOccurrenceIds.next().value as string, created.occurrenceMedia, created.stamp));
        continue;
      }
      const stored = child.stored!;
      const updated = await updateStoredOccurrence(client, who, stored.id, surveyId, stored.changes);
      const media = [...(await updateStoredMedia(client, who, 'occurrence', surveyId, stored.storedMedia)), ...(await addMedia(client, 'occurrence', stored.id, surveyId, stored.newMedia.map(columnsOf), claimId, who))];
      occurrences.push({ entity: 'occurrence', values: stamp(updated.id, updated.created_on, updated.updated_on), media });
    }
    const samples: SavedRecord[] = [];
    for (const child of plan.samples) {
      samples.push(child.fresh ? savedSample(newSamples.next().value as SavedSample, created.stamp) : await saveStoredSample(client, who, child.stored!, columnsOf, claimId));
    }
    const storedMedia = await updateStoredMedia(client, who, 'sample', surveyId, plan.storedMedia);
    return {
      entity: 'sample',
      version: row.version,
      values: stamp(row.id, row.created_on, row.updated_on),
      occurrences,
      samples,
      media: [...storedMedia, ...savedMedia('sample', created.media, created.stamp)],
    };
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
