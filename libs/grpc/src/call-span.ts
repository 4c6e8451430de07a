import type * as grpc from '@grpc/grpc-js';
import { status } from '@grpc/grpc-js';
import { clientSpan, endSpan, serverSpan, type Span } from '@rex/telemetry';

const described = (service: string, method: string) => () => ({
  name: `${service}/${method}`,
  attributes: { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method },
});

/** The span of a call this process makes, when the work it is made for is traced; its trace context goes into `metadata`. */
export function callerSpan(service: string, method: string, metadata: grpc.Metadata): Span | undefined {
  return clientSpan(described(service, method), (key, value) => metadata.set(key, value));
}

/** The span of a call this process serves, when its caller's trace is sampled (a call never starts a trace). */
export function calleeSpan(call: { metadata: grpc.Metadata }, service: string, method: string): Span | undefined {
  return serverSpan(
    (name) => {
      const values = call.metadata.get(name);
      return values.length === 1 ? String(values[0]) : undefined;
    },
    described(service, method),
    false,
  );
}

/** Ends the span of a call (of either side) with the code it ended with; any code but OK is an error. */
export function endCallSpan(span: Span | undefined, code: grpc.status): void {
  endSpan(span, { attributes: { 'rpc.grpc.status_code': code }, error: code === status.OK ? undefined : status[code] });
}
