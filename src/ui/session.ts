// The chat session behind the App: runs model turns and slash commands against the store.
// The model turn itself is injected (TurnRunner), so the UI holds no model or protocol logic and
// tests can drive it with a scripted runner.
import type { Compaction } from "../model/compact.js";
import type { CallOptions, CallOutcome, Mode, ToolEntry, ToolExecutor } from "../host/types.js";
import { offeredToModel } from "../host/catalog/app-only.js";
import type { CallLifecycle } from "../host/call/lifecycle.js";
import { appCalls } from "./calls.js";
import { showInView, viewAttachments } from "./view-link.js";
import type { ViewQuestion } from "../view/session.js";
import {
  COMMANDS,
  dispatch,
  findCommand,
  type CommandContext,
  type CommandHost,
  type SlashCommand,
} from "./commands/index.js";
import type { ModelSwitch, SessionsHook } from "./commands/types.js";
import type { PromptHistory } from "./prompt-history.js";
import { isPromptCommand, promptTurnText } from "./commands/prompt-command.js";
import { splitCommand } from "./commands/parse.js";
import type { CompletionSource } from "./hooks/useCompletion.js";
import { imagesSettled } from "./imageCache.js";
import type { SessionStore } from "./state.js";
import type { ToolSearchControl } from "../model/tool-search.js";
import type { UserAttachment } from "../model/conversation.js";
import type { ModelCapabilities } from "../model/context.js";
import { readAttachments } from "./attachments.js";
import type { HostTool } from "../model/host-tool.js";
import { appRunCode } from "./code-tool.js";
import { DEFAULT_PAGE_SIZE, totalRows } from "./table.js";
import { UsageMeter } from "./usage-meter.js";
import type { TokenUsage } from "../model/usage.js";

/** An inputSchema's property names (bounded), for completing a /call's JSON keys. */
function schemaKeys(schema: unknown): string[] {
  const props = (schema as { properties?: unknown } | undefined)?.properties;
  return props && typeof props === "object" && !Array.isArray(props) ? Object.keys(props).slice(0, 200) : [];
}

export interface TurnRunnerOptions {
  mode: Mode;
  signal: AbortSignal;
  /** Tool calls go through this executor, so cards, progress and approval are drawn. */
  executor: ToolExecutor;
  onText: (delta: string) => void;
  /** One line for the user from the turn (a bound cut, refused content replaced). */
  onNotice?: (text: string) => void;
  /** One model request's tokens (the API's count, or the offline model's estimate). */
  onUsage?: (usage: TokenUsage) => void;
  /** The model request failed before anything streamed and goes again after `waitMs` (the status bar shows it). */
  onRetry?: (wait: { text: string; reason: string; waitMs: number; attempt: number; of: number }) => void;
  /** What the model did not get of a call's result as sent, for that call's card (`outcome` undefined: not known). */
  onCallNote?: (outcome: CallOutcome | undefined, text: string) => void;
  /** Resources the user attached with `@URI` (attachments.ts), for the model with the prompt. */
  attachments?: readonly UserAttachment[];
  /** Host tools for the model beside the servers' (code mode: run_code). */
  hostTools?: readonly HostTool[];
}
/** Runs one model turn; resolves with an error line when the turn failed. */
export type TurnRunner = (prompt: string, opts: TurnRunnerOptions) => Promise<{ error?: string }>;

