import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import client from 'prom-client';

export const registry = new client.Registry();
/**
 * The event loop's delay is sampled every 100 ms, not every 10 (prom-client's default): each sample
 * is a timer that wakes an idle process, and a hundred a second in every process was most of what
 * an idle suite did (decision 0038). A blocked loop still shows in the percentiles.
 */
const EVENT_LOOP_SAMPLE_MS = 100;
client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });

/** Seconds; up to the longest calls (uploads and report downloads run for minutes). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export const httpDuration = new client.Histogram({
  name: 'http_server_request_duration_seconds',
  help: 'HTTP requests served by the gateway, by route template',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [],
});

export const grpcHandled = new client.Counter({
  name: 'grpc_server_handled_total',
  help: 'gRPC calls completed by the server',
  labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] as const,
  registers: [],
});

export const grpcDuration = new client.Histogram({
  name: 'grpc_server_handling_seconds',
  help: 'Time to handle a gRPC call',
  labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [],
});

export const grpcClientDuration = new client.Histogram({
  name: 'grpc_client_handling_seconds',
  help: 'Time for a gRPC call made by this process to complete',
  labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [],
});

/** Calls a service is handling now (streams included), by method. */
export const grpcInFlight = new client.Gauge({
  name: 'grpc_server_calls_in_flight',
  help: 'gRPC calls being handled by the server',
  labelNames: ['grpc_service', 'grpc_method'] as const,
  registers: [],
});

/** Requests the gateway is serving now. */
export const httpInFlight = new client.Gauge({
  name: 'http_server_requests_in_flight',
  help: 'HTTP requests being served by the gateway',
  registers: [],
});

type PoolLike = { totalCount: number; idleCount: number; waitingCount: number; options: { max?: number } };
const pools = new Map<string, PoolLike>();

const poolConnections = new client.Gauge({
  name: 'rex_db_pool_connections',
  help: 'Database connections of each pool, in use (checked out) or idle',
  labelNames: ['pool', 'state'] as const,
  registers: [],
  collect() {
    this.reset();
    for (const [name, pool] of pools) {
      this.set({ pool: name, state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ pool: name, state: 'idle' }, pool.idleCount);
    }
  },
});

const poolWaiting = new client.Gauge({
  name: 'rex_db_pool_waiting',
  help: 'Queries waiting for a connection of each pool (saturation)',
  labelNames: ['pool'] as const,
  registers: [],
  collect() {
    this.reset();
    for (const [name, pool] of pools) this.set({ pool: name }, pool.waitingCount);
  },
});

const poolMax = new client.Gauge({
  name: 'rex_db_pool_max',
  help: 'Most connections each pool may open (DB_POOL_MAX), for utilisation',
  labelNames: ['pool'] as const,
  registers: [],
  collect() {
    this.reset();
    for (const [name, pool] of pools) this.set({ pool: name }, pool.options.max ?? 10);
  },
});

/** Exposes a database pool's use and saturation, labelled with `name` (one per pool of a process). */
export function watchPool(name: string, pool: PoolLike): void {
  use(poolConnections);
  use(poolWaiting);
  use(poolMax);
  pools.set(name, pool);
}

/** Drops a pool from the metrics (it was ended). */
export function unwatchPool(name: string, pool: PoolLike): void {
  if (pools.get(name) === pool) pools.delete(name);
}

const buildInfo = new client.Gauge({
  name: 'rex_build_info',
  help: 'Always 1; labels say which rex service, version and Node.js run here',
  labelNames: ['service', 'version', 'nodejs'] as const,
  registers: [],
});

/** Sets rex_build_info for this process: the version comes from REX_VERSION (images set it). */
export function setBuildInfo(service: string, version = process.env.REX_VERSION ?? 'dev'): void {
  use(buildInfo).set({ service, version, nodejs: process.version }, 1);
}

/** Registers a metric once, however many modules ask for it. */
export function use<M extends client.Metric>(metric: M): M {
  const name = (metric as unknown as { name: string }).name;
  if (!registry.getSingleMetric(name)) registry.registerMetric(metric);
  return metric;
}

export { client as prom };

/** Serves GET /metrics on its own port, away from client traffic. */
export async function startMetricsServer(port: number, host = '127.0.0.1'): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': registry.contentType });
          res.end(text);
        },
        () => {
          res.writeHead(500).end();
        },
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return { server, port: (server.address() as AddressInfo).port };
}
