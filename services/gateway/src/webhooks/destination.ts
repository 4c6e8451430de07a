import net from 'node:net';
import { lookupFrom, lookupHost, resolveHost } from '@rex/dns';

/**
 * Where a webhook may be sent. Its URL is chosen by the subscription's owner, so unless
 * WEBHOOKS_ALLOW_PRIVATE the gateway sends only to public addresses: not to itself, the cluster,
 * the cloud's metadata service or any other address that is not routed on the internet. A name is
 * checked for the addresses it has when the connection is made (a check when the subscription is
 * created could be undone by the name's next answer), and each delivery connects to an address
 * that passed.
 */

/** Special-purpose ranges (IANA's registries): loopback, private, shared, link-local, documentation, multicast, reserved. */
const NOT_PUBLIC = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
  ['168.63.129.16', 32], // Azure's host endpoint (metadata and health), reached from every VM
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible addresses (::127.0.0.1)
  ['64:ff9b::', 96], // NAT64, whose addresses embed an IPv4 one
  ['64:ff9b:1::', 48],
  ['::ffff:0:0:0', 96], // SIIT, embedding an IPv4 address
  ['100::', 64],
  ['2001::', 32], // Teredo and 6to4 embed an IPv4 address, which a relay may reach
  ['2002::', 16],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (an IP address) is routed on the internet. IPv4 addresses mapped into IPv6 are judged as IPv4. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (!family) return false;
  return !NOT_PUBLIC.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** The host of a URL as an IP address, when it is one (`[::1]` gives `::1`). */
function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) ? bare : undefined;
}

export const NOT_PUBLIC_PROBLEM = 'The receiver is not at a public address; this gateway sends to public addresses only (WEBHOOKS_ALLOW_PRIVATE).';

/** Why a URL's host cannot be sent to, as far as its text tells: an address (or `localhost`) that is not public. */
export function hostProblem(hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  const address = literalAddress(name);
  if (address ? !isPublicAddress(address) : name === 'localhost' || name.endsWith('.localhost')) return NOT_PUBLIC_PROBLEM;
  return undefined;
}

/** A name whose every address is not public. */
class NotPublic extends Error {
  readonly code = 'ENOTPUBLIC';
  constructor() {
    super(NOT_PUBLIC_PROBLEM);
  }
}

/** The lookup of deliveries when only public addresses may be reached: a name's other addresses are left out. */
const publicLookup = lookupFrom(async (name, family) => {
  const found = await resolveHost(name, family);
  const usable = found.filter((each) => isPublicAddress(each.address));
  if (found.length && !usable.length) throw new NotPublic();
  return usable;
});

/** The `lookup` a delivery's connection uses (bounded DNS on the event loop in both cases, see @rex/dns). */
export const deliveryLookup = (allowPrivate: boolean): net.LookupFunction => (allowPrivate ? lookupHost : publicLookup);