export interface ChatSessionOptions {
  store: SessionStore;
  executor: ToolExecutor;
  host: CommandHost;
  runTurn: TurnRunner;
  /** --yes: tools not marked read-only run without asking (host/call's gate). */
  autoApprove?: boolean;
  resetConversation?: () => void;
  cwd?: string;
  commands?: readonly SlashCommand[];
  /**
   * Settles when the host has started (or failed to). Until then the app is drawn and the prompt is
   * live, but lines are queued (they run once it settles), except /quit; /servers and /tools say so.
   */
  hostReady?: Promise<unknown>;
  /** The active model adapter's capabilities (what "what the model saw" is built with; its window). A function when /model can switch it. */
  modelCapabilities?: ModelCapabilities | (() => ModelCapabilities);
  /** Tool search's switch and what the model was last offered (/tools). */
  toolSearch?: ToolSearchControl;
  /** The active model and switching it (/model). */
  model?: ModelSwitch;
  /** Compacts the model context now (/compact). */
  compact?: (signal?: AbortSignal) => Promise<Compaction | undefined>;
  /** The saved sessions, for /resume. */
  sessions?: SessionsHook;
  /** The prompt history saved across runs (else it lives for this run only). */
  promptHistory?: PromptHistory;
  /** Asks an App View's question (ui/message, ui/open-link) in its own dialog (UiInput.askView). */
  askView?: (q: ViewQuestion) => Promise<boolean>;
}

/** A line typed (a command or a prompt), or a message an App View sent as the user (taken as written). */
type Queued = string | { viewTurn: string };

/** Commands that answer at once while the host is still connecting. */
// /servers and /tools answer at once from what is known (servers still connecting say so), never
// "try again": they are what a person runs when a server is slow or broken.
const WHILE_CONNECTING: Record<string, "run" | "connecting"> = {
  quit: "run",
  resume: "run",
  servers: "run",
  tools: "run",
  reconnect: "run",
  mcp: "run",
};

export class ChatSession {
  readonly store: SessionStore;
  /** Submitted lines, oldest first (↑/↓): the saved history's entries when there is one. */
  readonly history: string[];
  /** The tokens each model turn and the whole session took (status bar, /usage). */
  readonly usage = new UsageMeter();
  width = 80;
  private running?: AbortController;
  /** Every call of the app (turns, /call, /run, Views, /compare): one gate, one "always" memory, cards. */
  readonly calls: CallLifecycle;
  private queued: Queued[] = [];
  private quitHandler: () => void = () => {};
  private connecting = false;

  constructor(private readonly opts: ChatSessionOptions) {
    this.store = opts.store;
    this.calls = appCalls(opts.store, opts.autoApprove);
    this.history = opts.promptHistory?.entries ?? [];
    if (opts.hostReady) {
      this.connecting = true;
      const settled = () => {
        this.connecting = false;
        void this.drain();
      };
      opts.hostReady.then(settled, settled);
    }
  }

  /** True until the injected host start has settled. */
  get hostConnecting(): boolean {
    return this.connecting;
  }

