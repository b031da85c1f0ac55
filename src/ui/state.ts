// The UI's session state: an external store (useSyncExternalStore) the turn loop, the slash
// commands and the keyboard write to, and the components read. It holds what the router put in
// each sink, indexed for drawing; it makes no protocol decisions of its own.
import { jsonBytes } from "../host/result/measure.js";
import { AskQueue } from "../host/call/queue.js";
import type { CallOutcome, Mode, ProgressUpdate, Routed } from "../host/types.js";
import type { ContentBlock } from "../protocol/index.js";
import { sanitizeInline, truncateChars } from "../protocol/sanitize.js";
import { imageRendered } from "./imageCache.js";
import { LIVE_TAIL_MAX, settledPart } from "./live-text.js";
import { outcomeRecord, type TranscriptRecord } from "../host/transcript/record.js";

export type {
  ToolCallView,
  TurnItem,
  Turn,
  ProgrammaticEntry,
  AppEntry,
  Saveable,
  ApprovalAnswer,
  PendingApproval,
  PaneName,
  UiState,
} from "./state-types.js";
import {
  NEWEST_HEAD,
  type ToolCallView,
  type TurnItem,
  type Turn,
  type Saveable,
  type ApprovalAnswer,
  type UiState,
} from "./state-types.js";

const SAVEABLE = new Set(["image", "audio", "resource", "resource_link"]);
/** Lines a card keeps of what the model did not get (the newest; the transcript keeps all). */
const MAX_CARD_NOTES = 8;

/**
 * Hot updates (progress notifications, text deltas) reach the listeners (a redraw each) at most
 * once per this interval: the state is always the latest, only the drawing is coalesced.
 */
export const DRAW_INTERVAL_MS = 50;

export class SessionStore {
  private state: UiState;
  private listeners = new Set<() => void>();
  private nextTurn = 1;
  private nextCall = 1;
  private readonly records: TranscriptRecord[] = [];
  /** Every tool card since the last /clear by number, as last drawn (/show N, Ctrl+O). */
  private readonly cards = new Map<number, ToolCallView>();
  private readonly recordListeners = new Set<(r: TranscriptRecord) => void>();
  /** The live turn's reply, one string per assistant block (its text may have left the live frame). */
  private reply: string[] = [];
  private livePart = 0;
  /** Each running call's latest progress not drawn yet: a flood costs one map write per notification. */
  private readonly progress = new Map<string, ProgressUpdate>();
  private lastDraw = -Infinity;
  private drawTimer?: ReturnType<typeof setTimeout>;

