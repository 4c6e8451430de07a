import { isRecordId } from '@rex/protos';
import type { Errors } from './fields.ts';
import { text, type Values } from './values.ts';

/**
 * An occurrence's association as submitted: its target is another occurrence
 * of the same submission (`toKey`, that occurrence's external_key) or an
 * existing one of the caller's (`toId`).
 */
export type AssociationPlan = { toKey?: string; toId?: string; typeId: string; comment: string | null };

const FIELDS = new Set(['external_key', 'to_occurrence_id', 'association_type_id', 'comment']);
const MAX_COMMENT = 10_000;

/** Reads an occurrence's `associations`; a problem is reported on the occurrence's `associations` field. */
export function planAssociations(list: Values[], errors: Errors): AssociationPlan[] {
  const plans: AssociationPlan[] = [];
  const problem = (message: string) => {
    errors['occurrence:associations'] ??= message;
  };
  for (const values of list) {
    const unknown = Object.keys(values).find((name) => !FIELDS.has(name));
    if (unknown !== undefined) {
      problem(`An association has no field ${unknown}: give external_key or to_occurrence_id, association_type_id and optionally comment.`);
      continue;
    }
    const toKey = text(values, 'external_key');
    const toId = text(values, 'to_occurrence_id');
    const typeId = text(values, 'association_type_id');
    const comment = text(values, 'comment') ?? null;
    if ((toKey === undefined) === (toId === undefined)) {
      problem('An association names its target by external_key (an occurrence of this submission) or by to_occurrence_id, one of the two.');
    } else if (toId !== undefined && !isRecordId(toId)) {
      problem('to_occurrence_id must be an occurrence id.');
    } else if (typeId === undefined || !isRecordId(typeId)) {
      problem('association_type_id must be given: the id of the association type term.');
    } else if (comment !== null && comment.length > MAX_COMMENT) {
      problem(`An association's comment may hold at most ${MAX_COMMENT} characters.`);
    } else {
      plans.push({ toKey, toId, typeId, comment });
    }
  }
  return plans;
}
