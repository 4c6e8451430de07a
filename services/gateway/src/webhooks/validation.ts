import { hostProblem } from './destination.ts';
import { EVENT_TYPES } from './messages.ts';
import type { Filter } from './subscriptions-repo.ts';
import { isRecordId } from '@rex/protos';

export const MAX_URL_LENGTH = 2_000;

export type SubscriptionInput = { url: string; eventTypes: string[]; filter: Filter };

/** Problems by field (`webhook:<field>`), as the API's 400 answers name them. */
export type Violations = Record<string, string>;

const CONTROL_OR_SPACE = /[\s\u0000-\u001f\u007f]/;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a gateway lets subscriptions send to (WEBHOOKS_ALLOW_HTTP, WEBHOOKS_ALLOW_PRIVATE). */
export type UrlRules = { allowHttp: boolean; allowPrivate: boolean };

/** Why `url` cannot be a webhook target, or undefined when it can (a name's addresses are checked when delivering). */
export function urlProblem(url: unknown, { allowHttp, allowPrivate }: UrlRules): string | undefined {
  if (typeof url !== 'string' || url === '') return 'A URL is required.';
  if (url.length > MAX_URL_LENGTH) return `The URL may be at most ${MAX_URL_LENGTH} characters long.`;
  if (CONTROL_OR_SPACE.test(url)) return 'The URL may not contain spaces or control characters.';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Not a URL.';
  }
  if (parsed.protocol !== 'https:' && !(allowHttp && parsed.protocol === 'http:')) return allowHttp ? 'The URL must be https:// or http://.' : 'The URL must be https://.';
  if (parsed.username || parsed.password) return 'The URL may not hold credentials (user:password@).';
  if (!parsed.hostname) return 'The URL names no host.';
  return allowPrivate ? undefined : hostProblem(parsed.hostname);
}

function eventTypes(value: unknown, violations: Violations): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    violations['webhook:event_types'] = `A list of one or more event types is required: ${EVENT_TYPES.join(', ')}.`;
    return [];
  }
  const unknown = value.filter((type) => typeof type !== 'string' || !EVENT_TYPES.includes(type));
  if (unknown.length) violations['webhook:event_types'] = `Unknown event types ${unknown.map((type) => JSON.stringify(type).slice(0, 60)).join(', ')}: give ${EVENT_TYPES.join(', ')}.`;
  return [...new Set(value as string[])];
}

function filterOf(value: unknown, violations: Violations): Filter {
  const filter: Filter = { surveyId: null, taxonGroup: null };
  if (value === undefined || value === null) return filter;
  if (!isObject(value)) {
    violations['webhook:filter'] = 'The filter must be an object with survey_id and/or taxon_group.';
    return filter;
  }
  for (const key of Object.keys(value)) {
    if (key !== 'survey_id' && key !== 'taxon_group') violations[`webhook:filter.${key.slice(0, 60)}`] = 'Unknown filter: give survey_id or taxon_group.';
  }
  const survey = value.survey_id;
  if (survey !== undefined && survey !== null) {
    if ((typeof survey === 'number' && Number.isSafeInteger(survey) && survey > 0) || isRecordId(survey)) filter.surveyId = String(survey);
    else violations['webhook:filter.survey_id'] = 'A survey id (a positive whole number) is expected.';
  }
  const group = value.taxon_group;
  if (group !== undefined && group !== null) {
    if (typeof group === 'string' && group.length > 0 && group.length <= 200 && !/[\u0000-\u001f\u007f]/.test(group)) filter.taxonGroup = group;
    else violations['webhook:filter.taxon_group'] = 'A taxon group name (1 to 200 characters) is expected.';
  }
  return filter;
}

/** Reads a subscription from a request body: `{url, event_types, filter?}`. */
export function parseSubscription(body: unknown, rules: UrlRules): { input: SubscriptionInput } | { violations: Violations } {
  if (!isObject(body)) return { violations: { 'webhook:body': 'A JSON object {url, event_types, filter} is expected.' } };
  const violations: Violations = {};
  for (const key of Object.keys(body)) {
    if (!['url', 'event_types', 'filter'].includes(key)) violations[`webhook:${key.slice(0, 60)}`] = 'Unknown field: give url, event_types and filter.';
  }
  const problem = urlProblem(body.url, rules);
  if (problem) violations['webhook:url'] = problem;
  const types = eventTypes(body.event_types, violations);
  const filter = filterOf(body.filter, violations);
  if (Object.keys(violations).length) return { violations };
  return { input: { url: body.url as string, eventTypes: types, filter } };
}
