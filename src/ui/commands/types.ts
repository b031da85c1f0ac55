// The slash command contract. `ctx` is everything a command may touch, so commands are testable
// against a fake host without a terminal.
import type { Compaction } from "../../model/compact.js";
import type { PlannedRequest } from "../../host/host.js";
import type { SessionSummary } from "../sessions.js";
import type { HostError } from "../../host/host-error.js";
import type { LogEntry } from "../../host/connection/server-logs.js";
import type { ReadOutcome, ResourceListing } from "../../host/catalog/resources.js";
import type { CallOptions, CallOutcome, Mode, ToolEntry } from "../../host/types.js";
import type { ServerView } from "../server-view.js";
import type { Completion, PromptEntry, PromptListing, PromptResult } from "../../host/catalog/prompts.js";
import type { PromptLookup } from "../../host/catalog/prompt-registry.js";
import type { SessionStore } from "../state.js";
import type { ToolSearchControl } from "../../model/tool-search.js";
import type { ModelCapabilities } from "../../model/context.js";
import type { UsageSnapshot } from "../usage-meter.js";
import type { ViewQuestion } from "../../view/session.js";
import type { CallLifecycle } from "../../host/call/lifecycle.js";

/** A tool the host rejected (its declaration broke a rule). */
export type RejectedTool = HostError;

/**
 * What the commands need from the host: the real Host satisfies it as it is. `waitMs` bounds the
 * wait for servers not connected yet (default: until they settle).
 */
