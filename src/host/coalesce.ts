// A burst of triggers (a server's 2,000 `list_changed` notifications) becomes at most one run in
// flight and one pending per key: the run after the burst sees every change, and no more.
export class Coalescer {
  private readonly states = new Map<string, { pending: boolean }>();

  /** Runs `run` now, or once more after the run in flight (however many triggers came meanwhile). */
  trigger(key: string, run: () => Promise<unknown>): void {
    const busy = this.states.get(key);
    if (busy) {
      busy.pending = true;
      return;
    }
    const state = { pending: false };
    this.states.set(key, state);
    void (async () => {
      do {
        state.pending = false;
        await run().catch(() => undefined);
      } while (state.pending);
      this.states.delete(key);
    })();
  }
}
