// Spans made only for the requests that are sampled. A trace starts where an HTTP
// request reaches the gateway: the sampler decides there, once, before any span
// exists; a request it leaves out costs one random number, and every process after
// it (which is told nothing) makes no span and carries no context for it. A sampled
// request's spans are made by hand, at the few places a request crosses a
// boundary: the HTTP server, each gRPC call on both sides, each SQL statement.
// Nothing is patched: no module is rewritten or wrapped for tracing.
import type * as OtelApi from '@opentelemetry/api';
import type { Context, Span, Tracer } from '@opentelemetry/api';

/** Whether a new trace is sampled, given its parent's decision (undefined at a root). */
export type SamplingDecision = (parentSampled: boolean | undefined) => boolean;

type Tracing = { api: typeof OtelApi; tracer: Tracer; sample: SamplingDecision };

/** Set while tracing runs (see tracing.ts); while it is not, every function below returns at once. */
let tracing: Tracing | undefined;

export function useTracing(value: Tracing | undefined): void {
  tracing = value;
}

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

/**
 * The decision OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG describe, as the
 * OpenTelemetry specification defines those variables (parentbased_always_on
 * when unset; a ratio that is not a number in [0, 1] counts as 1). A root is
 * sampled at random with the ratio's probability. Samplers that need a remote
 * service (jaeger_remote, xray) are not offered: the default applies.
 */
export function samplerOf(env: NodeJS.ProcessEnv = process.env, random: () => number = Math.random): SamplingDecision {
  const requested = (env.OTEL_TRACES_SAMPLER ?? '').trim().toLowerCase();
  const name = SAMPLERS.includes(requested) ? requested : 'parentbased_always_on';
  const argument = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
  const ratio = env.OTEL_TRACES_SAMPLER_ARG?.trim() && argument >= 0 && argument <= 1 ? argument : 1;
  const root: () => boolean =
    name.endsWith('always_on') ? () => true : name.endsWith('always_off') ? () => false : () => ratio > 0 && random() < ratio;
  if (!name.startsWith('parentbased_')) return () => root();
  return (parentSampled) => (parentSampled === undefined ? root() : parentSampled);
}

/** Reads propagation fields (traceparent, tracestate) from where a request carries them. */
export type Fields = (name: string) => string | undefined;

/** The context a request's fields continue, and whether their trace is sampled (undefined without a valid parent). */
function continued(t: Tracing, fields: Fields): { parent: Context; sampled: boolean | undefined } {
  const { api } = t;
  if (fields('traceparent') === undefined) return { parent: api.ROOT_CONTEXT, sampled: undefined };
  const parent = api.propagation.extract(api.ROOT_CONTEXT, fields, {
    keys: () => ['traceparent', 'tracestate'],
    get: (carrier, key) => carrier(key),
  });
  const spanContext = api.trace.getSpanContext(parent);
  if (!spanContext || !api.trace.isSpanContextValid(spanContext)) return { parent: api.ROOT_CONTEXT, sampled: undefined };
  return { parent, sampled: (spanContext.traceFlags & api.TraceFlags.SAMPLED) === api.TraceFlags.SAMPLED };
}

export type { Span };

export type SpanAttributes = Record<string, string | number | boolean>;

/** What a span is called and what it says from its start; asked for only when the span is made. */
export type SpanDescription = { name: string; attributes: SpanAttributes };

/** The context of the traced work running now, when there is some (a recording span in it). */
function tracedContext(t: Tracing): Context | undefined {
  const active = t.api.context.active();
  return t.api.trace.getSpan(active)?.isRecording() ? active : undefined;
}

/**
 * A span for a request that has reached a server, when its trace is sampled. At
 * the edge (`edge`: an HTTP request from outside) the sampler decides, given the
 * client's traceparent if it sent one. Inside the suite (a gRPC call) the edge
 * has decided: a call continues its caller's trace when that is sampled, and
 * is not traced otherwise.
 */
export function serverSpan(fields: Fields, describe: () => SpanDescription, edge: boolean): Span | undefined {
  const t = tracing;
  if (!t) return undefined;
  const { parent, sampled } = continued(t, fields);
  if (!(edge ? t.sample(sampled) : sampled === true)) return undefined;
  const { name, attributes } = describe();
  return t.tracer.startSpan(name, { kind: t.api.SpanKind.SERVER, attributes }, parent);
}

/** Runs `fn` under `span` (the calls and queries it makes become the span's children); without a span, just runs it. */
export function inSpan<T>(span: Span | undefined, fn: () => T): T {
  const t = tracing;
  if (!t || !span) return fn();
  return t.api.context.with(t.api.trace.setSpan(t.api.context.active(), span), fn);
}

/**
 * `callback`, made to run in the traced work that is running now (if any) wherever it is later
 * called from: a pool that answers a waiting caller from another's release would otherwise run
 * it in the releaser's. Untraced work gets `callback` itself.
 */
export function keepingTrace<F extends (...args: never[]) => unknown>(callback: F): F {
  const t = tracing;
  const traced = t && tracedContext(t);
  return traced ? t.api.context.bind(traced, callback) : callback;
}

/**
 * A span for a call this process makes to another (a gRPC call, an SQL statement),
 * when the work it is made for is traced. Given `set`, the call's fields
 * (traceparent, tracestate) are written with it so that the callee continues the
 * trace. Undefined, and nothing written, otherwise.
 */
export function clientSpan(describe: () => SpanDescription, set?: (name: string, value: string) => void): Span | undefined {
  const t = tracing;
  const traced = t && tracedContext(t);
  if (!traced) return undefined;
  const { name, attributes } = describe();
  const span = t.tracer.startSpan(name, { kind: t.api.SpanKind.CLIENT, attributes }, traced);
  if (set) t.api.propagation.inject(t.api.trace.setSpan(traced, span), set, { set: (carrier, key, value) => carrier(key, value) });
  return span;
}

/** The ids of the traced work running now, for its log lines (as OpenTelemetry names them in logs); undefined outside one. */
export function traceIds(): { trace_id: string; span_id: string; trace_flags: string } | undefined {
  const t = tracing;
  const traced = t && tracedContext(t);
  if (!traced) return undefined;
  const { traceId, spanId, traceFlags } = t.api.trace.getSpanContext(traced)!;
  return { trace_id: traceId, span_id: spanId, trace_flags: traceFlags.toString(16).padStart(2, '0') };
}

/** How a span ended: what it learnt meanwhile (its final name, attributes), and the error it ended with, if any. */
export type SpanEnd = { name?: string; attributes?: SpanAttributes; error?: string };

export function endSpan(span: Span | undefined, end: SpanEnd): void {
  const t = tracing;
  if (!t || !span) return;
  if (end.name) span.updateName(end.name);
  if (end.attributes) span.setAttributes(end.attributes);
  if (end.error !== undefined) span.setStatus({ code: t.api.SpanStatusCode.ERROR, message: end.error });
  span.end();
}
