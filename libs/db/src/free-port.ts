// Ports for processes the caller is about to start. A port is picked below the
// kernel's ephemeral range: the kernel hands ports of that range to every
// port-0 bind (metrics servers) and to every outgoing connection (pools,
// channels), and any of those, made between picking a port and binding it,
// could take a port picked inside the range. None can take one below it.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { platform } from 'node:os';

/** How many ports below the ephemeral range are picked from. */
const SPAN = 10_000;
/** Ports handed out by this process lately: two picks in a row never return the same port. */
const recent = new Set<number>();

/** The first port of the range the kernel picks ephemeral ports from. */
export function ephemeralRangeStart(): number {
  if (platform() === 'linux') {
    try {
      const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
      if (Number.isInteger(low) && low > 0) return low;
    } catch {
      // No /proc: the kernel's default.
    }
    return 32_768;
  }
  return 49_152;
}

function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

function kernelPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A port free on `host` now, which nothing the kernel assigns meanwhile can take. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const top = ephemeralRangeStart();
  const bottom = Math.max(1024, top - SPAN);
  // A range configured to start near the privileged ports leaves nothing below it.
  if (top - bottom < 1000) return kernelPort(host);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = bottom + Math.floor(Math.random() * (top - bottom));
    if (recent.has(port) || !(await bindable(port, host))) continue;
    recent.add(port);
    if (recent.size > 1000) recent.delete(recent.values().next().value!);
    return port;
  }
  return kernelPort(host);
}
