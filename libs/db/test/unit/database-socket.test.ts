// How the suite's database connections find their server: by asking DNS on the event loop, so that
// a lookup the DNS servers never answer cannot keep a stopping service from exiting.
import { execFile } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeDns } from '@rex/dns/testing';

const POOL = fileURLToPath(new URL('../../src/pool.ts', import.meta.url));

/** A TCP server on loopback that counts the connections made to it and the PostgreSQL start-up messages they send. */
async function fakeDatabase(): Promise<{ port: number; startups: () => number; close: () => void }> {
  let startups = 0;
  const server = net.createServer((socket) => {
    socket.once('data', (data) => {
      // A start-up message: its length, then protocol 3.0 (or an SSL request, 80877103).
      if (data.length >= 8 && [196608, 80877103].includes(data.readUInt32BE(4))) startups += 1;
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, startups: () => startups, close: () => server.close() };
}

/**
 * A process that points its DNS at `dnsPort`, runs one query through the suite's pool at `url`, and
 * prints how it ended; with `exitAfterMs`, it calls process.exit(0) that long after starting it.
 */
const CLIENT = `
  const dns = await import('node:dns');
  dns.setServers(['127.0.0.1:' + process.argv[1]]);
  const { createPool } = await import(${JSON.stringify(POOL)});
  const pool = createPool(process.argv[2], { max: 1 });
  const started = Date.now();
  const exitAfterMs = Number(process.argv[3]);
  if (exitAfterMs) {
    process.stdout.write('started ' + started + '\\n');
    setTimeout(() => process.exit(0), exitAfterMs);
  }
  const outcome = await pool.query('SELECT 1').then(() => ({ ok: true }), (error) => ({ code: error.code, message: error.message }));
  process.stdout.write(JSON.stringify({ ...outcome, ms: Date.now() - started }));
  await pool.end();
`;

async function runClient(dnsPort: number, url: string, options: { exitAfterMs?: number; env?: NodeJS.ProcessEnv } = {}) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=development', '--disable-warning=ExperimentalWarning', '--input-type=module', '--eval', CLIENT, String(dnsPort), url, String(options.exitAfterMs ?? 0)],
    { env: { ...process.env, ...options.env }, timeout: 20_000 },
  );
  const ended = Date.now();
  // With exitAfterMs the process says when it began its query: how long it took to exit from then, start-up aside.
  const [, started] = /^started (\d+)\n/.exec(stdout) ?? [];
  const result = stdout.replace(/^started \d+\n/, '');
  return {
    outcome: result ? (JSON.parse(result) as { ok?: boolean; code?: string; message?: string; ms: number }) : undefined,
    exitedAfterMs: started ? ended - Number(started) : undefined,
  };
}

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

describe('a database connection to a host name', () => {
  it('given a name only the DNS servers know, when the pool connects, then it reaches the address they give', async () => {
    const database = await fakeDatabase();
    const dns = await fakeDns({ 'db.rex.test': '127.0.0.1' });
    closers.push(database.close, dns.close);
    // getaddrinfo asks the system's servers, which do not know this name.
    const { outcome } = await runClient(dns.port, `postgres://rex@db.rex.test:${database.port}/rex`);
    expect(dns.asked).toContain('db.rex.test A');
    expect(database.startups()).toBe(1);
    // The fake database hangs up after the start-up message.
    expect(outcome?.ok).toBeUndefined();
  });

  it('given DNS servers that never answer, when the pool connects, then the query fails with ETIMEOUT within the bounded wait, and a process exiting meanwhile exits at once', async () => {
    const dns = await fakeDns({}, { silent: true });
    closers.push(dns.close);
    const failed = await runClient(dns.port, 'postgres://rex@db.rex.test:5432/rex');
    expect(failed.outcome?.code).toBe('ETIMEOUT');
    expect(failed.outcome?.message).toContain('did not answer');
    // 1 s and then 2 s (c-ares doubles its wait at each try), within the pool's 5 s connection timeout.
    expect(failed.outcome?.ms).toBeLessThan(5_000);
    // A lookup on libuv's pool would hold process.exit until the lookup gave up.
    const exiting = await runClient(dns.port, 'postgres://rex@db.rex.test:5432/rex', { exitAfterMs: 300 });
    expect(exiting.outcome).toBeUndefined();
    expect(exiting.exitedAfterMs).toBeLessThan(failed.outcome!.ms);
  }, 20_000);

  it('given a name in the hosts file, when the DNS servers never answer, then the pool still connects to the file address', async () => {
    const database = await fakeDatabase();
    const dns = await fakeDns({}, { silent: true });
    closers.push(database.close, dns.close);
    await runClient(dns.port, `postgres://rex@localhost:${database.port}/rex`);
    expect(database.startups()).toBe(1);
    expect(dns.asked).toEqual([]);
  });
});
