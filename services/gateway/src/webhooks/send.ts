import http from 'node:http';
import https from 'node:https';
import { attemptSeconds } from './metrics.ts';
import { deliveryLookup, hostProblem, NOT_PUBLIC_PROBLEM } from './destination.ts';
import { webhookHeaders } from './signing.ts';

export type Sent = { ok: true } | { ok: false; error: string; stopped?: boolean };

const ERROR_TEXT_MAX = 300;

type Answer = { status: number; opening: string };

/**
 * POSTs `body` and reads the answer's status and, when it is not a 2xx, the first characters of its
 * body; the connection is then closed. `signal` cuts it wherever it is.
 */
function post(url: URL, headers: Record<string, string>, body: string, options: { lookup: ReturnType<typeof deliveryLookup>; signal: AbortSignal }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: options.lookup, signal: options.signal, agent: false }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        response.destroy();
        return resolve({ status, opening: '' });
      }
      const chunks: Buffer[] = [];
      let length = 0;
      const done = () => {
        response.destroy();
        resolve({ status, opening: Buffer.concat(chunks).toString('utf8', 0, Math.min(length, ERROR_TEXT_MAX)).replace(/\s+/g, ' ').trim() });
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        length += chunk.length;
        if (length >= ERROR_TEXT_MAX) done();
      });
      response.on('end', done);
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * POSTs one signed message. A 2xx answer delivers it; anything else (another
 * status, a redirect, which is not followed, no answer within `timeoutMs`, a
 * network error, a receiver not at a public address unless `allowPrivate`)
 * fails it. `stop` aborts it when the replica stops: that is not the
 * receiver's failure.
 */
export async function sendMessage(
  target: { url: string; secrets: string[] },
  message: { id: string; body: string },
  options: { timeoutMs: number; stop: AbortSignal; allowPrivate: boolean },
): Promise<Sent> {
  const timestamp = Math.floor(Date.now() / 1000);
  const started = performance.now();
  const url = new URL(target.url);
  const problem = options.allowPrivate ? undefined : hostProblem(url.hostname);
  if (problem) return { ok: false, error: problem };
  try {
    const answer = await post(
      url,
      { 'content-type': 'application/json', 'user-agent': 'rex-webhooks/1', ...webhookHeaders(target.secrets, message.id, timestamp, message.body) },
      message.body,
      { lookup: deliveryLookup(options.allowPrivate), signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.stop]) },
    );
    if (answer.status >= 200 && answer.status < 300) return { ok: true };
    return { ok: false, error: `HTTP ${answer.status}${answer.opening ? `: ${answer.opening}` : ''}` };
  } catch (error) {
    if (options.stop.aborted) return { ok: false, error: 'the gateway stopped', stopped: true };
    const { name, code, message: text } = error as NodeJS.ErrnoException;
    if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, error: `No answer within ${options.timeoutMs} ms.` };
    if (code === 'ENOTPUBLIC') return { ok: false, error: NOT_PUBLIC_PROBLEM };
    return { ok: false, error: `Cannot reach the receiver: ${code ?? text}` };
  } finally {
    attemptSeconds.observe((performance.now() - started) / 1000);
  }
}
