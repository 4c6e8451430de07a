import type { Pool } from '@rex/db';
import { prom, use } from '@rex/telemetry';
import { queueState } from './subscriptions-repo.ts';

export const deliveries = use(
  new prom.Counter({
    name: 'rex_webhook_deliveries_total',
    help: 'Webhook messages by outcome: delivered (2xx), failed (an attempt to retry), dead_lettered (failed for the whole retry window)',
    labelNames: ['outcome'] as const,
    registers: [],
  }),
);

export const attemptSeconds = use(
  new prom.Histogram({
    name: 'rex_webhook_attempt_seconds',
    help: "Time from sending a webhook message to the receiver's answer (or the timeout)",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [],
  }),
);

let source: Pool | undefined;
let measured: { at: number; state: Promise<{ due: number; oldestS: number }> } | undefined;

/** One query per scrape for both gauges; a database that cannot answer leaves them at 0. */
function state(): Promise<{ due: number; oldestS: number }> {
  if (!source) return Promise.resolve({ due: 0, oldestS: 0 });
  if (!measured || Date.now() - measured.at > 1_000) measured = { at: Date.now(), state: queueState(source).catch(() => ({ due: 0, oldestS: 0 })) };
  return measured.state;
}

const due = new prom.Gauge({
  name: 'rex_webhook_subscriptions_due',
  help: 'Active webhook subscriptions due for delivery that no replica is serving yet (the queue, the same in every replica)',
  registers: [],
  async collect() {
    this.set((await state()).due);
  },
});

const oldestDue = new prom.Gauge({
  name: 'rex_webhook_oldest_due_seconds',
  help: 'How long the subscription due longest has waited for a replica (0 when none waits)',
  registers: [],
  async collect() {
    this.set((await state()).oldestS);
  },
});

/** Exposes the delivery queue read from `db`. */
export function watchQueue(db: Pool | undefined): void {
  use(due);
  use(oldestDue);
  source = db;
  measured = undefined;
}
