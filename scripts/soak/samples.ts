// What the soak watches in every process, read from its Prometheus /metrics
// (prom-client's default metrics and the suite's own).
export type ProcessSample = {
  rssMb: number;
  heapMb: number;
  eventLoopP99Ms: number;
  openFds: number;
  handles: number;
  poolWaiting: number;
};

const metric = (text: string, name: string): number[] =>
  [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, 'gm'))].map((match) => Number(match[1]));
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

export async function sampleProcess(metricsUrl: string): Promise<ProcessSample | undefined> {
  const text = await fetch(metricsUrl, { signal: AbortSignal.timeout(5_000) }).then((answer) => answer.text(), () => undefined);
  if (!text) return undefined;
  return {
    rssMb: sum(metric(text, 'process_resident_memory_bytes')) / 2 ** 20,
    heapMb: sum(metric(text, 'nodejs_heap_size_used_bytes')) / 2 ** 20,
    eventLoopP99Ms: sum(metric(text, 'nodejs_eventloop_lag_p99_seconds')) * 1000,
    openFds: sum(metric(text, 'process_open_fds')),
    handles: sum(metric(text, 'nodejs_active_handles_total')),
    poolWaiting: sum(metric(text, 'rex_db_pool_waiting')),
  };
}

export async function projectorSecondsBehind(metricsUrl: string): Promise<number> {
  const text = await fetch(metricsUrl, { signal: AbortSignal.timeout(5_000) }).then((answer) => answer.text(), () => '');
  return sum(metric(text, 'reports_projector_seconds_behind'));
}

/** Least-squares slope of `values` per minute, the samples being `intervalS` apart. */
export function slopePerMinute(values: number[], intervalS: number): number {
  const n = values.length;
  if (n < 2) return 0;
  const xs = values.map((_, index) => (index * intervalS) / 60);
  const meanX = sum(xs) / n;
  const meanY = sum(values) / n;
  const numerator = sum(xs.map((x, index) => (x - meanX) * (values[index] - meanY)));
  const denominator = sum(xs.map((x) => (x - meanX) ** 2));
  return denominator ? numerator / denominator : 0;
}
