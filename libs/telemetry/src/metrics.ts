import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import client from 'prom-client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

export const httpDuration = new client.Histogram({
  name: 'http_server_request_duration_seconds',
  help: 'HTTP requests served by the gateway, by route template',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
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
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [],
});

export const grpcClientDuration = new client.Histogram({
  name: 'grpc_client_handling_seconds',
  help: 'Time for a gRPC call made by this process to complete',
  labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [],
});

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
