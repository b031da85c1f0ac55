// The chat app's UI half: Ink, React, the App and the session. Loaded by app.ts with a dynamic
// import while the servers' processes boot; it draws the first frame, then starts the host (whose
// code, ../start-host.js and everything under it, is imported only then: nothing here imports it
// statically, so the MCP SDK, zod and Ajv are not loaded before the first frame).
import { compact } from "../../model/compact.js";
import React from "react";
import { render } from "ink";
import type { HostConfig } from "../../host/config/config.js";
import type { Host } from "../../host/host.js";
import type { CallOutcome, Mode } from "../../host/types.js";
import type { LegacyConnections } from "../../compare/legacy-connection.js";
import type { ModelAdapter } from "../../model/adapter.js";
import { Conversation } from "../../model/conversation.js";
import { runTurn } from "../../model/turn.js";
import { toolSearchLine, type ToolSearchControl, isToolSearchRun } from "../../model/tool-search.js";
import { createModel } from "../../model/select.js";
import { modelOptions } from "../model-for.js";
import { App } from "../../ui/App.js";
import type { CommandHost } from "../../ui/commands/index.js";
import { ChatSession, type TurnRunner } from "../../ui/session.js";
import { SessionStore } from "../../ui/state.js";
import { enterTerminalModes } from "../../ui/terminal.js";
import { exitOnSignals } from "../../host/connection/process-group.js";
import type { CommonOptions } from "../args.js";
import { attachTranscript, recordContext, transcriptDir, TranscriptFile, fsProblem } from "../../ui/transcript.js";
import { listSessions, sessionId } from "../../ui/sessions.js";
import type { RestoredSession } from "../../ui/session-restore.js";
import type { SessionsHook } from "../../ui/commands/types.js";
import { PromptHistory } from "../../ui/prompt-history.js";
import { PendingHost } from "../../ui/pending-host.js";
import { closeViews } from "../../ui/view-link.js";
import type { InputProvider } from "../../host/input/input-provider.js";
import { UiInput } from "../../ui/input-dialogs.js";
import { startGraphics } from "../../ui/graphics/start.js";

/**
 * /compare's second connection (src/compare/legacy-connection.ts), made on first use: its code and
 * the host's load only then.
 */
function legacyCaller(common: CommonOptions, config: HostConfig) {
  let legacy: LegacyConnections | undefined;
  const call: NonNullable<CommandHost["legacyCall"]> = async (tool, args, opts) => {
    if (!legacy) {
      const { startHost, LegacyConnections } = await import("../start-host.js");
      legacy ??= new LegacyConnections((server, protocol) => startHost({ ...common, server, protocol }, { config }));
    }
    return legacy.call(tool, args, opts);
  };
  return { call, close: async () => legacy?.close() };
}

/** The app's model turn: runTurn on the session's conversation (`conversation()`: /clear replaces it), its events to the UI. */
export function modelTurnRunner(
  adapter: ModelAdapter | (() => ModelAdapter),
  conversation: () => Conversation,
  resultTokens?: number,
  search: ToolSearchControl = { setting: "auto", pinned: [] },
  compactAt?: number,
): TurnRunner {
  return async (prompt, opts) => {
    search.offered = undefined;
    // A call's notes name its model call id; its card is found by the outcome that id had.
    const outcomes = new Map<string, CallOutcome>();
    const r = await runTurn({
      adapter: typeof adapter === "function" ? adapter() : adapter,
      executor: opts.executor,
      conversation: conversation(),
      prompt,
      attachments: opts.attachments,
      hostTools: opts.hostTools,
      resultTokens,
      compactAt,
      toolSearch: search.setting,
      pinnedTools: search.pinned,
      mode: opts.mode,
      signal: opts.signal,
      events: (e) => {
        if (e.type === "text") opts.onText(e.delta);
        else if (e.type === "notice") opts.onNotice?.(e.text);
        else if (e.type === "usage") opts.onUsage?.(e.usage);
        else if (e.type === "tools-offered") search.offered = { loaded: e.loaded, deferred: e.deferred };
        else if (e.type === "tool-outcome" && e.outcome) outcomes.set(e.call.id, e.outcome);
        else if (e.type === "tool-outcome" && isToolSearchRun(e)) opts.onNotice?.(toolSearchLine(e.hostRun.detail));
        else if (e.type === "call-note") opts.onCallNote?.(outcomes.get(e.callId), e.text);
        else if (e.type === "retry") opts.onRetry?.(e);
      },
    });
    return r.error ? { error: r.error.kind === "aborted" ? "cancelled" : r.error.message } : {};
  };
}

export interface RunTuiOptions {
  /** The config the app runs with (trusted, or asked about, before this was called). */
  config: HostConfig;
  /** The servers the host is starting, known from the config before any spawn (the status bar's first frame). */
  serverNames: readonly string[];
  mode: Mode;
  onFirstRender?: () => void;
  /** A saved session to go on with (--continue, --resume ID): shown, its context given to the model, its file appended to. */
  resume?: RestoredSession;
  /** --resume without an id: the app opens on the list of saved sessions. */
  pickSession?: boolean;
}

