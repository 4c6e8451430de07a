import type { Pool, PoolClient } from '@rex/db';
import type { SavedRecord } from '@rex/protos';
import type { Errors } from '../domain/fields.ts';
import { planOccurrence, type OccurrenceChanges } from '../domain/occurrences.ts';
import { inheritFromParent, planNewSample, type SampleChanges, type SurveyReference } from '../domain/samples.ts';
import { parseInteger, text, type Values } from '../domain/values.ts';
import { planAssociations, type AssociationPlan } from '../domain/associations.ts';
import type { AttributeDefinition } from '../domain/attributes.ts';
import type { MediumPlan } from '../domain/media.ts';
import { invisibleLocations } from '../db/locations-repo.ts';
import type { NewOccurrence, NewSample, SavedSample, Writer } from '../db/new-records.ts';
import { ANONYMOUS_USER_ID, type Caller } from './access.ts';
import { savedMedia, savedOccurrence, stamp } from './answers.ts';
import type { AssociatingOccurrence } from './associations.ts';
import type { KeyUse } from './external-keys.ts';
import { namingMedia, type NamingRecord } from './named-references.ts';
import { planMedia, type Tree } from './submissions.ts';

// New sample trees: a submission planned (checked, with what it names), and saved.

export type OccurrencePlan = { changes: OccurrenceChanges; media: MediumPlan[]; associations: AssociationPlan[] };

export type SamplePlan = {
  values: Values;
  changes: SampleChanges;
  occurrences: OccurrencePlan[];
  samples: SamplePlan[];
  media: MediumPlan[];
};

/** A medium's columns once its file is claimed (see media-claims.ts). */
export type ColumnsOf = (plan: MediumPlan) => Record<string, unknown>;

/** Who writes a new record: the caller, or for a website's anonymous post the reserved owner. */
export const writerOf = (who: Caller): Writer => ({ websiteId: who.websiteId, userId: who.userId || null, createdById: who.userId || ANONYMOUS_USER_ID });

export function surveyIdsOf(tree: Tree, inherited: Values | undefined, ids: Set<string>): void {
  const values = inherited ? inheritFromParent(tree.values, inherited) : tree.values;
  const id = parseInteger(text(values, 'survey_id') ?? '');
  if (id !== undefined) ids.add(String(id));
  for (const child of tree.samples) surveyIdsOf(child, values, ids);
}

export function occurrenceValuesOf(tree: Tree): Values[] {
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

export function planNewOccurrence(occurrence: Tree, definitions: Map<string, AttributeDefinition>, taxa: Set<string>, errors: Errors): OccurrencePlan {
  return {
    changes: planOccurrence(occurrence.values, taxa, definitions, true, errors),
    media: planMedia('occurrence', occurrence.media, errors),
    associations: planAssociations(occurrence.associations.map((association) => association.values), errors),
  };
}

/** The new occurrences of planned sample trees, each reporting its problems where its sample does. */
export function associatingOccurrences(plans: SamplePlan[], report: (index: number, errors: Errors) => void): AssociatingOccurrence[] {
  const of = (plan: SamplePlan, index: number): AssociatingOccurrence[] => [
    ...plan.occurrences.map((occurrence) => ({ columns: occurrence.changes.columns, associations: occurrence.associations, report: (errors: Errors) => report(index, errors) })),
    ...plan.samples.flatMap((child) => of(child, index)),
  ];
  return plans.flatMap(of);
}

/** The locations a plan's samples name (children included). */
export function plannedLocations(plan: { changes: { columns: Record<string, unknown> }; samples: SamplePlan[] }): string[] {
  const own = plan.changes.columns.location_id;
  return [...(own === undefined || own === null ? [] : [String(own)]), ...plan.samples.flatMap(plannedLocations)];
}

/** A planned new sample tree's samples and media, for the check of the licences, groups and sample methods they name. */
export function namingRecordsOf(plan: SamplePlan, report: (errors: Errors) => void): NamingRecord[] {
  return [
    { entity: 'sample', columns: plan.changes.columns, report },
    ...namingMedia('sample', plan.media, report),
    ...plan.occurrences.flatMap((occurrence) => namingMedia('occurrence', occurrence.media, report)),
    ...plan.samples.flatMap((child) => namingRecordsOf(child, report)),
  ];
}

/** A sample may name only a location its caller can see. */
export async function checkLocations(db: Pool | PoolClient, ids: string[], who: Caller, report: (found: Errors) => void): Promise<void> {
  for (const id of await invisibleLocations(db, [...new Set(ids)], who)) report({ 'sample:location_id': `The location ${id} is not known.` });
}

export function planNewTree(tree: Tree, parent: Values | undefined, surveys: Map<string, SurveyReference>, taxa: Set<string>, errors: Errors): SamplePlan {
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

export function toNewSample(plan: SamplePlan, columnsOf: ColumnsOf): NewSample {
  return {
    columns: plan.changes.columns,
    attributes: plan.changes.attributes,
    occurrences: plan.occurrences.map((occurrence) => toNewOccurrence(occurrence, columnsOf)),
    samples: plan.samples.map((child) => toNewSample(child, columnsOf)),
    media: plan.media.map((medium) => ({ columns: columnsOf(medium) })),
  };
}

export const toNewOccurrence = ({ changes, media, associations }: OccurrencePlan, columnsOf: ColumnsOf): NewOccurrence => ({
  columns: changes.columns,
  attributes: changes.attributes,
  media: media.map((medium) => ({ columns: columnsOf(medium) })),
  associations,
});

export function savedSample(saved: SavedSample, when: string, version = ''): SavedRecord {
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

