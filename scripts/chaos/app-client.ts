// A client that behaves like the recording apps: a queued photo (a small real image), then a sample
// with a client-made external key and an Idempotency-Key, sent again with the
// same key and body after a network error, a 502/503/504 or a timeout, with
// back-off, until it gets an answer.
import { DEMO } from '@rex/admin';
import { png } from '../images-in-memory.ts';

const SERVICES = '/index.php/services/rest';
const RETRYABLE = new Set([502, 503, 504]);
const ATTEMPT_TIMEOUT_MS = 15_000;
const GIVE_UP_AFTER_MS = 120_000;

export type Outcome = {
  externalKey: string;
  idempotencyKey: string;
  /** The answer finally given: 201 (or a replay), or what ended the tries. */
  status: number;
  replayed: boolean;
  sampleId?: string;
  attempts: number;
  /** The body of a final answer that is not 201, for the report. */
  problem?: string;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tries `send` until it answers something final; network errors, 502/503/504 and timeouts are tried again. */
async function untilAnswered(send: () => Promise<Response>, counted: { attempts: number }): Promise<Response | undefined> {
  const deadline = Date.now() + GIVE_UP_AFTER_MS;
  let delay = 100;
  while (Date.now() < deadline) {
    counted.attempts += 1;
    try {
      const answer = await send();
      if (!RETRYABLE.has(answer.status)) return answer;
      await answer.arrayBuffer().catch(() => undefined);
    } catch {
      // refused, reset or timed out: the app cannot tell whether the server acted, so it sends the same again
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 2_000);
  }
  return undefined;
}

export async function submitLikeAnApp(gatewayUrl: string, bearer: string, run: string, n: number): Promise<Outcome> {
  const externalKey = `chaos-${run}-${n}`;
  const idempotencyKey = `chaos-${run}-${n}-key`;
  const counted = { attempts: 0 };
  const headers = { Authorization: `Bearer ${bearer}` };

  const uploaded = await untilAnswered(() => {
    const form = new FormData();
    form.append('photo', new Blob([png(40 + (n % 40), 30)], { type: 'image/png' }), `photo-${n}.png`);
    return fetch(`${gatewayUrl}${SERVICES}/media-queue`, { method: 'POST', body: form, headers, signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
  }, counted);
  if (!uploaded || uploaded.status !== 200) {
    return { externalKey, idempotencyKey, status: uploaded?.status ?? 0, replayed: false, attempts: counted.attempts, problem: `upload: ${uploaded ? await uploaded.text() : 'no answer'}` };
  }
  const photo = ((await uploaded.json()) as { photo: { name: string } }).photo.name;
  const body = JSON.stringify({
    values: { survey_id: DEMO.surveyId, date: '2026-06-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB', external_key: externalKey, [`smpAttr:${DEMO.weatherAttributeId}`]: 'Sunny' },
    occurrences: [
      { values: { taxa_taxon_list_id: DEMO.taxonIds[0], [`occAttr:${DEMO.countAttributeId}`]: String(1 + (n % 9)) }, media: [{ values: { queued: photo, caption: `photo ${n}` } }] },
      { values: { taxa_taxon_list_id: DEMO.taxonIds[1], [`occAttr:${DEMO.countAttributeId}`]: '1' } },
    ],
  });
  const answer = await untilAnswered(
    () =>
      fetch(`${gatewayUrl}${SERVICES}/samples`, {
        method: 'POST',
        body,
        headers: { ...headers, 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      }),
    counted,
  );
  if (!answer) return { externalKey, idempotencyKey, status: 0, replayed: false, attempts: counted.attempts, problem: 'no answer within the time the app tries' };
  const text = await answer.text();
  if (answer.status !== 201) return { externalKey, idempotencyKey, status: answer.status, replayed: false, attempts: counted.attempts, problem: text.slice(0, 300) };
  const saved = JSON.parse(text) as { values: { id: string } };
  return { externalKey, idempotencyKey, status: 201, replayed: answer.headers.get('idempotent-replayed') === 'true', sampleId: saved.values.id, attempts: counted.attempts };
}
