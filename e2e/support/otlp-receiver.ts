// A minimal OTLP/HTTP (JSON) trace receiver on loopback: the services export
// their spans here during the e2e run, and tests read a trace's back with GET /spans?traceId=….
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedSpan = { service: string; traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes: Record<string, unknown> };

type OtlpAttribute = { key: string; value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number } };

type OtlpExport = {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }[] }[];
  }[];
};

export async function startOtlpReceiver(): Promise<{ url: string; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (req.method === 'GET' && url.pathname === '/spans') {
      const traceId = url.searchParams.get('traceId');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(traceId ? spans.filter((span) => span.traceId === traceId) : spans));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              const attributes = Object.fromEntries((span.attributes ?? []).map((a) => [a.key, a.value.stringValue ?? a.value.intValue ?? a.value.boolValue ?? a.value.doubleValue]));
              spans.push({ service, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId, name: span.name, kind: span.kind, attributes });
            }
          }
        }
      } catch {
        // Not JSON: ignore, the test reading spans will fail on what is missing.
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
