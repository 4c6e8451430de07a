import { STATUS_CODES, createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { Invalidation } from '@rex/cache';
import { createPool, followNotifications, superviseDatabase } from '@rex/db';
import { callSecret, superviseReadiness } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import { createApp } from './app.ts';
import { errorBody } from './http-error.ts';
import { SCOPE_TASKS, type Caller } from './auth/caller.ts';
import { AUTH_CHANGED, createDirectory } from './auth/directory.ts';
import { directClient, directUser, directWebsite } from './auth/direct.ts';
import { hmacClient, hmacWebsite } from './auth/hmac.ts';
import { jwtClient } from './auth/jwt-client.ts';
import { jwtUser } from './auth/jwt-user.ts';
import { createReportsClient } from './clients/reports.ts';
import { createSearchClient } from './clients/search.ts';
import { createMediaClient } from './clients/media.ts';
import { mediaQueueRoutes } from './routes/media-queue.ts';
import { mediaRoutes } from './routes/media.ts';
import { DEFAULT_UPLOAD_TURNS, UploadTurns, watchUploadTurns } from './routes/upload-turns.ts';
import { publicFilesRouter } from './routes/public-files.ts';
import { exchangeRoutes } from './routes/exchange.ts';
import { changeRoutes } from './routes/changes.ts';
import { reportRoutes } from './routes/reports.ts';
import { locationRoutes } from './routes/locations.ts';
import { surveyRoutes } from './routes/surveys.ts';
import { occurrenceRoutes } from './routes/occurrences.ts';
import { sampleRoutes } from './routes/samples.ts';
import { searchRoutes } from './routes/search.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { startDelivery } from './webhooks/delivery.ts';
import { watchQueue } from './webhooks/metrics.ts';
import { createRecordsClient } from './clients/records.ts';
import type { GatewayConfig } from './config.ts';
import { SCHEMA, migrations } from './db/migrations.ts';
import { loadRestConfig, type RestConfig } from '@rex/rest-config';
import { redisStore } from './rate-limit.ts';

/** Requests Node's HTTP parser refuses still get the API's JSON error, then the connection closes. */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request did not arrive in time.']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers are too large.']
        : [400, 'The request is not valid HTTP.'];
  const body = JSON.stringify(errorBody(status, message));
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

export type GatewayServer = { port: number; server: Server; stop: () => Promise<void> };

