import { createPool, superviseDatabase, type Pool } from '@rex/db';
import { startGrpcServer, type GrpcServer } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import { recordsV1 } from '@rex/protos';
import type { RecordsConfig } from './config.ts';
import { SCHEMA, migrations } from './db/migrations.ts';
import { sampleHandlers } from './handlers/samples.ts';
import { createReferenceData } from './db/reference-repo.ts';
import { createSamples } from './samples.ts';
import { occurrenceHandlers } from './handlers/occurrences.ts';
import { createOccurrences } from './occurrences.ts';
import { locationHandlers } from './handlers/locations.ts';
import { createLocations } from './locations.ts';
import { surveyHandlers } from './handlers/surveys.ts';
import { createSurveys } from './surveys.ts';

export const SERVICE_NAME = 'records.v1.RecordsService';

export type RecordsServer = { port: number; stop: () => Promise<void> };

/**
 * Serves RecordsService. Health reports the service NOT_SERVING until the
 * database is reachable and migrated, and again whenever it stops answering.
 */
export async function startRecordsServer(config: RecordsConfig, logger: Logger): Promise<RecordsServer> {
  const pool: Pool = createPool(config.DATABASE_URL, { max: config.DB_POOL_MAX, applicationName: 'rex-records' });
  const reference = createReferenceData(pool, config.REFERENCE_CACHE_TTL_MS);
  const grpcServer: GrpcServer = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    services: [
      {
        name: SERVICE_NAME,
        definition: recordsV1.RecordsService.service,
        handlers: {
          ...sampleHandlers(createSamples(pool, reference), logger),
          ...occurrenceHandlers(createOccurrences(pool, reference), logger),
          ...locationHandlers(createLocations(pool), logger),
          ...surveyHandlers(createSurveys(pool, reference), logger),
        },
      },
    ],
  });
  logger.info({ port: grpcServer.port }, 'records gRPC server listening');

  let stopping = false;
  const database = await superviseDatabase({
    pool,
    schema: SCHEMA,
    migrations: migrations(),
    logger,
    setReady: (ready) => {
      if (!stopping) grpcServer.health.setStatus(SERVICE_NAME, ready ? 'SERVING' : 'NOT_SERVING');
    },
  });

  return {
    port: grpcServer.port,
    async stop(timeoutMs = config.SHUTDOWN_TIMEOUT_MS) {
      stopping = true;
      database.stop();
      grpcServer.health.setStatus(SERVICE_NAME, 'NOT_SERVING');
      if (config.SHUTDOWN_DELAY_MS) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DELAY_MS));
      await grpcServer.drain(timeoutMs);
      await pool.end();
    },
  };
}
