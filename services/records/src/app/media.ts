import { withTransaction, type Pool } from '@rex/db';
import { conflict, forbidden, invalid } from '@rex/grpc';
import type { AuthContext__Output, SavedRecord, Submission__Output } from '@rex/protos';
import { addErrors, readFilters, type Errors } from '../domain/fields.ts';
import { MEDIA, planMedium, type MediaKind } from '../domain/media.ts';
import { parseInteger, text, type Value } from '../domain/values.ts';
import { deleteMedium, findMedium, listMedia, mediumFilters, parentOf, type MediumRow } from '../db/media-repo.ts';
import { insertNewRecords } from '../db/new-records.ts';
import type { IdempotentSubmission } from '../db/idempotency-repo.ts';
import { writeOutbox } from '../db/outbox-repo.ts';
import { updateRow } from '../db/sql.ts';
import type { MediaClaims } from './media-claims.ts';
import type { ReferenceData } from '../db/reference-repo.ts';
import { checkNamedReferences, namingMedia } from './named-references.ts';
import { NOT_A_USER, caller, checkOwner, checkVersion } from './access.ts';
import { stamp } from './answers.ts';
import { createOnce, toTree } from './submissions.ts';

const OMITTED = new Set(['version']);

function rowValues(row: MediumRow): Record<string, Value> {
  const values: Record<string, Value> = {};
  for (const [key, value] of Object.entries(row)) if (!OMITTED.has(key)) values[key] = value;
  return values;
}

/** The media of samples, occurrences or locations as resources of their own (sample_media, ...). */
export function createMedia(db: Pool, reference: ReferenceData, claims: MediaClaims, kind: MediaKind) {
  const { entity, table, parentColumn } = MEDIA[kind];

  function replay(earlier: IdempotentSubmission, hash: string): SavedRecord {
    const saved = earlier.saved as { tree: { media?: string[] }; stamp: string; version: string };
    if (earlier.requestHash !== hash || !saved.tree.media?.length) throw conflict('The Idempotency-Key was already used for a different submission.');
    return { entity, values: stamp(saved.tree.media[0], saved.stamp), version: saved.version, replayed: true };
  }

  async function surveyOf(row: MediumRow): Promise<string | null> {
    return (await parentOf(db, kind, row[parentColumn]!))?.survey_id ?? null;
  }

  return {
    async create(auth: AuthContext__Output | null, submission: Submission__Output | null, idempotencyKey = ''): Promise<SavedRecord> {
      return createOnce(db, auth, submission, idempotencyKey, entity, replay, async (who, tree, errors, hash) => {
        const parentId = parseInteger(text(tree.values, parentColumn) ?? '');
        const plan = planMedium(kind, tree.values, true, errors);
        if (parentId === undefined) errors[`${entity}:${parentColumn}`] = `The ${kind} must be supplied.`;
        await checkNamedReferences(reference, who.websiteId, namingMedia(kind, [plan], (found) => addErrors(errors, found)));
        if (Object.keys(errors).length) throw invalid(errors);
        const parent = await parentOf(db, kind, String(parentId));
        if (!parent || parent.deleted || parent.website_id !== who.websiteId || parent.created_by_id !== who.userId) {
          throw invalid({ [`${entity}:${parentColumn}`]: `Attempt to add media to an invalid ${kind}.` });
        }
        return claims.withClaim(auth, [plan], async ({ claimId, columnsOf }) => {
          const result = await insertNewRecords(
            { pool: db },
            { samples: [], occurrences: [], parent: null, media: [{ kind, parentId: String(parentId), surveyId: parent.survey_id, columns: columnsOf(plan) }], claimId },
            { websiteId: who.websiteId, userId: who.userId, createdById: who.userId },
            idempotencyKey ? { key: idempotencyKey, requestHash: hash } : undefined,
          );
          return { entity, values: stamp(result.media[0], result.stamp), version: result.version };
        }, { websiteId: who.websiteId, userId: who.userId, idempotencyKey });
      });
    },

    async get(auth: AuthContext__Output | null, id: string) {
      const row = await findMedium(db, kind, id);
      checkOwner(row, caller(auth));
      return { values: rowValues(row!), version: row!.version };
    },

    async list(auth: AuthContext__Output | null, filters: Record<string, string>, limit: number, offset: number) {
      const who = caller(auth);
      if (!who.userId) throw forbidden(NOT_A_USER);
      const errors: Errors = {};
      const known = readFilters(entity, filters, mediumFilters(kind), errors);
      if (Object.keys(errors).length) throw invalid(errors);
      const rows = await listMedia(db, kind, { userId: who.userId, websiteId: who.scope === 'SCOPE_USER' ? null : who.websiteId, filters: known, limit, offset });
      return { rows: rows.slice(0, limit).map(rowValues), more: rows.length > limit };
    },

    async update(auth: AuthContext__Output | null, id: string, submission: Submission__Output | null, ifMatch: string[] = []): Promise<SavedRecord> {
      const who = caller(auth);
      const tree = toTree(submission);
      const givenId = text(tree.values, 'id');
      if (givenId !== undefined && givenId !== id) throw invalid({ [`${entity}:id`]: 'Provided id does not match URI' });
      return withTransaction(db, async (client) => {
        const locked = await findMedium(client, kind, id, true);
        checkOwner(locked, who, 'PUT');
        checkVersion(locked!.version, ifMatch);
        const errors: Errors = {};
        if (parentColumn in tree.values && text(tree.values, parentColumn) !== locked![parentColumn]) {
          errors[`${entity}:${parentColumn}`] = 'A medium cannot move to another record.';
        }
        const plan = planMedium(kind, tree.values, false, errors, { path: locked!.path, media_type: locked!.media_type });
        await checkNamedReferences(reference, who.websiteId, namingMedia(kind, [plan], (found) => addErrors(errors, found)));
        if (Object.keys(errors).length) throw invalid(errors);
        const row = await updateRow(client, table, id, { ...plan.columns, updated_by_id: who.userId });
        await writeOutbox(client, [{ entity, entityId: id, operation: 'update', websiteId: who.websiteId, surveyId: await surveyOf(locked!), userId: who.userId }]);
        return { entity, values: stamp(row.id, row.created_on, row.updated_on), version: row.version };
      });
    },

    /** Only the creator deletes a medium, whatever their role (as for the records themselves). */
    async remove(auth: AuthContext__Output | null, id: string, ifMatch: string[] = []): Promise<void> {
      const who = caller(auth);
      await withTransaction(db, async (client) => {
        const locked = await findMedium(client, kind, id, true);
        checkOwner(locked, who, 'DELETE');
        checkVersion(locked!.version, ifMatch);
        await deleteMedium(client, kind, id, who.userId);
        await writeOutbox(client, [{ entity, entityId: id, operation: 'delete', websiteId: who.websiteId, surveyId: await surveyOf(locked!), userId: who.userId }]);
      });
      claims.forgetSoon();
    },
  };
}

export type Media = ReturnType<typeof createMedia>;
