// The session's token usage as the app shows it (status bar, /usage): each model turn's tokens and
// the session's sum. A small external store of its own (useSyncExternalStore), kept out of the
// conversation state so /clear clears the screen but not what the session has cost.
import { addUsage, NO_USAGE, type TokenUsage } from "../model/usage.js";

export interface TurnUsage {
  /** The turn's number among the model turns of this session (1, 2, …). */
  n: number;
  /** The prompt, as typed (sanitized where it is drawn). */
  prompt: string;
  usage: TokenUsage;
  requests: number;
}

export interface UsageSnapshot {
  session: TokenUsage;
  /** The last model turn's, while it runs and after. */
  last?: TurnUsage;
  /** The last model request's own usage: its input is what the conversation fills of the window now. */
  lastRequest?: TokenUsage;
  turns: readonly TurnUsage[];
}

/** Turns kept for /usage (the session's sum counts them all). */
export const KEPT_TURNS = 200;

export class UsageMeter {
  private snap: UsageSnapshot = { session: NO_USAGE, turns: [] };
  private readonly listeners = new Set<() => void>();
  private count = 0;

  readonly subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  readonly snapshot = (): UsageSnapshot => this.snap;

  /** A model turn starts: its tokens are counted from zero. */
  startTurn(prompt: string): void {
    const turn: TurnUsage = {
      n: ++this.count,
      prompt: prompt.length > 200 ? `${prompt.slice(0, 199)}…` : prompt,
      usage: NO_USAGE,
      requests: 0,
    };
    this.set({ ...this.snap, last: turn, turns: [...this.snap.turns, turn].slice(-KEPT_TURNS) });
  }

  /** One model request of the running turn answered with these tokens. */
  add(usage: TokenUsage): void {
    const prev = this.snap.last ?? { n: ++this.count, prompt: "", usage: NO_USAGE, requests: 0 };
    const last: TurnUsage = { ...prev, usage: addUsage(prev.usage, usage), requests: prev.requests + 1 };
    const turns =
      this.snap.turns.length && this.snap.turns[this.snap.turns.length - 1].n === last.n
        ? [...this.snap.turns.slice(0, -1), last]
        : [...this.snap.turns, last].slice(-KEPT_TURNS);
    this.set({ session: addUsage(this.snap.session, usage), last, turns, lastRequest: usage });
  }

  private set(s: UsageSnapshot): void {
    this.snap = s;
    for (const fn of this.listeners) fn();
  }
}
