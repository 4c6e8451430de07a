// What a name's lookup asks and finds: the hosts file first, then DNS on the event loop, with the
// search domains in getaddrinfo's order, and a bounded wait when the servers do not answer.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { addressesInHostsFile, namesToAsk, searchSettings } from '../../src/lookup.ts';
import { fakeDns } from '../fake-dns.ts';

const LOOKUP = fileURLToPath(new URL('../../src/lookup.ts', import.meta.url));

/** A process whose DNS servers are `argv[1]`: it resolves `argv[2]` and prints what it found, or the error's code, and how long it took. */
const RESOLVE = `
  const dns = await import('node:dns');
  dns.setServers([process.argv[1]]);
  const { resolveHost } = await import(${JSON.stringify(LOOKUP)});
  const started = Date.now();
  const outcome = await resolveHost(process.argv[2]).then((found) => ({ found }), (error) => ({ code: error.code }));
  process.stdout.write(JSON.stringify({ ...outcome, ms: Date.now() - started }));
`;

async function resolveIn(server: string, name: string, env: NodeJS.ProcessEnv = {}) {
  const { stdout } = await promisify(execFile)(process.execPath, ['--disable-warning=ExperimentalWarning', '--input-type=module', '--eval', RESOLVE, server, name], {
    env: { ...process.env, ...env },
    timeout: 20_000,
  });
  return JSON.parse(stdout) as { found?: { address: string; family: number }[]; code?: string; ms: number };
}

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

describe('the names a lookup asks DNS for', () => {
  it('given fewer dots than ndots, when a name is completed, then the search domains come first and the name as given last, as getaddrinfo asks', () => {
    const settings = searchSettings('nameserver 10.0.0.10\nsearch rex.svc.cluster.local svc.cluster.local cluster.local\noptions ndots:5 timeout:2\n', {});
    expect(settings).toEqual({ search: ['rex.svc.cluster.local', 'svc.cluster.local', 'cluster.local'], ndots: 5 });
    expect(namesToAsk('postgres', settings)).toEqual(['postgres.rex.svc.cluster.local', 'postgres.svc.cluster.local', 'postgres.cluster.local', 'postgres']);
    expect(namesToAsk('db.example.org', { search: ['local'], ndots: 1 })).toEqual(['db.example.org', 'db.example.org.local']);
    expect(namesToAsk('db.example.org.', settings)).toEqual(['db.example.org']);
  });

  it('given LOCALDOMAIN and RES_OPTIONS, when the settings are read, then they override resolv.conf as they do for glibc', () => {
    expect(searchSettings('domain example.org\n', { LOCALDOMAIN: 'a.test b.test', RES_OPTIONS: 'ndots:2' })).toEqual({ search: ['a.test', 'b.test'], ndots: 2 });
    expect(searchSettings('# none\n', {})).toEqual({ search: [], ndots: 1 });
  });

  it('given a hosts file, when a name is looked for, then its addresses come in the file order, case aside, comments ignored', () => {
    const hosts = '127.0.0.1 localhost\n::1 localhost ip6-localhost\n10.0.0.5 DB db.rex.test # the database\n# 10.0.0.6 db\n';
    expect(addressesInHostsFile('db', hosts)).toEqual([{ address: '10.0.0.5', family: 4 }]);
    expect(addressesInHostsFile('localhost', hosts)).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    expect(addressesInHostsFile('other', hosts)).toEqual([]);
  });
});

describe('resolving a name', () => {
  it('given a name only the DNS servers know, when it is resolved, then their address comes back', async () => {
    const dns = await fakeDns({ 'hooks.rex.test': '192.0.2.7' });
    closers.push(dns.close);
    // getaddrinfo asks the system's servers, which do not know this name.
    expect((await resolveIn(dns.address, 'hooks.rex.test')).found).toEqual([{ address: '192.0.2.7', family: 4 }]);
    expect(dns.asked).toEqual(expect.arrayContaining(['hooks.rex.test A', 'hooks.rex.test AAAA']));
  });

  it('given a short name and a search domain, when it is resolved, then the completed name is asked first and found', async () => {
    const dns = await fakeDns({ 'db.rex.test': '192.0.2.8' });
    closers.push(dns.close);
    const outcome = await resolveIn(dns.address, 'db', { LOCALDOMAIN: 'rex.test', RES_OPTIONS: 'ndots:5' });
    expect(outcome.found).toEqual([{ address: '192.0.2.8', family: 4 }]);
    expect(dns.asked[0]).toMatch(/^db\.rex\.test /);
    expect(dns.asked).not.toContain('db A');
  });

  it('given DNS servers that never answer, when a name is resolved, then it fails with ETIMEOUT within about 3 s; the hosts file still answers for its names', async () => {
    const dns = await fakeDns({}, { silent: true });
    closers.push(dns.close);
    const outcome = await resolveIn(dns.address, 'db.rex.test');
    expect(outcome.code).toBe('ETIMEOUT');
    // 1 s and then 2 s (c-ares doubles its wait at each try); getaddrinfo would wait 5 s at each of two tries.
    expect(outcome.ms).toBeLessThan(6_000);
    const local = await resolveIn(dns.address, 'localhost');
    expect(local.found?.map((each) => each.address)).toContain('127.0.0.1');
    expect((await resolveIn(dns.address, 'localhost.')).found?.map((each) => each.address)).toContain('127.0.0.1');
    expect(dns.asked.filter((query) => query.startsWith('localhost'))).toEqual([]);
  }, 20_000);

  it('given servers that say they know no such name, when it is resolved, then nothing is found and nothing else is asked', async () => {
    const dns = await fakeDns({});
    closers.push(dns.close);
    const outcome = await resolveIn(dns.address, 'gone.rex.test', { LOCALDOMAIN: 'rex.test' });
    expect(outcome.found).toEqual([]);
    expect(dns.asked.map((query) => query.split(' ')[0])).toEqual(['gone.rex.test', 'gone.rex.test', 'gone.rex.test.rex.test', 'gone.rex.test.rex.test']);
  });

  it("when a lookup's callback throws, then that is the caller's error, as after getaddrinfo, not an unhandled rejection", async () => {
    const script = `
      const { lookupHost } = await import(${JSON.stringify(LOOKUP)});
      process.on('unhandledRejection', () => { process.stdout.write('a rejection'); process.exit(0); });
      process.on('uncaughtException', (error) => { process.stdout.write('thrown: ' + error.message); process.exit(0); });
      lookupHost('localhost', {}, () => { throw new Error('by the caller'); });
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--disable-warning=ExperimentalWarning', '--input-type=module', '--eval', script], { timeout: 20_000 });
    expect(stdout).toBe('thrown: by the caller');
  });
});
