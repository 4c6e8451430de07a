/** The retry schedule of a failing delivery. */
export type Backoff = { baseMs: number; maxMs: number };

/**
 * How long to wait after the `failures`-th failure in a row: the base doubled
 * for each earlier failure, at most `maxMs`, of which a random part up to half
 * is taken off ("equal jitter"), so receivers that fail together are not all
 * retried at once. With the defaults (10 s doubling to 1 h) a day holds about
 * 40 attempts.
 */
export function backoffMs(failures: number, schedule: Backoff, random: () => number = Math.random): number {
  const full = Math.min(schedule.baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 40), schedule.maxMs);
  return Math.round(full / 2 + (full / 2) * random());
}
