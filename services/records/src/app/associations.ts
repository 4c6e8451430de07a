import type { Pool, PoolClient } from '@rex/db';
import type { AssociationPlan } from '../domain/associations.ts';
import type { Column, Errors } from '../domain/fields.ts';
import { ownOccurrences } from '../db/associations-repo.ts';

/** A new occurrence of a write with the associations it carries, and where to report a bad one. */
export type AssociatingOccurrence = { columns: Column; associations: AssociationPlan[]; report: (errors: Errors) => void };

/**
 * The targets of a write's associations must exist: an external_key names
 * another new occurrence of the same write, a to_occurrence_id a live
 * occurrence of the caller's in the website.
 */
export async function checkAssociationTargets(db: Pool | PoolClient, who: { websiteId: string; userId: string }, occurrences: AssociatingOccurrence[]): Promise<void> {
  const keys = new Set(occurrences.map((occurrence) => occurrence.columns.external_key).filter((key): key is string => typeof key === 'string' && key !== ''));
  const ids = [...new Set(occurrences.flatMap((occurrence) => occurrence.associations.flatMap((association) => (association.toId ? [association.toId] : []))))];
  const own = await ownOccurrences(db, ids, who.websiteId, who.userId);
  for (const occurrence of occurrences) {
    for (const association of occurrence.associations) {
      if (association.toKey !== undefined && association.toKey === occurrence.columns.external_key) {
        occurrence.report({ 'occurrence:associations': 'An occurrence cannot be associated with itself.' });
      } else if (association.toKey !== undefined && !keys.has(association.toKey)) {
        occurrence.report({ 'occurrence:associations': `No occurrence of this submission has the external_key ${association.toKey}.` });
      } else if (association.toId !== undefined && !own.has(association.toId)) {
        occurrence.report({ 'occurrence:associations': `The occurrence ${association.toId} is not one of your occurrences.` });
      }
    }
  }
}
