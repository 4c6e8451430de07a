// When `npm start` starts a service again that exited on its own: at once-ish
// the first time, then with a doubling delay, and not at all once it has
// failed too often lately (a crash loop, which restarting cannot cure).
export type RestartPolicy = {
  firstDelayMs: number;
  maxDelayMs: number;
  /** Restarts within this window count towards `maxRestarts`; older ones are forgiven. */
  windowMs: number;
  maxRestarts: number;
};

export const RESTART_POLICY: RestartPolicy = { firstDelayMs: 500, maxDelayMs: 15_000, windowMs: 60_000, maxRestarts: 5 };

export type RestartDecision = { restart: true; delayMs: number; recent: number } | { restart: false; recent: number };

/** What to do about a service that exited at `now`, given the times of its earlier restarts. */
export function decideRestart(restarts: readonly number[], now: number, policy: RestartPolicy = RESTART_POLICY): RestartDecision {
  const recent = restarts.filter((at) => now - at < policy.windowMs).length;
  if (recent >= policy.maxRestarts) return { restart: false, recent };
  return { restart: true, delayMs: Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** recent), recent };
}