export async function startGateway(config: GatewayConfig, logger: Logger, restConfig: RestConfig = loadRestConfig(config.REX_CONFIG)): Promise<GatewayServer> {
  const pool = createPool(config.DATABASE_URL, { max: config.DB_POOL_MAX, applicationName: 'rex-gateway' });

  const secret = callSecret(config.INTERNAL_AUTH_SECRET);
  // An admin change to the auth schema empties every authentication cache at once (the TTL stays as the safety net).
  const authChanges = new Invalidation();
  const directory = createDirectory(pool, config.AUTH_CACHE_TTL_MS, config.JWKS_CACHE_MS, authChanges);
  const authListener = followNotifications({ url: config.DATABASE_URL, channel: AUTH_CHANGED, onChange: () => authChanges.invalidate(), logger });
  const records = createRecordsClient(config.RECORDS_ADDR, secret, { readMs: config.GRPC_DEADLINE_MS, writeMs: config.GRPC_WRITE_DEADLINE_MS });
  const search = createSearchClient(config.SEARCH_ADDR, secret, config.SEARCH_DEADLINE_MS);
  const reports = createReportsClient(config.REPORTS_ADDR, secret, config.GRPC_DEADLINE_MS, config.REPORT_DEADLINE_MS);
  const media = createMediaClient(config.MEDIA_ADDR, secret, config.UPLOAD_DEADLINE_MS);

  // The database may come later than the gateway (a cluster starts both at once): it is retried, and /readyz says 503 until then.
  const readiness = await superviseReadiness({
    logger,
    database: (hooks) => superviseDatabase({ pool, schema: SCHEMA, migrations: migrations(), applyMigrations: config.MIGRATE_ON_START === 'true', logger, ...hooks }),
  });

  let redisWarned = false;
  const rateLimitStore = config.RATE_LIMIT_REDIS_URL
    ? redisStore(config.RATE_LIMIT_REDIS_URL, (error) => {
        // Logged once per outage: the counters fall back to this process meanwhile.
        if (!redisWarned) logger.warn({ err: error }, 'rate-limit Redis unreachable; counting in this process until it is back');
        redisWarned = true;
      })
    : {};
  rateLimitStore.redis?.on('ready', () => (redisWarned = false));
  // What the services need beyond identity: the websites sharing with the caller's (requests and webhook deliveries alike).
  const completeCaller = async (caller: Caller): Promise<Caller> => {
    const task = SCOPE_TASKS[caller.scope];
    return task && caller.websiteId !== '0' ? { ...caller, sharingWebsiteIds: await directory.sharingWebsites(caller.websiteId, task) } : caller;
  };
  const app = createApp({
    config: restConfig,
    rateLimitStore,
    authenticators: {
      jwtUser: jwtUser(directory, restConfig.claim_namespace, config.AUTH_CACHE_TTL_MS, authChanges),
      jwtClient: jwtClient(directory, restConfig.claim_namespace, config.AUTH_CACHE_TTL_MS, authChanges),
      directClient: directClient(directory, restConfig),
      directUser: directUser(directory),
      directWebsite: directWebsite(directory),
      hmacClient: hmacClient(restConfig),
      hmacWebsite: hmacWebsite(directory),
    },
    completeCaller,
    routes: [
      ...sampleRoutes(records),
      ...occurrenceRoutes(records),
      ...locationRoutes(records),
      ...surveyRoutes(records),
      ...mediaRoutes(records, media),
      ...mediaQueueRoutes(restConfig, media, watchUploadTurns(new UploadTurns({ ...DEFAULT_UPLOAD_TURNS, atOnce: config.UPLOADS_READ_AT_ONCE }))),
      ...reportRoutes(reports, { maxPage: config.REPORT_MAX_PAGE, maxExport: config.REPORT_MAX_EXPORT }),
      ...exchangeRoutes(reports, restConfig.user_id ?? ''),
      ...changeRoutes(reports, config.GRPC_DEADLINE_MS),
      ...webhookRoutes({
        db: pool,
        reports,
        directory,
        completeCaller,
        settings: {
          allowHttp: config.WEBHOOKS_ALLOW_HTTP === 'true',
          allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE === 'true',
          maxPerOwner: config.WEBHOOKS_MAX_PER_OWNER,
          secretOverlapS: config.WEBHOOK_SECRET_OVERLAP_S,
          deadlineMs: config.GRPC_DEADLINE_MS,
        },
      }),
      ...searchRoutes(restConfig, search),
    ],
    logger,
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUSTED_PROXIES,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    isReady: () => readiness.ready,
    bodyTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
    publicFiles: restConfig.media.public_files ? (limits) => publicFilesRouter(media, { maxAgeSeconds: config.PUBLIC_FILES_MAX_AGE_S, limits }) : undefined,
    submissionLimits: { maxRecords: config.SUBMISSION_MAX_RECORDS, maxDepth: config.SUBMISSION_MAX_DEPTH },
  });
  const server = createServer(
    {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      // The server-wide limit is the longest any route allows (an upload's); other routes cut their bodies sooner.
      requestTimeout: Math.max(config.HTTP_REQUEST_TIMEOUT_MS, config.UPLOAD_DEADLINE_MS + 5_000),
      keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      // How often the timeouts above are checked (Node's default, 30 s, lets a slow client hold a socket far longer).
      connectionsCheckingInterval: 1_000,
    },
    app,
  );
  server.maxConnections = config.HTTP_MAX_CONNECTIONS;
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.GATEWAY_PORT, config.GATEWAY_HOST, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, methods: restConfig.methods.map((m) => m.name) }, 'gateway listening');

  watchQueue(pool);
  const delivery =
    config.WEBHOOKS_ENABLED === 'true'
      ? startDelivery(
          { db: pool, databaseUrl: config.DATABASE_URL, directory, completeCaller, reports, logger },
          {
            allowHttp: config.WEBHOOKS_ALLOW_HTTP === 'true',
            allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE === 'true',
            timeoutMs: config.WEBHOOK_TIMEOUT_MS,
            backoff: { baseMs: config.WEBHOOK_BACKOFF_BASE_MS, maxMs: config.WEBHOOK_BACKOFF_MAX_MS },
            retryForS: config.WEBHOOK_RETRY_FOR_S,
            disableAfterS: config.WEBHOOK_DISABLE_AFTER_S,
            leaseS: config.WEBHOOK_LEASE_S,
            idleS: config.WEBHOOK_IDLE_S,
            pollMs: config.WEBHOOK_POLL_MS,
            feedDeadlineMs: config.GRPC_DEADLINE_MS,
          },
        )
      : undefined;

  return {
    port,
    server,
    async stop() {
      readiness.stop();
      // The message in flight is abandoned (not counted as a failure); its lease lets another replica send it.
      const deliveryStopped = delivery?.stop();
      if (config.SHUTDOWN_DELAY_MS) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DELAY_MS));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS);
      await closed;
      clearTimeout(timer);
      rateLimitStore.redis?.disconnect();
      records.close();
      search.close();
      reports.close();
      media.close();
      await authListener.stop();
      await deliveryStopped;
      watchQueue(undefined);
      await pool.end();
    },
  };
}
