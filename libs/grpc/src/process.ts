import v8 from 'node:v8';
import { setBuildInfo, startMetricsServer, stopTracing } from '@rex/telemetry';
import type { Logger } from '@rex/logger';
import { collectWhenIdle } from './idle-collection.ts';

/** The settings of @rex/config's CommonEnv that running a process reads. */
export type ProcessSettings = { METRICS_PORT: number; METRICS_HOST?: string; SHUTDOWN_DELAY_MS: number; SHUTDOWN_TIMEOUT_MS: number; HEAP_GROWING_PERCENT?: number; IDLE_COLLECTION_MS?: number };

const mebibytes = (bytes: number) => Math.round(bytes / 2 ** 20);

/**
 * How far the heap grows between full collections. V8 derives it from the heap limit, and under
 * the limits the charts set (a few hundred MiB) it lets the heap grow by little, so a process whose
 * live heap is tens of MiB runs a full collection several times as often as without a limit. The
 * flag is read at each collection, so it can be set once the process runs; NODE_OPTIONS does not
 * take it.
 */
export function applyHeapGrowing(percent: number | undefined): void {
  if (percent) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * Runs a process's service: serves /metrics, starts the service, and on
 * SIGTERM or SIGINT stops it (it drains), then the metrics server and
 * tracing, and exits. A signal is honoured from the first moment: one that
 * comes while the service is still starting (waiting for its database, say)
 * exits at once, as nothing is being served yet. A service that cannot start
 * exits 1 with the reason. A stop still running 5 s past its drain's limit
 * (SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS) is cut (exit 1). Once a burst of work is over, the
 * process gives back the memory it took (IDLE_COLLECTION_MS, see idle-collection.ts).
 */
export async function runService(options: {
  name: string;
  logger: Logger;
  settings: ProcessSettings;
  start: () => Promise<{ stop: () => Promise<void> }>;
}): Promise<void> {
  const { logger, settings } = options;
  applyHeapGrowing(settings.HEAP_GROWING_PERCENT);
  const idle = settings.IDLE_COLLECTION_MS
    ? collectWhenIdle({
        idleMs: settings.IDLE_COLLECTION_MS,
        onCollected: (before, after, ms) => logger.debug({ residentMiB: { before: mebibytes(before), after: mebibytes(after) }, ms: Math.round(ms) }, 'collected while idle'),
      })
    : undefined;
  let service: { stop: () => Promise<void> } | undefined;
  let metrics: Awaited<ReturnType<typeof startMetricsServer>> | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, service ? 'shutting down' : 'stopped while starting');
    // Whatever the stop waits on (a pool whose clients are never released, say), the process ends in time.
    setTimeout(() => {
      logger.fatal({ signal }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, settings.SHUTDOWN_DELAY_MS + settings.SHUTDOWN_TIMEOUT_MS + 5_000).unref();
    idle?.stop();
    await service?.stop();
    metrics?.server.close();
    await stopTracing();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  setBuildInfo(options.name);
  metrics = await startMetricsServer(settings.METRICS_PORT, settings.METRICS_HOST);
  const started = await options.start().catch((error: unknown) => {
    logger.fatal({ err: error }, `${options.name} failed to start`);
    process.exit(1);
  });
  if (stopping) {
    // The signal came while starting: stop what just started too.
    await started.stop();
    return;
  }
  service = started;
  logger.info({ metricsPort: metrics.port }, `${options.name} ready`);
}
