import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from '@rex/db';
import { invalid } from '@rex/grpc';
import { isRecordId, fromJsonValues } from '@rex/protos';
import type { AuthContext__Output, SavedRecord, Submission__Output } from '@rex/protos';
import type { AttributeValue, AttributeValueUpdate, RecordEntity } from '../domain/attributes.ts';
import { refuseIdOnCreate, type Column, type Errors } from '../domain/fields.ts';
import { MEDIA, planMedium, type MediaKind, type MediumPlan } from '../domain/media.ts';
import type { OccurrenceChanges } from '../domain/occurrences.ts';
import { text, type Values } from '../domain/values.ts';
import { liveAttributeValues, saveAttributeValues, updateAttributeValues } from '../db/attribute-values-repo.ts';
import { findMedium } from '../db/media-repo.ts';
import { insertNewRecords } from '../db/new-records.ts';
import type { IdempotentSubmission } from '../db/idempotency-repo.ts';
import { writeOutbox } from '../db/outbox-repo.ts';
import { updateRow } from '../db/sql.ts';
import { creator, type Caller } from './access.ts';
import { savedMedia, stamp } from './answers.ts';
import { onceForKey } from './idempotency.ts';

// Submissions as the domain reads them (trees of values and children), and the
// writes every kind of record shares: attribute changes, media of a record.

/** A submission as the domain reads it: values and children. */
export type Tree = { values: Values; samples: Tree[]; occurrences: Tree[]; media: Tree[]; associations: Tree[] };

export function toTree(submission: Submission__Output | null): Tree {
  return {
    values: fromJsonValues(submission?.values),
    samples: (submission?.samples ?? []).map(toTree),
    occurrences: (submission?.occurrences ?? []).map(toTree),
    media: (submission?.media ?? []).map(toTree),
    associations: (submission?.associations ?? []).map(toTree),
  };
}

/** The tree of a change (PUT) of the record `id`: an id among its values must be that one. */
export function changeTree(entity: string, id: string, submission: Submission__Output | null): Tree {
  const tree = toTree(submission);
  const givenId = text(tree.values, 'id');
  if (givenId !== undefined && givenId !== id) throw invalid({ [`${entity}:id`]: 'Provided id does not match URI' });
  return tree;
}

/**
 * POST of one record and of a list of them (`.../list`), over `createAll`, which
 * saves every submission or none; a list must hold one at least.
 */
export function oneOrMany(entity: string, createAll: (auth: AuthContext__Output | null, submissions: (Submission__Output | null)[], idempotencyKey: string, hash: string, numbered: boolean) => Promise<SavedRecord[]>) {
  return {
    async create(auth: AuthContext__Output | null, submission: Submission__Output | null, idempotencyKey = ''): Promise<SavedRecord> {
      return (await createAll(auth, [submission], idempotencyKey, requestHash(idempotencyKey, submission), false))[0];
    },

    /** Errors are keyed `<index>/<entity>:<field>`. */
    async createMany(auth: AuthContext__Output | null, submissions: Submission__Output[], idempotencyKey = ''): Promise<SavedRecord[]> {
      if (!submissions.length) throw invalid({ [`${entity}:values`]: `The list holds no ${entity}s.` });
      return createAll(auth, submissions, idempotencyKey, requestHash(idempotencyKey, submissions), true);
    },
  };
}

/** New media of an existing record, inside the caller's transaction, as children of the answer. */
export async function addMedia(
  client: PoolClient,
  kind: MediaKind,
  parentId: string,
  surveyId: string | null,
  columns: Record<string, unknown>[],
  claimId: string | undefined,
  who: Caller,
): Promise<SavedRecord[]> {
  if (!columns.length) return [];
  const result = await insertNewRecords(
    { transaction: client },
    { samples: [], occurrences: [], parent: null, media: columns.map((medium) => ({ kind, parentId, surveyId, columns: medium })), claimId },
    { websiteId: who.websiteId, userId: who.userId, createdById: who.userId },
  );
  return savedMedia(kind, result.media, result.stamp);
}

/** `smpAttr:<id>:<valueId>` (occAttr, locAttr) must name a live value of attribute <id> on this very record. */
export async function checkStoredValues(
  client: PoolClient,
  entity: RecordEntity,
  ownerId: string,
  updates: AttributeValueUpdate[],
  errors: Errors,
): Promise<void> {
  const ids = updates.map((update) => update.valueId).filter((id) => isRecordId(id)); // others are no row id
  const live = await liveAttributeValues(client, entity, ownerId, ids);
  for (const update of updates) {
    const key = `${entity}:${update.key}`;
    if (live.get(update.valueId) !== update.attributeId && !(key in errors)) {
      errors[key] = `Value ${update.valueId} is not a current value of attribute ${update.attributeId} on this ${entity}.`;
    }
  }
}

/** Writes the attribute changes of an update: replaced attributes, changed stored values, new values. */
export async function saveAttributeChanges(
  client: PoolClient,
  entity: RecordEntity,
  ownerId: string,
  changes: { attributes: AttributeValue[]; replacedAttributes: Set<string>; updatedAttributeValues: AttributeValueUpdate[] },
): Promise<void> {
  await updateAttributeValues(client, entity, ownerId, changes.updatedAttributeValues);
  await saveAttributeValues(client, entity, ownerId, changes.attributes, changes.replacedAttributes);
}

