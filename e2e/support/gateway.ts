// Extra gateway processes with their own REST configuration, in front of the
// suite's records service and database.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { freePort } from '@rex/db';
import { grpcServing } from '../../scripts/suite.ts';

export type ExtraGateway = { url: string; services: string; pid: number; stop: () => void };

/** One service process of its own, on the suite's secret (and silent). */
export function spawnService(name: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--conditions=development', '--disable-warning=ExperimentalWarning', 'src/main.ts'], {
    cwd: fileURLToPath(new URL(`../../services/${name}`, import.meta.url)),
    env: { ...process.env, METRICS_PORT: '0', LOG_LEVEL: 'silent', OTEL_SDK_DISABLED: 'true', INTERNAL_AUTH_SECRET: inject('internalSecret'), ...env },
    stdio: 'ignore',
  });
}

/**
 * A gateway with its own REST configuration (and, with `withSearch` or
 * `withMedia`, its own search or media service reading the same configuration).
 */
export async function startGateway(
  config: Record<string, unknown>,
  env: Record<string, string> = {},
  withSearch = false,
  withMedia = false,
  serviceEnv: Record<string, string> = {},
): Promise<ExtraGateway> {
  const dir = mkdtempSync(join(tmpdir(), 'rex-gateway-'));
  const configFile = join(dir, 'rest.json');
  writeFileSync(configFile, JSON.stringify(config));
  const port = await freePort();
  const searchPort = await freePort();
  const search = withSearch ? spawnService('search', { REX_CONFIG: configFile, GRPC_HOST: '127.0.0.1', GRPC_PORT: String(searchPort), ...serviceEnv }) : undefined;
  const mediaPort = await freePort();
  const media = withMedia
    ? spawnService('media', { REX_CONFIG: configFile, REX_DATA_DIR: dir, DATABASE_URL: inject('databaseUrl'), GRPC_HOST: '127.0.0.1', GRPC_PORT: String(mediaPort), ...serviceEnv })
    : undefined;
  const child: ChildProcess = spawn(process.execPath, ['--conditions=development', '--disable-warning=ExperimentalWarning', 'src/main.ts'], {
    cwd: fileURLToPath(new URL('../../services/gateway', import.meta.url)),
    env: {
      ...process.env,
      SEARCH_ADDR: `127.0.0.1:${searchPort}`,
      DATABASE_URL: inject('databaseUrl'),
      RECORDS_ADDR: inject('recordsAddress'),
      REPORTS_ADDR: inject('reportsAddress'),
      MEDIA_ADDR: withMedia ? `127.0.0.1:${mediaPort}` : inject('mediaAddress'),
      GATEWAY_PORT: String(port),
      METRICS_PORT: '0',
      REX_CONFIG: configFile,
      AUTH_CACHE_TTL_MS: '0',
      INTERNAL_AUTH_SECRET: inject('internalSecret'),
      LOG_LEVEL: 'silent',
      OTEL_SDK_DISABLED: 'true',
      ...env,
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`gateway exited with code ${child.exitCode}`);
    const mediaReady = !media || (await grpcServing(`127.0.0.1:${mediaPort}`, 'media.v1.MediaService'));
    const searchReady = !search || (await grpcServing(`127.0.0.1:${searchPort}`, 'search.v1.SearchService'));
    if (mediaReady && searchReady && (await fetch(`${url}/readyz`).catch(() => undefined))?.ok) {
      const stop = () => {
        child.kill('SIGTERM');
        search?.kill('SIGTERM');
        media?.kill('SIGTERM');
        removeWhenGone(dir, [child, search, media]);
      };
      return { url, services: `${url}/index.php/services/rest`, pid: child.pid!, stop };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  search?.kill('SIGKILL');
  media?.kill('SIGKILL');
  removeWhenGone(dir, [child, search, media]);
  throw new Error('gateway did not become ready');
}

/** Removes a gateway's directory (configuration, media files) once its processes have exited. */
function removeWhenGone(dir: string, processes: (ChildProcess | undefined)[]): void {
  const exits = processes.filter((p): p is ChildProcess => p !== undefined && p.exitCode === null && p.signalCode === null).map((p) => once(p, 'exit'));
  void Promise.all(exits).finally(() => rmSync(dir, { recursive: true, force: true }));
}
