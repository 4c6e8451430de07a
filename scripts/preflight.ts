// Whether a suite may start here, decided before anything is started: one
// suite per data directory, and the ports it was told to use must be free.
import { createServer } from 'node:net';
import { runningSuite } from '@rex/admin';

/** A start that must not go ahead; its message says why and what to do. */
export class StartRefused extends Error {}

/** Refuses when a suite of this data directory is running (its launcher lives and its gateway answers). */
export async function refuseSecondSuite(dataDir: string): Promise<void> {
  const suite = runningSuite(dataDir);
  if (!suite) return;
  // A launcher killed outright leaves its file behind, and its process id may since belong to another process.
  const answers = await fetch(`${suite.gatewayUrl}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
    () => true,
    () => false,
  );
  if (!answers) return;
  const port = new URL(suite.gatewayUrl).port;
  throw new StartRefused(
    `rex is already running from ${dataDir}: PID ${suite.pid}, gateway on port ${port} (${suite.gatewayUrl}). ` +
      `Use that one, stop it first (Ctrl+C in its terminal, or kill ${suite.pid}), or start another with its own REX_DATA_DIR and GATEWAY_PORT`,
  );
}

function inUse(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(true) : reject(error)));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(false)));
  });
}

/** Refuses when one of the fixed ports is taken, naming the variable that moves it. */
export async function refuseBusyPorts(ports: { port: number | undefined; host: string; variable: string }[]): Promise<void> {
  for (const { port, host, variable } of ports) {
    if (!port) continue;
    if (await inUse(host, port)) {
      throw new StartRefused(`port ${port} is in use by another program; stop it, or set ${variable} to a free port`);
    }
  }
}
