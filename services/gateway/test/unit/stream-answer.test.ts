import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import type { grpc } from '@rex/grpc';
import { registry } from '@rex/telemetry';
import { streamAnswer } from '../../src/routes/stream-answer.ts';
import { YOUNG_COLLECTION_BYTES } from '../../src/young-collection.ts';

type Message = { head?: true; text?: string };

/**
 * A backend stream that sends its messages one after another, only while not paused, each in
 * a turn of the event loop of its own (as grpc-js does when they come in frames of their own).
 */
class Backend extends EventEmitter {
  paused = false;
  cancelled = false;
  private next = 0;
  private readonly messages: Message[];
  constructor(messages: Message[]) {
    super();
    this.messages = messages;
    setImmediate(() => this.flow());
  }
  pause() {
    this.paused = true;
    return this;
  }
  resume() {
    this.paused = false;
    setImmediate(() => this.flow());
    return this;
  }
  cancel() {
    this.cancelled = true;
  }
  private flow() {
    if (this.paused) return;
    if (this.next < this.messages.length) {
      this.emit('data', this.messages[this.next++]);
      setImmediate(() => this.flow());
    } else if (this.next === this.messages.length) {
      this.next += 1;
      this.emit('end');
    }
  }
}

let close: (() => void) | undefined;
afterEach(() => close?.());

/** Serves one streamed answer over real HTTP and reads it whole, with how many writes to the socket it took. */
async function answerOf(messages: Message[]): Promise<{ body: string; writes: number }> {
  const app = express();
  let writes = 0;
  app.get('/', (_req, res, next) => {
    // Each call of _write or _writev is one system call (write or writev) on the connection.
    const socket = res.socket as unknown as { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void };
    for (const method of ['_write', '_writev'] as const) {
      const send = socket[method].bind(socket);
      socket[method] = (...args: unknown[]) => {
        writes += 1;
        send(...args);
      };
    }
    const backend = new Backend(messages) as unknown as grpc.ClientReadableStream<Message>;
    streamAnswer(backend, res, 'reports', {
      applyHead: (message) => {
        if (!message.head) return false;
        res.type('text/plain');
        return true;
      },
      render: (message) => message.text,
    }).catch(next);
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  close = () => server.close();
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { signal: AbortSignal.timeout(10_000) });
  return { body: await response.text(), writes };
}

describe('streamAnswer', () => {
  it('when the rows are larger than the socket takes at once, then every message still arrives, in order', async () => {
    // Each batch is well past the response's buffer, so the backend is paused after each one.
    const batches = Array.from({ length: 8 }, (_, i) => `${String(i).repeat(100_000)}\n`);
    const { body } = await answerOf([{ head: true }, ...batches.map((text) => ({ text }))]);
    expect(body.length).toBe(batches.join('').length);
    expect(body.split('\n').slice(0, -1).map((line) => line[0])).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
  });

  it("when a long answer passes, then its bytes count towards the gateway's young collections", async () => {
    const counted = async () => (await registry.getSingleMetric('rex_young_collections_total')?.get())?.values[0]?.value ?? 0;
    const before = await counted();
    const batch = 'x'.repeat(YOUNG_COLLECTION_BYTES / 4);
    const { body } = await answerOf([{ head: true }, ...Array.from({ length: 16 }, () => ({ text: batch }))]);
    expect(body.length).toBe(4 * YOUNG_COLLECTION_BYTES);
    expect((await counted()) - before).toBe(4);
  });

  it('when the rows are small, then the head, the rows and the end leave in one write', async () => {
    const { body, writes } = await answerOf([{ head: true }, { text: 'a\n' }, { text: 'b\n' }]);
    expect(body).toBe('a\nb\n');
    expect(writes).toBe(1);
  });
});
