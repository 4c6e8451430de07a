// Where a delivery may go: a subscription's owner chooses its URL, so unless WEBHOOKS_ALLOW_PRIVATE a
// delivery reaches public addresses only, whatever the name resolves to when it is sent.
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fakeDns } from '@rex/dns/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/webhooks/destination.ts';
import { sendMessage } from '../../src/webhooks/send.ts';

const SEND = fileURLToPath(new URL('../../src/webhooks/send.ts', import.meta.url));

/** A process whose DNS servers are argv[1]: it sends one message to argv[2] (allowPrivate argv[3]) and prints the outcome and how long the sending took. */
const DELIVER = `
  const dns = await import('node:dns');
  dns.setServers([process.argv[1]]);
  const { sendMessage } = await import(${JSON.stringify(SEND)});
  const began = Date.now();
  const sent = await sendMessage(
    { url: process.argv[2], secrets: ['whsec_' + Buffer.alloc(32, 7).toString('base64')] },
    { id: 'msg_1', body: '{"type":"sample.created"}' },
    { timeoutMs: 5_000, stop: new AbortController().signal, allowPrivate: process.argv[3] === 'true' },
  );
  process.stdout.write(JSON.stringify({ sent, ms: Date.now() - began }));
`;

async function deliver(dnsServer: string, url: string, allowPrivate: boolean) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=development', '--disable-warning=ExperimentalWarning', '--input-type=module', '--eval', DELIVER, dnsServer, url, String(allowPrivate)],
    { timeout: 20_000 },
  );
  return JSON.parse(stdout) as { sent: { ok: boolean; error?: string }; ms: number };
}

/** A receiver on loopback that answers 204 and keeps the requests it got. */
async function receiver() {
  const got: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((request, response) => {
    got.push(request.headers);
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, got, close: () => server.close() };
}

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

describe('the addresses a webhook may reach', () => {
  it('when an address is judged, then loopback, private, shared, link-local, metadata, documentation, multicast and mapped ones are not public; others are', () => {
    for (const address of ['127.0.0.1', '10.0.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '192.0.2.1', '224.0.0.1', '255.255.255.255']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ['::', '::1', '::127.0.0.1', '::ffff:127.0.0.1', '::ffff:a9fe:a9fe', 'fd12:3456::1', 'fe80::1', 'ff02::1', '2001:db8::1', '64:ff9b::a00:1', '::ffff:0:7f00:1', '2002:7f00:1::', '2001:0:4136:e378::1', '3fff::1', '168.63.129.16']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ['93.184.215.14', '1.1.1.1', '172.32.0.1', '2606:4700::1111', '2a00:1450:4009:81d::200e']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    expect(isPublicAddress('not an address')).toBe(false);
  });
});

describe('a delivery to a name', () => {
  it('given a name that resolves to loopback, when a message is sent with only public addresses allowed, then nothing reaches the address and the owner is told why', async () => {
    const hooks = await receiver();
    const dns = await fakeDns({ 'hooks.rex.test': '127.0.0.1' });
    closers.push(hooks.close, dns.close);
    const { sent } = await deliver(dns.address, `http://hooks.rex.test:${hooks.port}/in`, false);
    expect(sent).toEqual({ ok: false, error: expect.stringMatching(/not at a public address.*WEBHOOKS_ALLOW_PRIVATE/) });
    expect(dns.asked).toContain('hooks.rex.test A');
    expect(hooks.got).toEqual([]);
  });

  it('given the same name, when private addresses are allowed, then the message is delivered, signed', async () => {
    const hooks = await receiver();
    const dns = await fakeDns({ 'hooks.rex.test': '127.0.0.1' });
    closers.push(hooks.close, dns.close);
    expect((await deliver(dns.address, `http://hooks.rex.test:${hooks.port}/in`, true)).sent).toEqual({ ok: true });
    expect(hooks.got).toHaveLength(1);
    expect(hooks.got[0]).toMatchObject({ 'webhook-id': 'msg_1', 'content-type': 'application/json', 'webhook-signature': expect.stringMatching(/^v1,/) });
  });

  it('given a URL with a loopback address, when a message is sent with only public addresses allowed, then it is refused without a connection', async () => {
    const hooks = await receiver();
    closers.push(hooks.close);
    const { sent } = await deliver('127.0.0.1:9', `http://127.0.0.1:${hooks.port}/in`, false);
    expect(sent.error).toMatch(/not at a public address/);
    expect(hooks.got).toEqual([]);
  });

  it('given DNS servers that never answer, when a message is sent, then it fails in a few seconds, as the receiver not being reachable', async () => {
    const dns = await fakeDns({}, { silent: true });
    closers.push(dns.close);
    const { sent, ms } = await deliver(dns.address, 'https://hooks.rex.test/in', false);
    expect(sent).toEqual({ ok: false, error: 'Cannot reach the receiver: ETIMEOUT' });
    // c-ares waits 1 s and then 2 s; getaddrinfo would wait 5 s at each of two tries (glibc's defaults).
    expect(ms).toBeLessThan(7_000);
  }, 20_000);
});

describe("a delivery's connection", () => {
  const secrets = ['whsec_' + Buffer.alloc(32, 7).toString('base64')];
  const send = (url: string, id: string) => sendMessage({ url, secrets }, { id, body: '{}' }, { timeoutMs: 5_000, stop: new AbortController().signal, allowPrivate: true });

  it('when messages follow one another to one receiver, then they share one connection; an error answer longer than what is read of it closes it, and the next message opens another', async () => {
    let connections = 0;
    const statuses = [204, 204, 204, 500, 204];
    const server = http.createServer((request, response) => {
      request.resume();
      const status = statuses.shift() ?? 204;
      request.on('end', () => response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 500 ? 'down '.repeat(100_000) : ''));
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      server.closeAllConnections();
      server.close();
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`;
    for (const id of ['msg_1', 'msg_2', 'msg_3']) expect(await send(url, id)).toEqual({ ok: true });
    expect(connections).toBe(1);
    const failed = await send(url, 'msg_4');
    expect(failed).toEqual({ ok: false, error: expect.stringMatching(/^HTTP 500: down down/) });
    expect((failed as { error: string }).error.length).toBeLessThan(320);
    expect(await send(url, 'msg_5')).toEqual({ ok: true });
    expect(connections).toBe(2);
  });

  it('given a receiver that closes idle connections at once, when the next message goes, then it is delivered on a new connection', async () => {
    let connections = 0;
    const server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(204).end());
    });
    server.keepAliveTimeout = 1;
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`;
    for (const id of ['msg_1', 'msg_2', 'msg_3']) {
      expect(await send(url, id)).toEqual({ ok: true });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(connections).toBe(3);
  });
});