/** What a retry under the same Idempotency-Key must repeat: a digest of the submission; none is needed (nor made) without a key. */
export const requestHash = (idempotencyKey: string, submission: Submission__Output | Submission__Output[] | null): string =>
  idempotencyKey ? createHash('sha256').update(JSON.stringify(submission ?? {})).digest('hex') : '';

/** A stored child a PUT changes: a medium named by id. */
export type StoredMediumPlan = { id: string; columns: Column };

/** The new media of a PUT's tree (those without an id), everywhere in it: what the write claims. */
export function newMediaOf(tree: Tree): MediumPlan[] {
  const fresh = (media: Tree[]) => media.filter((medium) => text(medium.values, 'id') === undefined);
  return [
    ...planMedia('sample', fresh(tree.media), {}),
    ...tree.occurrences.flatMap((occurrence) => planMedia('occurrence', fresh(occurrence.media), {})),
    ...tree.samples.flatMap((child) => (text(child.values, 'id') === undefined ? treeMedia(child) : newMediaOf(child))),
  ];
}

/** A record's media in a PUT: those named by id must be its own (locked, then changed); the others are new. */
export async function planChildMedia(client: PoolClient, kind: MediaKind, parentId: string, media: Tree[], errors: Errors): Promise<{ storedMedia: StoredMediumPlan[]; newMedia: MediumPlan[] }> {
  const { entity, parentColumn } = MEDIA[kind];
  const storedMedia: StoredMediumPlan[] = [];
  const newMedia: MediumPlan[] = [];
  for (const medium of media) {
    const id = text(medium.values, 'id');
    if (id === undefined) {
      newMedia.push(planMedium(kind, medium.values, true, errors));
      continue;
    }
    const stored = isRecordId(id) ? await findMedium(client, kind, id, true) : undefined;
    if (!stored || stored.deleted === 't' || String(stored[parentColumn]) !== parentId) {
      errors[`${entity}:id`] ??= `The medium ${id} is not a medium of ${kind} ${parentId}.`;
      continue;
    }
    if (parentColumn in medium.values && text(medium.values, parentColumn) !== parentId) errors[`${entity}:${parentColumn}`] = 'A medium cannot move to another record.';
    const { id: _ignored, ...values } = medium.values;
    storedMedia.push({ id, columns: planMedium(kind, values, false, errors, { path: stored.path, media_type: stored.media_type }).columns });
  }
  return { storedMedia, newMedia };
}

/** Writes the change of a stored occurrence (its row, attribute values and outbox event). */
export async function updateStoredOccurrence(client: PoolClient, who: Caller, id: string, surveyId: string, changes: OccurrenceChanges) {
  const row = await updateRow(client, 'records.occurrences', id, { ...changes.columns, updated_by_id: who.userId });
  await saveAttributeChanges(client, 'occurrence', id, changes);
  await writeOutbox(client, [{ entity: 'occurrence', entityId: id, operation: 'update', websiteId: who.websiteId, surveyId, userId: who.userId }]);
  return row;
}

/** Writes the changes of stored media, as children of the answer. */
export async function updateStoredMedia(client: PoolClient, who: Caller, kind: MediaKind, surveyId: string | null, media: StoredMediumPlan[]): Promise<SavedRecord[]> {
  const saved: SavedRecord[] = [];
  for (const medium of media) {
    const row = await updateRow(client, MEDIA[kind].table, medium.id, { ...medium.columns, updated_by_id: who.userId });
    await writeOutbox(client, [{ entity: MEDIA[kind].entity, entityId: medium.id, operation: 'update', websiteId: who.websiteId, surveyId, userId: who.userId }]);
    saved.push({ entity: MEDIA[kind].entity, values: stamp(row.id, row.created_on, row.updated_on) });
  }
  return saved;
}

export const planMedia = (kind: MediaKind, media: Tree[], errors: Errors): MediumPlan[] => media.map((medium) => planMedium(kind, medium.values, true, errors));

/** Every new medium of a submission tree: the sample's, its occurrences' and its child samples'. */
export function treeMedia(tree: Tree, errors: Errors = {}): MediumPlan[] {
  return [
    ...planMedia('sample', tree.media, errors),
    ...tree.occurrences.flatMap((occurrence) => planMedia('occurrence', occurrence.media, errors)),
    ...tree.samples.flatMap((child) => treeMedia(child, errors)),
  ];
}

/**
 * The create of one record of `entity` from a submission, by a user (400 otherwise), done once per
 * Idempotency-Key: a retry answers through `replay`. `write` gets the caller, the submission as a
 * tree, the errors found so far (an id given is one) and the submission's hash (for the key's row).
 */
export function createOnce(
  db: Pool,
  auth: AuthContext__Output | null,
  submission: Submission__Output | null,
  idempotencyKey: string,
  entity: string,
  replay: (earlier: IdempotentSubmission, hash: string) => SavedRecord,
  write: (who: Caller, tree: Tree, errors: Errors, hash: string) => Promise<SavedRecord>,
): Promise<SavedRecord> {
  const who = creator(auth);
  const hash = requestHash(idempotencyKey, submission);
  return onceForKey<SavedRecord>(db, { websiteId: who.websiteId, userId: who.userId }, idempotencyKey, (earlier) => replay(earlier, hash), () => {
    const tree = toTree(submission);
    const errors: Errors = {};
    refuseIdOnCreate(tree.values, entity, errors);
    return write(who, tree, errors, hash);
  });
}