/**
 * Draws the app, then calls `startHost` and lets the host finish starting behind the first frame:
 * the status bar shows the servers as connecting…, lines typed meanwhile are queued, and a failed
 * start is one line in the conversation (the app goes on). Closes the host, once started, when the
 * app exits.
 */
export async function runTui(
  startHost: (input: InputProvider) => Promise<Host>,
  initial: ModelAdapter,
  common: CommonOptions,
  o: RunTuiOptions,
): Promise<void> {
  // /model replaces it; the turn runner, sampling and the status bar read it each time.
  let adapter = initial;
  // `starting` exists before the first frame (the UI holds it) but the start begins after it.
  let begin!: () => void;
  const began = new Promise<void>((r) => (begin = r));
  let started = false;
  // Servers' elicitation and sampling become dialogs (the store is attached before the start begins).
  const input = new UiInput(() => adapter);
  const starting = began.then(() => startHost(input));
  starting.catch(() => {}); // the UI shows a failed start as one line; never an unhandled rejection
  const legacy = legacyCaller(common, o.config);
  const toolSearch: ToolSearchControl = {
    setting: o.config.toolSearch ?? "auto",
    pinned: [...(o.config.pinnedTools ?? [])],
  };
  const runner = modelTurnRunner(
    () => adapter,
    () => conversation,
    o.config.limits.modelResultTokens,
    toolSearch,
    o.config.limits.compactAt,
  );
  const store = new SessionStore({ mode: o.mode });
  input.attach(store);
  const dir = transcriptDir();
  const resumed = o.resume;
  let transcript = attachTranscript(store, dir, resumed ? () => TranscriptFile.reopen(resumed.path) : undefined);
  // A resume records the servers this app connects and those the session had used: a later resume
  // still knows them all (it never narrows the list to what one app connected).
  const recordStart = (event: "start" | "resume", session?: RestoredSession) =>
    store.record({
      kind: "session",
      event,
      pid: process.pid,
      cwd: process.cwd(),
      mode: store.getState().mode,
      model: adapter.id,
      servers: [...new Set([...o.serverNames, ...(session?.servers ?? [])])].map((name) => ({
        name,
        state: "connecting",
        era: null,
        protocolVersion: null,
        error: null,
      })),
    });
  recordStart(resumed ? "resume" : "start", resumed);
  // The model's context: every change is recorded (a `context` record), so a resume rebuilds it exactly.
  let conversation = resumed ? Conversation.from(resumed.items) : new Conversation();
  let unrecord = recordContext(conversation, store);
  for (const n of o.config.notices ?? []) store.notice(n);
  // Pictures in the terminal's own protocol where it has one (asked before Ink reads the keys).
  const graphics = await startGraphics(o.config.images ?? "auto");
  if (graphics.note) store.notice(graphics.note);
  const configured = (name: string) => Object.hasOwn(o.config.servers, name);
  if (resumed) showRestored(store, resumed, o.serverNames, configured, false);
  if (transcript.file) store.notice(`session transcript: ${transcript.file.path}`);
  const sessions: SessionsHook = {
    list: () => listSessions(dir),
    current: () => (transcript.file ? sessionId(transcript.file.path) : undefined),
    resume: async (s) => {
      const { restoreSession } = await import("../../ui/session-restore.js");
      let r: RestoredSession;
      try {
        r = restoreSession(s.path);
      } catch (e) {
        store.notice(`/resume: cannot read ${s.path}: ${fsProblem(e)}`, "error");
        return;
      }
      // This session's file ends here (not with a clear: resuming it later shows it whole).
      store.record({ kind: "session", event: "end" });
      transcript.detach();
      unrecord();
      // Drawn below what is on screen (the terminal keeps this session's lines above a rule).
      store.update({ lastTable: undefined });
      store.hint(`${"─".repeat(20)} /resume ${r.id} ${"─".repeat(20)}`);
      transcript = attachTranscript(store, dir, () => TranscriptFile.reopen(r.path));
      if (r.mode) store.update({ mode: r.mode });
      recordStart("resume", r);
      conversation = Conversation.from(r.items);
      unrecord = recordContext(conversation, store);
      showRestored(store, r, o.serverNames, configured, true);
      if (transcript.file) store.notice(`session transcript: ${transcript.file.path}`);
    },
  };
  const pending = new PendingHost(o.serverNames, starting, store, legacy.call, profileReading(o.config));

  const session = new ChatSession({
    store,
    executor: pending.executor,
    host: pending.commandHost,
    runTurn: runner,
    autoApprove: common.yes,
    resetConversation: () => {
      unrecord();
      conversation = new Conversation();
      unrecord = recordContext(conversation, store);
    },
    sessions,
    promptHistory: PromptHistory.load(dir),
    hostReady: pending.ready,
    modelCapabilities: () => adapter.capabilities,
    toolSearch,
    model: {
      current: () => adapter.id,
      list: async (signal) => (adapter.listModels ? adapter.listModels(signal) : []),
      use: (spec) => {
        // A bare name stays with the current provider; the config supplies endpoint and limits.
        const flag = spec.includes(":") || spec === "offline" ? spec : `${adapter.id.split(":")[0]}:${spec}`;
        const same = flag.split(":")[0] === adapter.id.split(":")[0];
        adapter = createModel({
          ...modelOptions(same ? common : { ...common, baseUrl: undefined, apiKeyEnv: undefined }, o.config.model),
          flag,
        });
        store.record({ kind: "session", event: "model", model: adapter.id });
        return adapter.id;
      },
    },
    askView: (q) => input.askView(q),
    compact: (signal) => compact(conversation, adapter, { signal, resultTokens: o.config.limits.modelResultTokens }),
  });
  // A signal quits like /quit: the servers get the whole stdio shutdown (bounded), then the app
  // exits with 128 + its number. exitOnSignals is installed first, so it leaves signals to the
  // terminal's handler while that one is there, and handles one that comes while closing.
  let signalExit: number | undefined;
  exitOnSignals();
  // A write past a file size limit (ulimit -f) raises SIGXFSZ. Node ignores it and the write
  // fails with EFBIG (the transcript stops and says so), but Ink's signal-exit re-raises a signal
  // nobody else listens to, which killed the app: this listener keeps it ignored.
  process.on("SIGXFSZ", () => {});
  const restoreTerminal = enterTerminalModes(1, (_signal, code) => {
    signalExit = code;
    setTimeout(() => process.exit(code), SIGNAL_CLOSE_MS).unref();
    session.quit();
  });
  try {
    const ink = render(React.createElement(App, { session, servers: pending.servers, modelName: () => adapter.id }), {
      exitOnCtrlC: false,
    });
    o.onFirstRender?.();
    if (o.pickSession) void session.submit("/resume");
    started = true;
    begin();
    await ink.waitUntilExit();
  } finally {
    restoreTerminal();
    graphics.stop();
    store.record({ kind: "session", event: "end" });
    transcript.detach();
    await legacy.close();
    await closeViews();
    // A /quit before the host is up still waits for it, so no server process outlives the app.
    const host = started ? await starting.catch(() => undefined) : undefined;
    await host?.close();
    if (signalExit !== undefined) process.exit(signalExit);
  }
}