  onQuit(fn: () => void): void {
    this.quitHandler = fn;
  }
  quit(): void {
    this.opts.host.exiting?.();
    this.cancel();
    this.quitHandler();
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** The active model's capabilities (they follow a /model switch). */
  capabilities(): ModelCapabilities | undefined {
    const c = this.opts.modelCapabilities;
    return typeof c === "function" ? c() : c;
  }

  /** Cancels the running turn or command; true if something was running. */
  cancel(): boolean {
    if (!this.running) {
      if (!this.connecting || !this.queued.length) return false;
      this.queued = []; // Esc drops lines typed ahead of the host
      this.store.notice("queued input dropped");
      return true;
    }
    this.queued = [];
    this.running.abort();
    const pending = this.store.getState().approval;
    pending?.resolve("no");
    return true;
  }

  commandContext(signal?: AbortSignal): CommandContext {
    return {
      store: this.store,
      host: this.opts.host,
      width: () => this.width,
      quit: () => this.quit(),
      resetConversation: this.opts.resetConversation,
      cwd: this.opts.cwd ?? process.cwd(),
      commands: this.opts.commands ?? COMMANDS,
      signal,
      autoApprove: this.opts.autoApprove,
      calls: this.calls,
      modelCapabilities: this.capabilities(),
      toolSearch: this.opts.toolSearch,
      model: this.opts.model,
      compact: this.opts.compact,
      usage: this.usage.snapshot,
      sessions: this.opts.sessions,
      askView: this.opts.askView,
      viewTurn: (text) => this.viewTurn(text),
    };
  }

  /** What the prompt line completes from: the commands, the prompts listed so far, the mode's tools, the servers' resources and suggestions. */
  completionSource(): CompletionSource {
    const host = this.opts.host;
    return {
      commands: this.opts.commands ?? COMMANDS,
      prompts: () => host.prompts?.known() ?? [],
      tools: async () =>
        (await host.tools(this.store.getState().mode, 0)).map((t) => ({
          name: t.qualifiedName,
          keys: schemaKeys(t.inputSchema),
        })),
      resources: async () =>
        ((await host.resources?.()) ?? []).flatMap((l) => l.resources.map((r) => ({ uri: r.uri, name: r.name }))),
      known: () => {
        const s = this.store.getState();
        return {
          servers: host.servers().map((v) => v.name),
          cards: this.store.lastCard,
          outputs: s.saveables.length,
          tableRows: s.lastTable ? totalRows(s.lastTable.value) : 0,
          tablePage: DEFAULT_PAGE_SIZE,
        };
      },
      complete: (entry, argument, value, context, signal) =>
        host.prompts
          ? host.prompts.complete(entry, argument, value, context, signal)
          : Promise.resolve({ values: [], hasMore: false }),
    };
  }

  /** One submitted input line: a slash command or a prompt for the model. */
  async submit(line: string): Promise<void> {
    if (!line.trim()) return;
    if (this.opts.promptHistory) this.opts.promptHistory.add(line);
    else if (this.history[this.history.length - 1] !== line) this.history.push(line);
    const short = line.length > 60 ? line.slice(0, 59) + "…" : line;
    if (this.connecting && !this.running) {
      const name = line.trimStart().startsWith("/") ? line.trimStart().slice(1).split(/\s/, 1)[0] : "";
      const now = WHILE_CONNECTING[name];
      if (now === "run") return this.runLine(line);
      if (now === "connecting") {
        this.store.record({ kind: "user", text: line.trim() });
        this.store.notice(`/${name}: the host is still connecting to its servers — try again in a moment`);
        return;
      }
      // Type-ahead before the host is up: runs once it has started; Esc drops it.
      this.queued.push(line);
      this.store.notice(`queued until the servers are connected: ${short} (Esc cancels)`);
      return;
    }
    if (this.running && line.trim() === "/cancel") {
      this.cancel();
      return;
    }
    // /quit too is taken at once, as ^C^C and ^D are: never queued behind a call that may not end.
    if (this.running && line.trim() === "/quit") {
      this.quit();
      return;
    }
    if (this.running) {
      // Type-ahead: runs when the current turn ends; Esc drops it with the turn.
      this.queued.push(line);
      this.store.notice(`queued: ${short} (Esc cancels)`);
      return;
    }
    for (let next: Queued | undefined = line; next !== undefined; next = this.queued.shift()) await this.runLine(next);
  }

  /**
   * A message an App View sent as the user (ui/message, confirmed in its dialog): the user's next
   * turn, as written (like a server prompt's text): never a slash command, no @-attachments read. Queued behind a running turn.
   */
  viewTurn(text: string): void {
    if (!text.trim()) return;
    if (this.running || this.connecting) {
      this.queued.push({ viewTurn: text });
      return;
    }
    void (async () => {
      for (let next: Queued | undefined = { viewTurn: text }; next !== undefined; next = this.queued.shift())
        await this.runLine(next);
    })();
  }

  /** Runs the lines queued while the host was connecting (unless a line is running; it drains them). */
  private async drain(): Promise<void> {
    if (this.running) return;
    for (let next = this.queued.shift(); next !== undefined; next = this.queued.shift()) await this.runLine(next);
  }

  private async runLine(line: Queued): Promise<void> {
    const ac = new AbortController();
    this.running = ac;
    try {
      if (typeof line !== "string") await this.turn(line.viewTurn, ac, true);
      else if (line.trimStart().startsWith("/")) await this.command(line, ac);
      else await this.turn(line, ac);
    } finally {
      this.running = undefined;
    }
  }

  /** A slash command, or a server prompt (`/server:prompt args`) whose messages become the user's turn. */
  private async command(line: string, ac: AbortController): Promise<void> {
    const ctx = this.commandContext(ac.signal);
    const [name, args] = splitCommand(line);
    if (!isPromptCommand(name) || findCommand(name, ctx.commands)) {
      await dispatch(line, ctx);
      return;
    }
    const text = await promptTurnText(name, args, line, ctx);
    // As written: a server's prompt text is never read for @ attachments (only the person's typing is).
    if (text !== undefined && !ac.signal.aborted) await this.turn(text, ac, true);
  }

  /**
   * The tools the model may use in `mode`: listed for that mode (app mode lists with the UI
   * extension advertised), App-only and unavailable (task-only) tools left out.
   */
  async modelToolsFor(mode: Mode): Promise<ToolEntry[]> {
    return (await this.opts.host.tools(mode)).filter(offeredToModel);
  }

  private async turn(prompt: string, ac: AbortController, asWritten = false): Promise<void> {
    this.store.startTurn(prompt);
    this.usage.startTurn(prompt);
    const mode = this.store.getState().mode;
    try {
      const attached = asWritten
        ? { ok: true as const, attachments: [], lines: [] }
        : await readAttachments(prompt, this.opts.host);
      if (!attached.ok) {
        this.store.notice(attached.error, "error");
        return;
      }
      for (const line of attached.lines) this.store.notice(line);
      if (attached.attachments.length)
        this.store.record({
          kind: "attachments",
          resources: attached.attachments.map(({ server, uri, mimeType, text }) => ({
            server,
            uri,
            mimeType,
            chars: text.length,
          })),
        });
      const tools = await this.modelToolsFor(mode);
      const executor = this.instrumented(mode, tools, ac.signal);
      // What the Views asked the model to know (ui/update-model-context) goes with this request.
      const attachments = [...attached.attachments, ...viewAttachments()];
      const r = await this.opts.runTurn(prompt, {
        ...(attachments.length ? { attachments } : {}),
        ...(mode === "code" ? { hostTools: [await appRunCode(this.store, executor)] } : {}),
        mode,
        signal: ac.signal,
        executor,
        onText: (d) => this.store.appendText(d),
        onNotice: (text) => this.store.notice(text),
        onUsage: (u) => this.usage.add(u),
        onCallNote: (outcome, text) => this.store.callNote(outcome, text),
        onRetry: (wait) => this.store.retrying(wait),
      });
      if (r.error) this.store.notice(r.error, "error");
    } catch (e) {
      this.store.notice(`turn failed: ${(e as Error)?.message ?? String(e)}`, "error");
    } finally {
      await imagesSettled();
      this.store.endTurn();
    }
  }

  /**
   * The executor the model sees for one turn in `mode`: exactly `tools` (the mode's listing), every
   * call in that mode and under the turn's abort signal; asks approval, draws the card, files the outcome.
   */
  instrumented(mode: Mode = this.store.getState().mode, tools?: ToolEntry[], signal?: AbortSignal): ToolExecutor {
    const inner = this.opts.executor;
    const list = () => tools ?? inner.modelTools();
    return {
      modelTools: list,
      instructions: () => inner.instructions(),
      call: async (name: string, args: Record<string, unknown>, o: CallOptions = {}): Promise<CallOutcome> => {
        // The turn's signal too, so Esc aborts every call of the turn whatever the runner passes.
        o = { ...o, mode: o.mode ?? mode, signal: o.signal ?? signal };
        const want = o.target;
        const entry = want
          ? list().find((t) => t.server === want.server && t.name === want.tool)
          : list().find((t) => t.qualifiedName === name);
        const outcome = await this.calls.run({
          source: "model",
          name,
          args,
          entry,
          opts: o,
          via: (n, a, opts) => inner.call(n, a, opts),
        });
        // Once the App View host runs (/view), an app-mode call of a tool with an App gets its View.
        void showInView(entry, args, outcome).catch(() => {});
        return outcome;
      },
    };
  }
}
