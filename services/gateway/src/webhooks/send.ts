import { attemptSeconds } from './metrics.ts';
import { webhookHeaders } from './signing.ts';

export type Sent = { ok: true } | { ok: false; error: string; stopped?: boolean };

const ERROR_TEXT_MAX = 300;

/** The first characters of an answer's body, for the error its owner sees. */
async function opening(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < ERROR_TEXT_MAX) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8', 0, Math.min(length, ERROR_TEXT_MAX)).replace(/\s+/g, ' ').trim();
}

/**
 * POSTs one signed message. A 2xx answer delivers it; anything else (another
 * status, a redirect, which is not followed, no answer within `timeoutMs`, a
 * network error) fails it. `stop` aborts it when the replica stops: that is
 * not the receiver's failure.
 */
export async function sendMessage(
  target: { url: string; secrets: string[] },
  message: { id: string; body: string },
  options: { timeoutMs: number; stop: AbortSignal },
): Promise<Sent> {
  const timestamp = Math.floor(Date.now() / 1000);
  const started = performance.now();
  try {
    const response = await fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'rex-webhooks/1', ...webhookHeaders(target.secrets, message.id, timestamp, message.body) },
      body: message.body,
      redirect: 'manual',
      signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.stop]),
    });
    if (response.status >= 200 && response.status < 300) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: true };
    }
    const text = await opening(response);
    return { ok: false, error: `HTTP ${response.status}${text ? `: ${text}` : ''}` };
  } catch (error) {
    if (options.stop.aborted) return { ok: false, error: 'the gateway stopped', stopped: true };
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, error: `No answer within ${options.timeoutMs} ms.` };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, error: `Cannot reach the receiver: ${cause?.code ?? cause?.message ?? (error as Error).message}` };
  } finally {
    attemptSeconds.observe((performance.now() - started) / 1000);
  }
}