/** The servers' prompts as the app uses them (the Host's PromptRegistry satisfies it). */
export interface PromptSource {
  all(waitMs?: number): Promise<PromptListing>;
  find(name: string, server?: string, waitMs?: number): Promise<PromptLookup>;
  get(entry: PromptEntry, args: Record<string, unknown>, signal?: AbortSignal): Promise<PromptResult>;
  complete(
    entry: PromptEntry,
    argument: string,
    value: string,
    context?: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Completion>;
  /** The prompts listed so far, without waiting (the completion menu). */
  known(): PromptEntry[];
}

export interface CommandHost {
  /** Every listed tool for a mode that was not rejected, App-only and unavailable ones included. */
  tools(mode: Mode, waitMs?: number, known?: { knownOnly: boolean }): Promise<ToolEntry[]>;
  /** The tools rejected for a mode, each with its rule (optional: a host that rejects none may omit it). */
  toolErrors?(mode: Mode, waitMs?: number, known?: { knownOnly: boolean }): Promise<RejectedTool[]>;
  /** tools() with every schema compiled, so declined variants and schema warnings are known (Host.settledTools). */
  settledTools?(mode: Mode, waitMs?: number, known?: { knownOnly: boolean }): Promise<ToolEntry[]>;
  servers(): ServerView[];
  /** The app is quitting (before its running calls are cancelled): Host.exiting. */
  exiting?(): void;
  call(qualifiedName: string, args: Record<string, unknown>, opts?: CallOptions): Promise<CallOutcome>;
  /** What a call of the tool in a mode would send (Host.requestFor): /compare makes one call per distinct request. */
  requestFor?(entry: ToolEntry, mode: Mode): PlannedRequest;
  /**
   * The same call over a connection forced to 2026-07-28 (the legacy result shape the client
   * profiles read; /compare of a 2026-12-01 tool); optional. Rejects with a one-line reason.
   */
  legacyCall?(tool: ToolEntry, args: Record<string, unknown>, opts?: CallOptions): Promise<CallOutcome>;
  /** The servers' prompts (`/server:prompt` commands); optional: a host without them has no prompt commands. */
  prompts?: PromptSource;
  /** The servers' log messages (all, or one server's), oldest first (Host.logs); optional. */
  logs?(server?: string): LogEntry[];
  /** Each server's resources and templates (Host.resources), or one server's; optional. */
  resources?(server?: string): Promise<ResourceListing[]>;
  /** /mcp: reconnect, disable or enable a server for this session (Host.setServer); optional. */
  setServer?(
    server: string,
    action: "reconnect" | "enable" | "disable",
    mode: Mode,
    signal?: AbortSignal,
  ): Promise<void>;
  /** Reads a resource (Host.readResource): from `server`, else the one offering or listing it. */
  readResource?(uri: string, server?: string): Promise<ReadOutcome>;
  /** Subscribes to a resource the user read or attached, where its server offers it (a change is then a notice). */
  subscribe?(server: string, uri: string): Promise<boolean>;
  /** Signs in to an HTTP server now (Host.login: OAuth in the browser, the URL given to `showUrl`); optional. */
  login?(server: string, showUrl: (url: string) => void): Promise<"signed-in" | "not-needed">;
}

export interface CommandContext {
  store: SessionStore;
  host: CommandHost;
  /** Current width of the conversation column. */
  width(): number;
  quit(): void;
  /** Forgets the model conversation (for /clear). */
  resetConversation?(): void;
  /** Directory relative file names are saved in. */
  cwd: string;
  commands: readonly SlashCommand[];
  signal?: AbortSignal;
  /** --yes: tools that are not read-only run without asking. */
  autoApprove?: boolean;
  /** The app's call lifecycle (gate, "always" memory, cards); absent in tests: one is made per command. */
  calls?: CallLifecycle;
  /** What the model takes in a tool result (its adapter's), for "what the model saw" (/show). */
  modelCapabilities?: ModelCapabilities;
  /** Tool search's switch and what the model was last offered (/tools, /tools search on|off|auto). */
  toolSearch?: ToolSearchControl;
  /** The active model and switching it (/model); absent where the model is fixed. */
  model?: ModelSwitch;
  /** Compacts the model context now (/compact); absent where there is no conversation. */
  compact?: (signal?: AbortSignal) => Promise<Compaction | undefined>;
  /** The tokens of each model turn and of the session so far (/usage). */
  usage?: () => UsageSnapshot;
  /** The saved sessions (/resume); absent where nothing is saved. */
  sessions?: SessionsHook;
  /** Asks an App View's question (ui/message, ui/open-link) in its own dialog; absent: declined. */
  askView?: (q: ViewQuestion) => Promise<boolean>;
  /** A confirmed ui/message: the user's next turn, as written. */
  viewTurn?: (text: string) => void;
}

/** The session's model, switchable mid-session (the conversation is provider-neutral). */
export interface ModelSwitch {
  /** e.g. "ollama:qwen3". */
  current(): string;
  /** The current provider's models (its GET /v1/models). */
  list(signal?: AbortSignal): Promise<string[]>;
  /** Switches to MODEL (same provider) or PROVIDER:MODEL; returns the new id or throws one line. */
  use(spec: string): string;
}

/** The saved sessions: the list (most recent first), and going on with one in this app. */
export interface SessionsHook {
  list(): SessionSummary[];
  /** The id of the session this app writes to. */
  current(): string | undefined;
  resume(s: SessionSummary): Promise<void>;
}

/**
 * What one word of a command is, for Tab (completion.ts): fixed words, or a kind whose words come
 * from the session (modes, servers, tools, resource URIs, card / output numbers, table rows).
 * "json" is the rest of the line (a tool's arguments: their keys complete from its inputSchema).
 */
export type ArgKind =
  | readonly string[]
  | "mode"
  | "server"
  | "tool"
  | "json"
  | "resource"
  | "card"
  | "output"
  | "table";

export interface SlashCommand {
  name: string;
  usage: string;
  description: string;
  /** Its words in order, for completion. */
  args?: readonly ArgKind[];
  run(args: string, ctx: CommandContext): Promise<void> | void;
}

/** A clear one-line user error; the dispatcher prints it in red and the session goes on. */
export class CommandError extends Error {}
