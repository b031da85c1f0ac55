// One question at a time: approvals and the servers' input dialogs wait their turn in one queue, so
// a question asked while another is open never replaces it (both settle, in the order asked).
export class AskQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `ask` once every question queued before it has settled; its result, or its rejection. */
  run<T>(ask: () => Promise<T>): Promise<T> {
    const turn = this.tail.then(ask);
    this.tail = turn.catch(() => {});
    return turn;
  }
}
