import { describe, expect, it } from 'vitest';
import { decideRestart, type RestartPolicy } from '../restart-policy.ts';

const policy: RestartPolicy = { firstDelayMs: 500, maxDelayMs: 4_000, windowMs: 60_000, maxRestarts: 5 };

describe('when npm start starts a stopped service again', () => {
  it('the first restart comes after the first delay, and each further one within the window waits twice as long, up to the longest delay', () => {
    const delays: number[] = [];
    const restarts: number[] = [];
    for (let now = 0; now < 5_000; now += 1_000) {
      const decision = decideRestart(restarts, now, policy);
      expect(decision.restart).toBe(true);
      if (decision.restart) delays.push(decision.delayMs);
      restarts.push(now);
    }
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 4_000]);
  });

  it('a service that stops again after as many restarts as allowed within the window is given up on', () => {
    expect(decideRestart([0, 1_000, 2_000, 3_000, 4_000], 5_000, policy)).toEqual({ restart: false, recent: 5 });
  });

  it('restarts older than the window are forgiven: a service that ran a while starts again after the first delay', () => {
    expect(decideRestart([0, 1_000, 2_000, 3_000, 4_000], 64_001, policy)).toEqual({ restart: true, delayMs: 500, recent: 0 });
  });
});
