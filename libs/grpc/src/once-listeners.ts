/** Listeners told once, all together, of an end (a call's, a client's); each may leave before. */
export class OnceListeners {
  private readonly listeners: (() => void)[] = [];

  /** Adds `listener`; the function returned takes it off again. */
  add(listener: () => void): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  /** Tells every listener still there, and forgets them. */
  tell(): void {
    for (const listener of this.listeners.splice(0)) listener();
  }
}