  constructor(init: Partial<UiState> = {}) {
    this.state = {
      finished: [],
      epoch: 0,
      programmatic: [],
      app: [],
      saveables: [],
      mode: "chat",
      paneOpen: true,
      paneFocus: "programmatic",
      progScroll: 0,
      appScroll: 0,
      busy: false,
      ...init,
    };
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  getState = (): UiState => this.state;

  update(patch: Partial<UiState> | ((s: UiState) => Partial<UiState>)): void {
    this.apply(patch);
    this.draw();
  }

  /** Like update, but the listeners are told at most once per DRAW_INTERVAL_MS (the last state wins). */
  private updateHot(patch?: Partial<UiState> | ((s: UiState) => Partial<UiState>)): void {
    if (patch) this.apply(patch);
    if (this.drawTimer) return;
    const wait = this.lastDraw + DRAW_INTERVAL_MS - performance.now();
    if (wait <= 0) return this.draw();
    this.drawTimer = setTimeout(() => this.draw(), wait);
    this.drawTimer.unref?.();
  }

  private apply(patch: Partial<UiState> | ((s: UiState) => Partial<UiState>)): void {
    const p = typeof patch === "function" ? patch(this.state) : patch;
    this.state = { ...this.state, ...p };
  }

  /** Tells the listeners, after moving what of the live turn is settled out of the live frame. */
  private draw(): void {
    if (this.drawTimer) clearTimeout(this.drawTimer);
    this.drawTimer = undefined;
    this.lastDraw = performance.now();
    if (this.progress.size) {
      const latest = new Map(this.progress);
      this.progress.clear();
      this.editCalls((c) => (latest.has(c.id) ? { ...c, progress: latest.get(c.id) } : c));
    }
    this.settle();
    for (const fn of this.listeners) fn();
  }

  /** Moves what of the live turn is settled to `finished`, as a part of the turn (live-text.ts). */
  private settle(): void {
    const live = this.state.live;
    const split = live && settledPart(live.items, settledItem);
    if (!live || !split) return;
    const part: Turn = { id: live.id, part: ++this.livePart, items: split.part };
    this.state = { ...this.state, finished: [...this.state.finished, part], live: { ...live, items: split.rest } };
  }

  // --- transcript -----------------------------------------------------------
  /** Every transcript record of this session so far (for /save). */
  transcript(): readonly TranscriptRecord[] {
    return this.records;
  }
  onRecord(fn: (r: TranscriptRecord) => void): () => void {
    this.recordListeners.add(fn);
    return () => this.recordListeners.delete(fn);
  }
  record(r: { kind: string; [key: string]: unknown }): void {
    const rec: TranscriptRecord = {
      at: new Date().toISOString(),
      ...(this.state.live ? { turn: this.state.live.id } : {}),
      ...r,
    };
    this.records.push(rec);
    for (const fn of this.recordListeners) fn(rec);
  }
  setMode(mode: Mode): void {
    this.update({ mode });
    this.record({ kind: "mode", mode });
  }

  private editLive(f: (items: TurnItem[]) => TurnItem[], hot = false): void {
    const edit = (s: UiState) => {
      const live = s.live ?? { id: this.nextTurn++, items: [] };
      return { live: { ...live, items: f(live.items) } };
    };
    if (hot) this.updateHot(edit);
    else this.update(edit);
  }

  // --- turn lifecycle -------------------------------------------------------
  startTurn(userText?: string): void {
    this.endTurn();
    this.reply = [];
    this.livePart = 0;
    this.update({
      live: { id: this.nextTurn++, items: userText === undefined ? [] : [{ kind: "user", text: userText }] },
      busy: true,
    });
    if (userText !== undefined) this.record({ kind: "user", text: userText });
  }
  /** The model request waits to go again (the status bar counts down until it does, or the turn ends). */
  retrying(wait: { text: string; reason: string; waitMs: number; attempt: number; of: number }): void {
    const { text, reason, waitMs, attempt, of } = wait;
    this.update({ retry: { text, reason, until: Date.now() + waitMs, attempt, of } });
    this.record({ kind: "retry", text, waitMs, attempt, of });
  }
  appendText(delta: string): void {
    if (!delta) return;
    if (this.state.retry) this.apply({ retry: undefined });
    this.editLive((items) => {
      const last = items[items.length - 1];
      if (last?.kind === "assistant") {
        this.reply[this.reply.length - 1] += delta;
        return [...items.slice(0, -1), { ...last, text: last.text + delta }];
      }
      this.reply.push(delta);
      return [...items, { kind: "assistant", text: delta }];
    }, true);
    // Between draws too: whatever renders next (a key, a timer) must not see a tail taller than the
    // terminal (Ink then rewrites the whole screen, and, back under the terminal's height, erases
    // one line too many: a line of the reply lost).
    const last = this.state.live?.items.at(-1);
    if (last?.kind === "assistant" && last.text.length > LIVE_TAIL_MAX) this.settle();
  }
  notice(text: string, level: "info" | "error" = "info"): void {
    this.append({ kind: "notice", level, text });
  }
  /**
   * A notice said once between two prompts: skipped when the same line was said since the person's
   * last prompt (a server announcing its list changed five times on connect is one line).
   */
  noticeOnce(text: string, level: "info" | "error" = "info"): void {
    const recent = [...(this.state.live?.items ?? [])].reverse();
    for (let i = this.state.finished.length - 1; i >= 0 && recent.length < 200; i--)
      recent.push(...[...this.state.finished[i].items].reverse());
    for (const item of recent.slice(0, 200)) {
      if (item.kind === "user") break;
      if (item.kind === "notice" && item.text === text) return;
    }
    this.notice(text, level);
  }
  /** The server's next page of a table is being fetched (/table next): `before` rows came on earlier pages; none: no longer. */
  expectNextPage(page?: { server: string; tool: string; before: number }): void {
    this.nextPage = page;
  }
  private nextPage?: { server: string; tool: string; before: number };
  /** A line about the app itself (how to reach a pane), drawn like a notice but not recorded. */
  hint(text: string): void {
    const item: TurnItem = { kind: "notice", level: "info", text };
    if (this.state.live) this.editLive((items) => [...items, item]);
    else this.pushFinished([item]);
  }
  /** Adds an item to the live turn, or as a finished block when no turn is live. */
  append(item: TurnItem): void {
    if (item.kind === "notice") this.record({ kind: "notice", level: item.level, text: item.text });
    if (this.state.live) this.editLive((items) => [...items, item]);
    else this.pushFinished([item]);
  }
  /** A finished block outside any model turn (slash command output). */
  pushFinished(items: TurnItem[]): void {
    this.update((s) => ({ finished: [...s.finished, { id: this.nextTurn++, items }] }));
  }
  /** The image blocks the live turn draws, for the caller to await before endTurn (imageCache.whenRendered). */
  liveImages(): object[] {
    return this.state.live?.items.flatMap(itemImages) ?? [];
  }
  endTurn(): void {
    const live = this.state.live;
    if (!live) {
      if (this.state.busy || this.state.retry) this.update({ busy: false, retry: undefined });
      return;
    }
    const reply = this.reply.join("\n");
    this.reply = [];
    if (reply) this.record({ kind: "assistant", text: reply });
    const rest = live.items.filter((i) => i.kind !== "assistant" || i.text !== "");
    this.update((s) => ({
      finished: rest.length ? [...s.finished, { ...live, items: rest }] : s.finished,
      live: undefined,
      busy: false,
      retry: undefined,
    }));
  }
  /**
   * Who clears the terminal (the App): called before the cleared state is drawn, so the clear
   * escape reaches the terminal before anything of the new epoch (the /clear line itself).
   */
  onClearScreen?: () => void;
  /**
   * Draws everything again from a cleared terminal (after a resize): the finished turns are laid
   * out anew for the new width, and nothing a narrower terminal reflowed stays behind. Nothing is
   * recorded: the conversation did not change.
   */
  redraw(): void {
    this.onClearScreen?.();
    this.update((s) => ({ epoch: s.epoch + 1 }));
  }
  clear(): void {
    this.record({ kind: "clear" });
    this.reply = [];
    this.cards.clear();
    this.onClearScreen?.();
    // The side panes go too: what they showed belonged to the conversation that was cleared.
    this.update((s) => ({
      finished: [],
      live: undefined,
      epoch: s.epoch + 1,
      lastTable: undefined,
      programmatic: [],
      app: [],
      progScroll: 0,
      appScroll: 0,
    }));
  }

  // --- script runs (code mode) ------------------------------------------------
  /** A script starts: its card shows the script; the inner calls' cards follow it. */
  codeStart(script: string): void {
    this.editLive((items) => [...items, { kind: "code", script }]);
    this.record({ kind: "code", event: "start", script });
  }
  /** A script ended: what it gave, after its inner calls' cards. */
  codeEnd(result: { text: string; isError: boolean; forModel: boolean }): void {
    this.editLive((items) => [...items, { kind: "code-result", ...result }]);
    this.record({ kind: "code", event: "end", ...result });
  }

  /** Images a script handed to the user (`display`, already routed to the user sink): drawn, each saveable. */
  userImages(tool: string, routed: Routed): void {
    for (const out of routed.user) {
      if (out.format !== "content") continue;
      for (const block of out.content) {
        if (block.type !== "image") continue;
        const saveId = this.addSaveable({ tool, type: "image", mimeType: block.mimeType, data: block.data });
        this.append({ kind: "image", block, saveId });
      }
    }
  }

  /** Tool card N as last drawn (undefined once cleared or never drawn). */
  card(n: number): ToolCallView | undefined {
    return this.cards.get(n);
  }
  /** The newest card's number (0: none yet). */
  get lastCard(): number {
    return Math.max(0, ...this.cards.keys());
  }

  // --- tool calls -----------------------------------------------------------
  toolStart(server: string, tool: string, args: Record<string, unknown>): string {
    const n = this.nextCall++;
    const id = `c${n}`;
    const call: ToolCallView = { id, n, server, tool, args, startedAt: Date.now() };
    this.cards.set(n, call);
    if (this.state.retry) this.apply({ retry: undefined });
    this.editLive((items) => [...items, { kind: "tool", call }]);
    this.record({ kind: "request", call: id, server, tool, arguments: args });
    return id;
  }
  private editCall(id: string, f: (c: ToolCallView) => ToolCallView): void {
    this.editCalls((c) => (c.id === id ? f(c) : c));
  }
  /** Applies `f` to every tool card of the live turn, without drawing. */
  private editCalls(f: (c: ToolCallView) => ToolCallView): void {
    const live = this.state.live;
    if (!live) return;
    let changed = false;
    const items = live.items.map((it) => {
      if (it.kind !== "tool") return it;
      const call = f(it.call);
      if (call === it.call) return it;
      changed = true;
      return { kind: "tool" as const, call };
    });
    if (changed) this.state = { ...this.state, live: { ...live, items } };
  }
  /**
   * A call's progress: only the latest counts (the transcript keeps none), and a flood of
   * notifications is drawn at most once per DRAW_INTERVAL_MS, on the draw that applies it.
   */
  toolProgress(id: string, progress: ProgressUpdate): void {
    this.progress.set(id, progress);
    this.updateHot();
  }
  /**
   * What the model did not get of a call's result as sent (a type it cannot take, a cut to the
   * budget, content the API refused): a line on that call's card while the card is still live,
   * else (or for a call without a card) a line in the conversation. The transcript keeps it.
   */
  callNote(outcome: CallOutcome | undefined, text: string): void {
    let id: string | undefined;
    if (outcome)
      this.editCalls((c) => {
        if (c.outcome !== outcome) return c;
        id = c.id;
        const noted = { ...c, modelNotes: [...(c.modelNotes ?? []), text].slice(-MAX_CARD_NOTES) };
        this.cards.set(c.n, noted);
        return noted;
      });
    if (!id) return this.notice(`${outcome ? `${outcome.plan.tool}: ` : ""}${text}`);
    this.record({ kind: "model-note", call: id, text });
    this.update({});
  }
  /** A resource the user read (/read, /open) as a numbered output for /save-output; returns its number. */
  addSaveable(s: Omit<Saveable, "n">): number {
    const n = this.state.saveables.length + 1;
    this.update({ saveables: [...this.state.saveables, { ...s, n }] });
    return n;
  }
  /** A line about the App View (where it is, what a View did) in the App pane. */
  appNote(text: string): void {
    const app = [...this.state.app];
    app.push({
      n: app.length + 1,
      server: "",
      tool: "view",
      at: Date.now(),
      audience: "view",
      value: text,
      appMeta: {},
    });
    this.update({ app });
  }

  /** Files the outcome: user blocks get /save-output numbers, side sinks go to their panes. */
  toolEnd(id: string, outcome: CallOutcome): void {
    const s = this.state;
    const saveables = [...s.saveables];
    const programmatic = [...s.programmatic];
    const app = [...s.app];
    const saveIds = new Map<object, number>();
    let lastTable = s.lastTable;
    const tool = outcome.plan.tool;
    const server = outcome.plan.server;
    // /table next's call: its table numbers on from the rows the server sent before.
    const page = this.nextPage;
    const rowBase = page && page.server === server && page.tool === tool ? page.before : undefined;
    if (rowBase !== undefined) this.nextPage = undefined;
    const at = Date.now();
    if (outcome.ok) {
      for (const out of outcome.routed.user) {
        if (out.format === "content") {
          for (const block of out.content) {
            if (!SAVEABLE.has(block.type)) continue;
            const n = saveables.length + 1;
            saveables.push({ ...saveableOf(n, tool, block), server });
            saveIds.set(block, n);
          }
        } else
          lastTable = {
            value: out.structuredContent,
            offset: 0,
            source: { server, tool, args: outcome.plan.args, requested: outcome.plan.requested, before: rowBase ?? 0 },
          };
      }
      for (const out of outcome.routed.programmatic) {
        programmatic.push({
          n: programmatic.length + 1,
          server,
          tool,
          at,
          bytes: paneBytes(out.structuredContent),
          value: out.structuredContent,
        });
      }
      outcome.routed.app.forEach((out, i) => {
        app.push({
          n: app.length + 1,
          server,
          tool,
          at,
          audience: out.audience,
          value: out.format === "structured" ? out.structuredContent : out.content,
          appMeta: i === 0 ? outcome.routed.appMeta : {},
        });
      });
      if (outcome.routed.app.length === 0 && Object.keys(outcome.routed.appMeta).length) {
        app.push({
          n: app.length + 1,
          server,
          tool,
          at,
          audience: "",
          value: undefined,
          appMeta: outcome.routed.appMeta,
        });
      }
    }
    // A resource_link in model-bound content (a legacy result) is numbered too: /open reads it in the
    // user's place; the model keeps only the link it was given.
    const links: string[] = [];
    for (const out of outcome.ok ? outcome.routed.model : []) {
      if (out.format !== "content") continue;
      for (const block of out.content) {
        if (block.type !== "resource_link" || saveIds.has(block)) continue;
        const n = saveables.length + 1;
        saveables.push({ ...saveableOf(n, tool, block), server });
        saveIds.set(block, n);
        links.push(`[${n}] resource link ${truncateChars(sanitizeInline(block.uri), 200)} — /open ${n} shows it here`);
      }
    }
    const progress = this.progress.get(id);
    this.progress.delete(id);
    this.editCall(id, (c) => {
      const done = { ...c, ...(progress ? { progress } : {}), ...(rowBase ? { rowBase } : {}), outcome, saveIds };
      this.cards.set(c.n, done);
      return done;
    });
    // A new entry is shown from its head (NEWEST_HEAD), not its closing braces.
    this.update({
      saveables,
      programmatic,
      app,
      lastTable,
      progScroll: programmatic.length > s.programmatic.length ? NEWEST_HEAD : s.progScroll,
      appScroll: app.length > s.app.length ? NEWEST_HEAD : s.appScroll,
    });
    this.record({ kind: "tool", call: id, ...outcomeRecord(outcome) });
    if (links.length) this.notice(links.join("\n"));
    // The side pane is hidden while empty: its first output is announced in one line.
    const hidden = s.paneOpen ? "" : " (hidden now: ^T shows it)";
    if (s.programmatic.length === 0 && programmatic.length > 0)
      this.hint(`programmatic output goes to the side pane${hidden}; PgUp/PgDn, Home/End scroll it, ^T hides it`);
    if (s.app.length === 0 && app.length > 0)
      this.hint(`App output goes to the side pane's App part${hidden}; ⇧Tab focuses it for PgUp/PgDn`);
  }

  // --- approval -------------------------------------------------------------
  /** Approvals and the servers' and Views' questions: one dialog at a time, in the order asked. */
  readonly dialogs = new AskQueue();

  /** Shows one approval once the dialogs before it settled (the call gate's asker in the app). */
  askApproval(server: string, tool: string, args: Record<string, unknown>): Promise<ApprovalAnswer> {
    return this.dialogs.run(() => this.showApproval(server, tool, args));
  }

  private showApproval(server: string, tool: string, args: Record<string, unknown>): Promise<ApprovalAnswer> {
    return new Promise((resolve) => {
      this.update({
        approval: {
          server,
          tool,
          args,
          resolve: (a) => {
            this.update({ approval: undefined });
            resolve(a);
          },
        },
      });
    });
  }
}

/** An item that never changes again: a tool card with its outcome and every user image drawn. */
/** The image blocks an item draws (each must be rendered before the item can go to <Static>). */
export function itemImages(item: TurnItem): object[] {
  if (item.kind === "image") return [item.block];
  if (item.kind === "detail") return item.sections.flatMap((s) => s.images ?? []);
  if (item.kind !== "tool" || !item.call.outcome?.ok) return [];
  return item.call.outcome.routed.user.flatMap((out) =>
    out.format === "content" ? out.content.filter((b) => b.type === "image") : [],
  );
}

function settledItem(item: TurnItem): boolean {
  if (item.kind === "image" || item.kind === "detail") return itemImages(item).every(imageRendered);
  if (item.kind !== "tool") return true;
  const o = item.call.outcome;
  if (!o) return false;
  if (!o.ok) return true;
  return o.routed.user.every(
    (out) => out.format !== "content" || out.content.every((b) => b.type !== "image" || imageRendered(b)),
  );
}

function saveableOf(n: number, tool: string, block: ContentBlock): Saveable {
  switch (block.type) {
    case "image":
    case "audio":
      return { n, tool, type: block.type, mimeType: block.mimeType, data: block.data };
    case "resource_link":
      return { n, tool, type: "resource_link", mimeType: block.mimeType, uri: block.uri };
    case "resource": {
      const r = block.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
      return { n, tool, type: "resource", mimeType: r.mimeType, uri: r.uri, text: r.text, data: r.blob };
    }
    default:
      return { n, tool, type: "resource" };
  }
}

/** A value's JSON size for the pane header; 0 for one that cannot be serialized. */
function paneBytes(v: unknown): number {
  try {
    return jsonBytes(v);
  } catch {
    return 0;
  }
}
