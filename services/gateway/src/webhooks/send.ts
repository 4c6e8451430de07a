import http from 'node:http';
import https from 'node:https';
import { attemptSeconds } from './metrics.ts';
import { deliveryLookup, hostProblem, NOT_PUBLIC_PROBLEM } from './destination.ts';
import { webhookHeaders } from './signing.ts';

export type Sent = { ok: true } | { ok: false; error: string; stopped?: boolean };

const ERROR_TEXT_MAX = 300;
/** A 2xx answer's body is read (so that its connection serves the next message) up to this; a longer one closes it. */
const SUCCESS_BODY_MAX = 64 * 1024;
/** How long an idle connection to a receiver is kept for its next message (less than Node.js servers keep theirs, 5 s). */
const IDLE_CONNECTION_MS = 4_000;

type Answer = { status: number; opening: string };

/**
 * Connections kept open between a receiver's messages (one TLS handshake for a burst, not one per
 * message), by protocol and by whether private addresses may be reached: each agent looks names up
 * with its own rule, so a connection it keeps went to an address that passed it.
 */
const agents = new Map<string, http.Agent>();

function agentFor(protocol: string, allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, lookup: deliveryLookup(allowPrivate) };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * POSTs `body` and reads the answer's status and, when it is not a 2xx, the first characters of its
 * body; a body not read to its end closes the connection. `signal` cuts it wherever it is. A kept
 * connection the receiver closed meanwhile is not the receiver's failure: the message goes again on
 * a new one (messages are delivered at least once; receivers drop repeats by webhook-id).
 */
function post(url: URL, headers: Record<string, string>, body: string, options: { allowPrivate: boolean; signal: AbortSignal }, again = true): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const agent = agentFor(url.protocol, options.allowPrivate);
    const request = client.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent, signal: options.signal }, (response) => {
      const status = response.statusCode ?? 0;
      const success = status >= 200 && status < 300;
      const chunks: Buffer[] = [];
      let length = 0;
      const done = () => {
        if (!response.complete) response.destroy();
        resolve({ status, opening: success ? '' : Buffer.concat(chunks).toString('utf8', 0, Math.min(length, ERROR_TEXT_MAX)).replace(/\s+/g, ' ').trim() });
      };
      response.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (!success) chunks.push(chunk);
        if (length >= (success ? SUCCESS_BODY_MAX : ERROR_TEXT_MAX)) done();
      });
      response.on('end', done);
      response.on('error', reject);
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (again && request.reusedSocket && error.code === 'ECONNRESET' && !options.signal.aborted) resolve(post(url, headers, body, options, false));
      else reject(error);
    });
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
      { allowPrivate: options.allowPrivate, signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.stop]) },
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
