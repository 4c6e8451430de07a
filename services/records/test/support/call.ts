import type { CallScope } from '@rex/grpc';

/** The scope of a call that ends when told to, with the deadline it is given. */
export class Call implements CallScope {
  ended = false;
  readonly deadline: number | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(deadline?: number) {
    this.deadline = deadline;
  }

  onEnd(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  end(): void {
    this.ended = true;
    for (const listener of [...this.listeners]) listener();
  }
}
