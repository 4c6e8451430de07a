import type { FeedChange } from '../routes/changes.ts';
import type { Filter } from './subscriptions-repo.ts';

const ENTITIES = ['sample', 'occurrence', 'location'] as const;
const OPERATIONS = ['created', 'updated', 'deleted'] as const;

/** What a subscription may ask for: `<entity>.<operation>`, e.g. `occurrence.updated`. */
export const EVENT_TYPES: readonly string[] = ENTITIES.flatMap((entity) => OPERATIONS.map((operation) => `${entity}.${operation}`));

export const eventType = (change: FeedChange): string => `${change.entity}.${change.operation}`;

/** The feed entities a subscription's event types need, so the feed skips the others. */
export const entitiesOf = (eventTypes: string[]): string[] => [...new Set(eventTypes.map((type) => type.split('.')[0]))];

/**
 * Whether a change is one the subscription asked for. The filter looks at the
 * record's values (survey_id, taxon_group); a record without the field does
 * not pass. A deletion carries no values, so it passes any filter: receivers
 * drop the ids they do not hold.
 */
export function wanted(change: FeedChange, eventTypes: string[], filter: Filter): boolean {
  if (!eventTypes.includes(eventType(change))) return false;
  if (!change.values) return true;
  if (filter.surveyId !== null && change.values.survey_id !== filter.surveyId) return false;
  if (filter.taxonGroup !== null && change.values.taxon_group !== filter.taxonGroup) return false;
  return true;
}

export type Message = {
  type: string;
  timestamp: string;
  data: { entity: string; id: string; operation: string; at: string; values?: Record<string, string | null> };
};

/** One change as a message (the Standard Webhooks payload shape): the same body on every attempt. */
export function messageOf(change: FeedChange): Message {
  return {
    type: eventType(change),
    timestamp: change.at,
    data: { entity: change.entity, id: change.id, operation: change.operation, at: change.at, ...(change.values ? { values: change.values } : {}) },
  };
}
