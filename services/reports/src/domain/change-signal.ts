/**
 * Wakes long-polling feed readers when the projector has committed a batch
 * (its notification), instead of each reader polling the database.
 */
export class ChangeSignal {
  private readonly waiters = new Set<() => void>();
  /** Set when the service stops: readers answer with what they have. */
  closed = false;

  wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  /** Resolves on the next wake, after `ms`, or when `ended` fires, whichever is first. */
  wait(ms: number, onEnded?: (listener: () => void) => () => void): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        unsubscribe?.();
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.waiters.add(done);
      const unsubscribe = onEnded?.(done);
    });
  }
}
