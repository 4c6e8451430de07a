import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientSpan, endSpan, inSpan, samplerOf, serverSpan, traceIds } from '../../src/spans.ts';
import { startTracing, stopTracing } from '../../src/tracing.ts';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const sampledParent = `00-${TRACE}-00f067aa0ba902b7-01`;
const unsampledParent = `00-${TRACE}-00f067aa0ba902b7-00`;

describe('the sampler the OTEL_TRACES_SAMPLER variables describe', () => {
  const never = () => 0.999_999;
  const always = () => 0;

  it('when no sampler is set, then every root is sampled and a parent decides for its children (parentbased_always_on)', () => {
    const sample = samplerOf({}, never);
    expect([sample(undefined), sample(true), sample(false)]).toEqual([true, true, false]);
  });

  it('when parentbased_traceidratio is set, then roots are sampled at the ratio and children follow their parent', () => {
    let next = 0.05;
    const sample = samplerOf({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }, () => next);
    expect(sample(undefined)).toBe(true);
    next = 0.15;
    expect(sample(undefined)).toBe(false);
    expect([sample(true), sample(false)]).toEqual([true, false]);
  });

  it('when the ratio is 0, or always_off is set, then no root is sampled; a ratio that is not in [0, 1] counts as 1', () => {
    expect(samplerOf({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' }, always)(undefined)).toBe(false);
    expect(samplerOf({ OTEL_TRACES_SAMPLER: 'always_off' }, always)(true)).toBe(false);
    expect(samplerOf({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, always)(true)).toBe(true);
    expect(samplerOf({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '7' }, never)(undefined)).toBe(true);
    expect(samplerOf({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'half' }, never)(undefined)).toBe(true);
  });

  it('when a sampler that is not offered is named, then the default applies', () => {
    const sample = samplerOf({ OTEL_TRACES_SAMPLER: 'jaeger_remote' }, never);
    expect([sample(undefined), sample(false)]).toEqual([true, false]);
  });
});

describe('spans of sampled requests only', () => {
  const exporter = new InMemorySpanExporter();

  beforeAll(async () => {
    // Roots are never sampled here: a trace exists only where a client's traceparent asks for it.
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'parentbased_traceidratio');
    vi.stubEnv('OTEL_TRACES_SAMPLER_ARG', '0');
    await startTracing(exporter);
  });
  afterAll(async () => {
    await stopTracing();
    vi.unstubAllEnvs();
  });
  beforeEach(() => exporter.reset());

  const fields = (traceparent?: string) => (name: string) => (name === 'traceparent' ? traceparent : undefined);
  const finished = async () => {
    await new Promise((resolve) => setTimeout(resolve, 250));
    return exporter.getFinishedSpans();
  };

  it('when a request is not sampled, then no span is made for it, and the calls it makes carry no trace context', async () => {
    const written: string[] = [];
    for (const traceparent of [undefined, unsampledParent, 'garbage']) {
      const span = serverSpan(fields(traceparent), () => ({ name: 'GET', attributes: {} }), true);
      expect(span).toBeUndefined();
      inSpan(span, () => expect(clientSpan(() => ({ name: 'records.v1.RecordsService/GetSample', attributes: {} }), (key) => written.push(key))).toBeUndefined());
    }
    expect(written).toEqual([]);
    expect(await finished()).toEqual([]);
  });

  it('when a client sends a sampled traceparent, then its request, and each call the request makes, are spans of its trace, and the callee is told the trace', async () => {
    const written = new Map<string, string>();
    const server = serverSpan(fields(sampledParent), () => ({ name: 'GET', attributes: { 'url.path': '/samples/1' } }), true);
    expect(server).toBeDefined();
    // Work continued later (a callback, an awaited promise) is still the request's.
    await inSpan(server, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const client = clientSpan(() => ({ name: 'records.v1.RecordsService/GetSample', attributes: { 'rpc.system': 'grpc' } }), (key, value) => written.set(key, value));
      endSpan(client, { attributes: { 'rpc.grpc.status_code': 0 } });
    });
    endSpan(server, { name: 'GET /samples/:id', attributes: { 'http.response.status_code': 500 }, error: '500' });

    const spans = await finished();
    expect(spans.map((span) => span.name).sort()).toEqual(['GET /samples/:id', 'records.v1.RecordsService/GetSample']);
    const [request, call] = [spans.find((span) => span.name.startsWith('GET'))!, spans.find((span) => span.name.startsWith('records'))!];
    expect(request.spanContext().traceId).toBe(TRACE);
    expect(request.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(request.status.code).toBe(2);
    expect(call.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(written.get('traceparent')).toBe(`00-${TRACE}-${call.spanContext().spanId}-01`);
  });

  it('when a call arrives inside the suite, then it continues its caller\'s sampled trace and never starts one of its own', async () => {
    expect(serverSpan(fields(undefined), () => ({ name: 'records.v1.RecordsService/GetSample', attributes: {} }), false)).toBeUndefined();
    expect(serverSpan(fields(unsampledParent), () => ({ name: 'records.v1.RecordsService/GetSample', attributes: {} }), false)).toBeUndefined();
    const callee = serverSpan(fields(sampledParent), () => ({ name: 'records.v1.RecordsService/GetSample', attributes: {} }), false);
    endSpan(callee, {});
    expect((await finished()).map((span) => span.spanContext().traceId)).toEqual([TRACE]);
  });

  it('when a log line is written under a traced request, then it names the trace and the span; outside one, nothing', async () => {
    expect(traceIds()).toBeUndefined();
    const server = serverSpan(fields(sampledParent), () => ({ name: 'GET', attributes: {} }), true)!;
    const ids = inSpan(server, () => traceIds());
    expect(ids).toEqual({ trace_id: TRACE, span_id: server.spanContext().spanId, trace_flags: '01' });
    expect(inSpan(serverSpan(fields(unsampledParent), () => ({ name: 'GET', attributes: {} }), true), () => traceIds())).toBeUndefined();
    endSpan(server, {});
  });
});
