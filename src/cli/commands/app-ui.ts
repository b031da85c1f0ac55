// The chat app's UI half: Ink, React, the App and the session. Loaded by app.ts with a dynamic
// import that runs WHILE the host spawns and discovers its servers, so start-up pays for the
// slower of the two instead of their sum.
import React from "react";
import { render } from "ink";
import type { Host } from "../../host/host.js";
import type { ModelAdapter } from "../../model/adapter.js";
import { Conversation } from "../../model/conversation.js";
import { runTurn } from "../../model/turn.js";
import { App } from "../../ui/App.js";
import type { CommandHost } from "../../ui/commands/index.js";
import type { ServerStatus } from "../../ui/components/StatusBar.js";
import { ChatSession, type TurnRunner } from "../../ui/session.js";
import { SessionStore } from "../../ui/state.js";
import { enterTerminalModes } from "../../ui/terminal.js";
import type { CommonOptions } from "../args.js";
import { LEGACY_PROFILES } from "../../host/types.js";
import { attachTranscript } from "../../ui/transcript.js";
import { resolveTool, startHost } from "./call.js";
import { needsApproval } from "./oneshot.js";

export function serverStatuses(host: Host): ServerStatus[] {
  return host.servers().map((s) => ({
    name: s.name,
    protocolVersion: s.protocolVersion,
    state: s.state === "connected" || s.state === "connecting" ? s.state : s.state === "failed" ? "error" : "disconnected",
    error: s.error,
  }));
}

/**
 * /compare's legacy rows: a modern tool is called again over a second connection forced to
 * 2026-07-28 (the legacy result shape), opened on first use; a tool already on an older era is
 * read under every profile from its own connection.
 */
function legacyCaller(host: Host, common: CommonOptions) {
  let legacy: Promise<Host> | undefined;
  const call: NonNullable<CommandHost["legacyProfiles"]> = async (tool, args, opts) => {
    if (tool.era !== "2026-12-01") return host.callWithProfiles(tool.qualifiedName, args, LEGACY_PROFILES, opts);
    legacy ??= startHost({ ...common, server: tool.server, protocol: "2026-07-28" });
    let lh: Host;
    try {
      lh = await legacy;
    } catch (e) {
      legacy = undefined; // try again next time
      throw e;
    }
    return lh.callWithProfiles(await resolveTool(lh, tool.name, tool.server), args, LEGACY_PROFILES, opts);
  };
  const close = async () => {
    const lh = await legacy?.catch(() => undefined);
    await lh?.close();
  };
  return { call, close };
}

export async function runApp(host: Host, adapter: ModelAdapter, common: CommonOptions, onFirstRender: () => void = () => {}): Promise<void> {
  let conversation = new Conversation();
  const legacy = legacyCaller(host, common);
  const runner: TurnRunner = async (prompt, o) => {
    const r = await runTurn({
      adapter,
      executor: o.executor,
      conversation,
      prompt,
      mode: o.mode,
      signal: o.signal,
      events: (e) => {
        if (e.type === "text") o.onText(e.delta);
      },
    });
    return r.error ? { error: r.error.kind === "aborted" ? "cancelled" : r.error.message } : {};
  };
  const commandHost: CommandHost = {
    tools: (m) => host.tools(m),
    servers: () => serverStatuses(host),
    call: (name, args, opts) => host.call(name, args, opts),
    callWithProfiles: (name, args, profiles, opts) => host.callWithProfiles(name, args, profiles, opts),
    legacyProfiles: legacy.call,
  };
  const store = new SessionStore({ mode: host.mode });
  const transcript = attachTranscript(store);
  store.record({
    kind: "session",
    event: "start",
    pid: process.pid,
    cwd: process.cwd(),
    mode: host.mode,
    model: adapter.id,
    servers: host.servers().map((s) => ({ name: s.name, state: s.state, era: s.era ?? null, protocolVersion: s.protocolVersion ?? null, error: s.error ?? null })),
  });
  if (transcript.file) store.notice(`session transcript: ${transcript.file.path}`);

  const session = new ChatSession({
    store,
    executor: host,
    host: commandHost,
    runTurn: runner,
    needsApproval,
    autoApprove: common.yes,
    resetConversation: () => {
      conversation = new Conversation();
    },
  });
  const restoreTerminal = enterTerminalModes();
  try {
    const ink = render(React.createElement(App, { session, servers: () => serverStatuses(host), modelName: adapter.id }), { exitOnCtrlC: false });
    onFirstRender();
    await ink.waitUntilExit();
  } finally {
    restoreTerminal();
    store.record({ kind: "session", event: "end" });
    transcript.detach();
    await legacy.close();
  }
}
