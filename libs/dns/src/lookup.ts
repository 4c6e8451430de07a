import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import net from 'node:net';

/**
 * How an outgoing connection finds its server's address (`lookup` of net.connect).
 *
 * Node looks a name up with getaddrinfo on a thread of libuv's pool, and a process cannot exit
 * while one of those threads is busy: process.exit waits for them. When the DNS servers stop
 * answering (a cluster's DNS restarting, a container network going away), each lookup holds its
 * thread for the resolver's timeouts, tries and search domains together, tens of seconds, so a
 * service that opened a connection just before SIGTERM could not exit and was killed.
 *
 * So a name is looked for in the hosts file, then asked of the DNS servers directly (c-ares, on the
 * event loop, within DNS_TIMEOUT_MS and DNS_TRIES), completed with resolv.conf's search domains in
 * the order getaddrinfo uses. Servers that do not answer fail the connection at once. getaddrinfo
 * is never asked, not even after DNS has said it knows no such name: a server can answer once and
 * then fall silent, and a webhook's name is chosen by whoever owns the subscription.
 */

const DNS_TIMEOUT_MS = 1_000;
const DNS_TRIES = 2;
const HOSTS_FILE = '/etc/hosts';
const RESOLV_CONF = '/etc/resolv.conf';

export type Address = { address: string; family: 4 | 6 };
type LookupOptions = { family?: number | string; all?: boolean };
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | Address[], family?: number) => void;

/** The addresses the hosts file gives `name`, in the file's order (none when it cannot be read). */
export function addressesInHostsFile(name: string, text = readHostsFile()): Address[] {
  const wanted = name.toLowerCase();
  const found: Address[] = [];
  for (const line of text.split('\n')) {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    const family = net.isIP(address ?? '');
    if (family && names.some((each) => each.toLowerCase() === wanted)) found.push({ address: address!, family: family as 4 | 6 });
  }
  return found;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

const readHostsFile = () => readText(HOSTS_FILE);

/** What resolv.conf (and glibc's LOCALDOMAIN and RES_OPTIONS) say of completing a name. */
export function searchSettings(text = readText(RESOLV_CONF), env: NodeJS.ProcessEnv = process.env): { search: string[]; ndots: number } {
  let search: string[] = [];
  let ndots = 1;
  const readOptions = (options: string[]) => {
    for (const option of options) {
      const match = /^ndots:(\d+)$/.exec(option);
      if (match) ndots = Math.min(Number(match[1]), 15);
    }
  };
  for (const line of text.split('\n')) {
    const [keyword, ...values] = line.replace(/[#;].*/, '').trim().split(/\s+/);
    if (keyword === 'search' || keyword === 'domain') search = values;
    else if (keyword === 'options') readOptions(values);
  }
  if (env.LOCALDOMAIN !== undefined) search = env.LOCALDOMAIN.trim().split(/\s+/).filter(Boolean);
  if (env.RES_OPTIONS) readOptions(env.RES_OPTIONS.trim().split(/\s+/));
  return { search: search.filter((domain) => domain && domain !== '.'), ndots };
}

/** The names getaddrinfo would ask DNS for, in its order: search domains first for a name with fewer than ndots dots. */
export function namesToAsk(name: string, settings = searchSettings()): string[] {
  if (name.endsWith('.')) return [name.slice(0, -1)];
  const completed = settings.search.map((domain) => `${name}.${domain.replace(/\.$/, '')}`);
  const dots = name.split('.').length - 1;
  return dots >= settings.ndots ? [name, ...completed] : [...completed, name];
}

let resolver: dns.promises.Resolver | undefined;

/** A resolver with the process's DNS servers (those dns.setServers set, if any) and bounded waits. */
function dnsResolver(): dns.promises.Resolver {
  if (!resolver) {
    resolver = new dns.promises.Resolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
    resolver.setServers(dns.getServers());
  }
  return resolver;
}

// A refusal or a server failure is an answer: the next name is asked, as getaddrinfo does.
const NOT_ANSWERED = new Set<string>([dns.TIMEOUT, dns.CANCELLED, dns.DESTRUCTION]);

async function askServers(name: string, family: number): Promise<Address[] | 'no answer' | 'no address'> {
  const asked = await Promise.allSettled([
    family === 6 ? Promise.resolve([]) : dnsResolver().resolve4(name),
    family === 4 ? Promise.resolve([]) : dnsResolver().resolve6(name),
  ]);
  const found: Address[] = [];
  asked.forEach((result, index) => {
    if (result.status === 'fulfilled') for (const address of result.value) found.push({ address, family: index === 0 ? 4 : 6 });
  });
  if (found.length) return found;
  const codes = asked.flatMap((result) => (result.status === 'rejected' ? [(result.reason as NodeJS.ErrnoException).code] : []));
  return codes.some((code) => code !== undefined && NOT_ANSWERED.has(code)) ? 'no answer' : 'no address';
}

function familyOf(value: number | string | undefined): number {
  if (value === 'IPv4') return 4;
  if (value === 'IPv6') return 6;
  return typeof value === 'number' ? value : 0;
}

/** The addresses of `name` (of one family, 4 or 6, or of both: 0), found as described above. */
export async function resolveHost(name: string, family = 0): Promise<Address[]> {
  const inFile = addressesInHostsFile(name.replace(/\.$/, '')).filter((each) => !family || each.family === family);
  if (inFile.length) return inFile;
  for (const asked of namesToAsk(name)) {
    const answer = await askServers(asked, family);
    if (answer === 'no answer') {
      throw Object.assign(new Error(`the DNS servers did not answer for ${asked} in time`), { code: 'ETIMEOUT', hostname: name });
    }
    if (answer !== 'no address') return answer;
  }
  return [];
}

/**
 * A `lookup` for net.connect (and http.Agent, tls.connect) that finds addresses with `resolve`;
 * an empty list fails the connection with ENOTFOUND.
 */
export function lookupFrom(resolve: (name: string, family: number) => Promise<Address[]>): net.LookupFunction {
  const lookup = (name: string, options: LookupOptions, callback: LookupCallback): void => {
    // The callback runs outside the promise, as getaddrinfo's does: what it throws is the caller's error, not a rejection.
    const answer = (error: NodeJS.ErrnoException | null, found: Address[]) =>
      process.nextTick(() => {
        if (!error && !found[0]) error = Object.assign(new Error(`no address for ${name}`), { code: 'ENOTFOUND', hostname: name });
        if (error) callback(error, options.all ? [] : '');
        else if (options.all) callback(null, found);
        else callback(null, found[0]!.address, found[0]!.family);
      });
    resolve(name, familyOf(options.family)).then(
      (found) => answer(null, found),
      (error: NodeJS.ErrnoException) => answer(error, []),
    );
  };
  return lookup as net.LookupFunction;
}

/** The lookup of every connection the suite opens by name: it cannot keep the process from exiting (see above). */
export const lookupHost = lookupFrom(resolveHost);