/** A resumed session drawn as it was, then one line on what was restored (and each line refused). */
function showRestored(
  store: SessionStore,
  r: RestoredSession,
  connected: readonly string[],
  configured: (name: string) => boolean,
  inApp: boolean,
): void {
  if (r.hiddenTurns)
    store.hint(`${r.hiddenTurns} earlier turns of this session are not drawn (the model's context keeps them)`);
  for (const t of r.turns) store.pushFinished(t);
  for (const line of r.refused) store.notice(`session ${r.id}: ${line}`, "error");
  const context = r.noContext
    ? "its transcript has no model-context records (an older mcp-prism wrote it): the model starts afresh"
    : `the model's context holds its ${r.items.length} items`;
  store.notice(
    `resumed session ${r.id}${r.cwd ? ` (${r.cwd})` : ""}: ${r.prompts} prompt${r.prompts === 1 ? "" : "s"}; ${context}; mode ${store.getState().mode}`,
  );
  const missing = (r.servers ?? []).filter((n) => !connected.includes(n));
  // Not in this config: nothing can connect them here. In it but not connected (this app was
  // started with --server, or /resume ran in it): a restart with --resume connects them.
  const elsewhere = missing.filter((n) => !configured(n));
  const here = missing.filter((n) => configured(n));
  if (elsewhere.length)
    store.notice(
      `this session used ${elsewhere.join(", ")}, which ${elsewhere.length === 1 ? "is" : "are"} not in this config (mcp-prism servers add NAME … adds one); the model's context still holds what they returned`,
    );
  if (here.length)
    store.notice(
      inApp
        ? `this session used ${here.join(", ")}, not connected in this app (restart with --resume ${r.id} to connect them)`
        : `this session used ${here.join(", ")}, not connected in this app (--server chose others; restart without it to connect them)`,
    );
}

/** The config's legacy profile as a reading of every outcome (none for mcp-prism's own, `sep`). */
async function profileReading(config: HostConfig): Promise<((o: CallOutcome) => CallOutcome) | undefined> {
  const profile = config.profile;
  if (profile === undefined || profile === "sep") return undefined;
  const { readAs } = await import("../start-host.js");
  return (o) => readAs(profile, o);
}

/** How long a signalled app may take to close its servers before it exits anyway. */
const SIGNAL_CLOSE_MS = 10_000;
