import { startMetricsServer } from './metrics.ts';
import { stopTracing } from './tracing.ts';

type Logger = { info: (fields: object, message: string) => void; fatal: (fields: object, message: string) => void };

/**
 * Runs a process's service: serves /metrics, starts the service, and on
 * SIGTERM or SIGINT stops it (it drains), then the metrics server and
 * tracing, and exits. A service that cannot start exits 1 with the reason.
 */
export async function runService(options: {
  name: string;
  logger: Logger;
  metricsPort: number;
  metricsHost?: string;
  start: () => Promise<{ stop: () => Promise<void> }>;
}): Promise<void> {
  const { logger } = options;
  const metrics = await startMetricsServer(options.metricsPort, options.metricsHost);
  const service = await options.start().catch((error: unknown) => {
    logger.fatal({ err: error }, `${options.name} failed to start`);
    process.exit(1);
  });
  logger.info({ metricsPort: metrics.port }, `${options.name} ready`);
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    await service.stop();
    metrics.server.close();
    await stopTracing();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
