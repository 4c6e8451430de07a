// The soak's traffic: a realistic mix of what clients do, sent at a fixed rate
// (open loop: a slow answer does not slow the senders down), with each
// answer's latency kept per window.
import { DEMO } from '@rex/admin';
import { png } from '../images-in-memory.ts';

const SERVICES = '/index.php/services/rest';

export type Kind = 'get' | 'post' | 'list' | 'report' | 'upload' | 'changes';
/** Shares of the mix, out of 100. */
export const MIX: [Kind, number][] = [
  ['get', 40],
  ['post', 15],
  ['list', 15],
  ['report', 15],
  ['changes', 10],
  ['upload', 5],
];

export type Window = { latencies: number[]; errors: number; byKind: Record<string, number> };

export function newWindow(): Window {
  return { latencies: [], errors: 0, byKind: {} };
}

function pickKind(): Kind {
  let roll = Math.random() * 100;
  for (const [kind, share] of MIX) {
    roll -= share;
    if (roll < 0) return kind;
  }
  return 'get';
}

export function createTraffic(gatewayUrl: string, bearer: string, sampleIds: string[]) {
  const headers = { Authorization: `Bearer ${bearer}` };
  const json = { ...headers, 'Content-Type': 'application/json' };
  let n = 0;
  const photo = png(64, 48);

  const request = (kind: Kind): Promise<Response> => {
    n += 1;
    switch (kind) {
      case 'get':
        return fetch(`${gatewayUrl}${SERVICES}/samples/${sampleIds[n % sampleIds.length]}`, { headers });
      case 'post':
        return fetch(`${gatewayUrl}${SERVICES}/samples`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({
            values: { survey_id: DEMO.surveyId, date: '2026-06-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB' },
            occurrences: [{ values: { taxa_taxon_list_id: DEMO.taxonIds[n % 4], [`occAttr:${DEMO.countAttributeId}`]: '2' } }, { values: { taxa_taxon_list_id: DEMO.taxonIds[(n + 1) % 4] } }],
          }),
        });
      case 'list':
        return fetch(`${gatewayUrl}${SERVICES}/samples?limit=50&offset=${n % 200}`, { headers });
      case 'report':
        return fetch(`${gatewayUrl}${SERVICES}/reports/library/occurrences/filterable_explore_list.xml?limit=10&offset=${n % 50}`, { headers });
      case 'changes':
        return fetch(`${gatewayUrl}${SERVICES}/changes?from=beginning&limit=100`, { headers });
      case 'upload': {
        const form = new FormData();
        form.append('photo', new Blob([photo], { type: 'image/png' }), 'photo.png');
        return fetch(`${gatewayUrl}${SERVICES}/media-queue`, { method: 'POST', body: form, headers });
      }
    }
  };

  /** Sends one request of the mix and records it in `window`. */
  return async function send(window: Window): Promise<void> {
    const kind = pickKind();
    const started = performance.now();
    try {
      const answer = await request(kind);
      await answer.arrayBuffer();
      if (answer.status >= 400) window.errors += 1;
    } catch {
      window.errors += 1;
    }
    window.latencies.push(performance.now() - started);
    window.byKind[kind] = (window.byKind[kind] ?? 0) + 1;
  };
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
