import type { PoolClient } from '@rex/db';
import { isRecordId, type SavedRecord } from '@rex/protos';
import { addErrors, type Errors } from '../domain/fields.ts';
import { planOccurrence, type OccurrenceChanges } from '../domain/occurrences.ts';
import { planSampleUpdate, type SampleChanges, type StoredSample, type SurveyReference } from '../domain/samples.ts';
import { text } from '../domain/values.ts';
import type { MediumPlan } from '../domain/media.ts';
import type { ReferenceData } from '../db/reference-repo.ts';
import { insertNewRecords, type SavedSample } from '../db/new-records.ts';
import { lockOccurrence } from '../db/occurrences-repo.ts';
import { writeOutbox } from '../db/outbox-repo.ts';
import { lockSample } from '../db/samples-repo.ts';
import { updateRow } from '../db/sql.ts';
import type { Caller } from './access.ts';
import { savedMedia, savedOccurrence, stamp } from './answers.ts';
import type { AssociatingOccurrence } from './associations.ts';
import type { NamingRecord } from './named-references.ts';
import {
  associatingOccurrences,
  checkLocations,
  namingRecordsOf,
  planNewOccurrence,
  planNewTree,
  plannedLocations,
  savedSample,
  toNewOccurrence,
  toNewSample,
  writerOf,
  type ColumnsOf,
  type OccurrencePlan,
  type SamplePlan,
} from './sample-trees.ts';
import {
  addMedia,
  checkStoredValues,
  planChildMedia,
  saveAttributeChanges,
  updateStoredMedia,
  updateStoredOccurrence,
  type StoredMediumPlan,
  type Tree,
} from './submissions.ts';
import { namingMedia } from './named-references.ts';

// Changes of stored samples (PUT): the sample and every child its submission names by id, planned
// under lock and written; children without an id are new.

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
export function freshOccurrencesOf(plan: StoredSamplePlan, report: (errors: Errors) => void): AssociatingOccurrence[] {
  return [
    ...plan.occurrences.flatMap((child) => (child.fresh ? [{ columns: child.fresh.changes.columns, associations: child.fresh.associations, report }] : [])),
    ...plan.samples.flatMap((child) => (child.stored ? freshOccurrencesOf(child.stored, report) : associatingOccurrences([child.fresh!], (_, found) => report(found)))),
  ];
}

/** The same for a planned update: the changed and new samples and media, everywhere in it. */
export function namingRecordsOfUpdate(plan: StoredSamplePlan, report: (errors: Errors) => void): NamingRecord[] {
  return [
    { entity: 'sample', columns: plan.changes.columns, report },
    ...namingMedia('sample', [...plan.storedMedia, ...plan.newMedia], report),
    ...plan.occurrences.flatMap((child) =>
      child.fresh ? namingMedia('occurrence', child.fresh.media, report) : namingMedia('occurrence', [...child.stored!.storedMedia, ...child.stored!.newMedia], report),
    ),
    ...plan.samples.flatMap((child) => (child.fresh ? namingRecordsOf(child.fresh, report) : namingRecordsOfUpdate(child.stored!, report))),
  ];
}

export function sampleChanges(reference: ReferenceData) {
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
      writerOf(who),
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

  return { planStoredSample, saveStoredSample };
}
