// Starts one suite for all e2e tests: a fresh database (on DATABASE_URL's
// server when given, else an embedded PostgreSQL), records and gateway as
// separate processes exporting traces to a local receiver.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDatabase, dropDatabase, freePort, removeDataDirectory, startEmbeddedPostgres, type EmbeddedDatabase } from '@rex/db';
import { registerSuiteStop } from '../../scripts/coverage-reporter.ts';
import { startSuite } from '../../scripts/suite.ts';
import { startOtlpReceiver } from './otlp-receiver.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    gatewayUrl: string;
    databaseUrl: string;
    recordsAddress: string;
    demoPrivateKey: string;
    otlpUrl: string;
    gatewayMetricsUrl: string;
    recordsMetricsUrl: string;
    reportsMetricsUrl: string;
    mediaMetricsUrl: string;
    searchMetricsUrl: string;
    reportsAddress: string;
    mediaAddress: string;
    dataDir: string;
    internalSecret: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rex-e2e-'));
  const databaseName = `rex_e2e_${Date.now()}_${process.pid}`;
  let embedded: EmbeddedDatabase | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    embedded = await startEmbeddedPostgres({ dataDir });
    serverUrl = embedded.url;
  }
  const databaseUrl = await createDatabase(serverUrl, databaseName);
  const otlp = await startOtlpReceiver();
  const [gatewayMetricsPort, recordsMetricsPort, reportsMetricsPort, mediaMetricsPort, searchMetricsPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const suite = await startSuite({
    dataDir,
    databaseUrl,
    logs: join(dataDir, 'logs'),
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      LOG_LEVEL: 'warn',
      AUTH_CACHE_TTL_MS: '0',
      REFERENCE_CACHE_TTL_MS: '0',
      PROJECTOR_IDLE_MS: '20',
      PROJECTOR_ANALYZE_EVERY_MS: '1000',
      ANALYZE_EVERY_MS: '1000',
      MEDIA_SWEEP_INTERVAL_MS: '200',
      MEDIA_CONFIRM_INTERVAL_MS: '200',
      IDEMPOTENCY_SWEEP_INTERVAL_MS: '200',
      MEDIA_DELETED_GRACE_S: '1',
      // Webhooks are delivered by the gateways the webhook tests start with their own settings; receivers listen on loopback.
      WEBHOOKS_ENABLED: 'false',
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    },
    metricsPorts: { gateway: gatewayMetricsPort, records: recordsMetricsPort, reports: reportsMetricsPort, media: mediaMetricsPort, search: searchMetricsPort },
  });
  project.provide('gatewayUrl', suite.gatewayUrl);
  project.provide('databaseUrl', databaseUrl);
  project.provide('recordsAddress', suite.recordsAddress);
  project.provide('demoPrivateKey', suite.demoPrivateKey);
  project.provide('internalSecret', suite.internalSecret);
  project.provide('otlpUrl', otlp.url);
  project.provide('gatewayMetricsUrl', `http://127.0.0.1:${gatewayMetricsPort}/metrics`);
  project.provide('recordsMetricsUrl', `http://127.0.0.1:${recordsMetricsPort}/metrics`);
  project.provide('reportsMetricsUrl', `http://127.0.0.1:${reportsMetricsPort}/metrics`);
  project.provide('mediaMetricsUrl', `http://127.0.0.1:${mediaMetricsPort}/metrics`);
  project.provide('searchMetricsUrl', `http://127.0.0.1:${searchMetricsPort}/metrics`);
  project.provide('reportsAddress', suite.reportsAddress);
  project.provide('mediaAddress', suite.mediaAddress);
  project.provide('dataDir', dataDir);

  let stopped: Promise<void> | undefined;
  const stopSuite = () => (stopped ??= suite.stop());
  registerSuiteStop(stopSuite);

  return async () => {
    await stopSuite();
    otlp.server.close();
    // REX_KEEP_E2E_DATA keeps the database (on DATABASE_URL's server) and the data directory to look into.
    if (process.env.REX_KEEP_E2E_DATA && !embedded) {
      process.stderr.write(`[e2e] kept database ${databaseName} and ${dataDir}\n`);
      return;
    }
    await dropDatabase(serverUrl, databaseName).catch(() => undefined);
    await embedded?.stop();
    if (!process.env.REX_KEEP_E2E_DATA) removeDataDirectory(dataDir);
  };
}
