import "./env.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMMANDS, dispatch, type CommandContext, type CommandHost } from "../../src/ui/commands/index.js";
import { parseToolCallArgs, splitCommand } from "../../src/ui/commands/parse.js";
import { SessionStore } from "../../src/ui/state.js";
import type { CallOptions, ToolEntry } from "../../src/host/types.js";
import { okOutcome } from "./harness.js";
import { policyFor, selectOutputs } from "../../src/host/policy/index.js";
import { LEGACY_PROFILES } from "../../src/host/types.js";
import type { ToolSearchControl } from "../../src/model/tool-search.js";

const tool = (
  name: string,
  server = "demo",
  annotations: ToolEntry["annotations"] = { readOnlyHint: true },
): ToolEntry => ({
  server,
  name,
  qualifiedName: name,
  inputSchema: { type: "object" },
  era: "2026-12-01",
  variants: [
    { audience: "assistant", format: "content" },
    { audience: "user", format: "structured" },
  ],
  annotations,
});

function setup() {
  const calls: { name: string; args: Record<string, unknown>; opts?: CallOptions }[] = [];
  const dir = mkdtempSync(join(tmpdir(), "prism-ui-"));
  const rows = Array.from({ length: 45 }, (_, i) => ({ id: i + 1 }));
  const host: CommandHost = {
    tools: async () => [
      tool("search_customers"),
      tool("generate_audio"),
      tool("delete_customer", "demo", { destructiveHint: true }),
    ],
    // As the Host plans it: the mode policy over the declared variants (no extension negotiated).
    requestFor: (e, m) => ({
      requested: e.era === "2026-12-01" ? selectOutputs(policyFor(m), e.variants, new Set()) : undefined,
      advertised: e.era === "legacy" ? [] : Object.keys(policyFor(m).advertiseExtensions),
    }),
    servers: () => [{ name: "demo", protocolVersion: "2026-12-01", state: "connected" }],
    call: async (name, args, opts) => {
      calls.push({ name, args, opts });
      opts?.onProgress?.({ progress: 1, total: 2 });
      if (name === "generate_audio") {
        return okOutcome(
          {
            user: [
              {
                audience: "user",
                format: "content",
                content: [
                  { type: "audio", data: Buffer.from("RIFF....WAVE").toString("base64"), mimeType: "audio/wav" },
                ],
              },
            ],
          },
          { tool: name },
        );
      }
      return okOutcome(
        { user: [{ audience: "user", format: "structured", structuredContent: { customers: rows } }] },
        {
          tool: name,
          mode: opts?.mode ?? "chat",
          requested: opts?.select ?? [{ audience: "user", format: "structured" }],
        },
      );
    },
  };
  const store = new SessionStore();
  let quit = 0;
  let reset = 0;
  const ctx: CommandContext = {
    store,
    host,
    width: () => 100,
    quit: () => quit++,
    resetConversation: () => reset++,
    cwd: dir,
    commands: COMMANDS,
  };
  const notices = () =>
    [...store.getState().finished, ...(store.getState().live ? [store.getState().live!] : [])]
      .flatMap((t) => t.items)
      .filter((i) => i.kind === "notice")
      .map((i) => (i as { text: string; level: string }).level + ": " + (i as { text: string }).text);
  return {
    ctx,
    store,
    calls,
    dir,
    notices,
    quits: () => quit,
    resets: () => reset,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

test("every command has its own name, usage and description", () => {
  const names = COMMANDS.map((c) => c.name);
  assert.deepEqual(names, [
    "help",
    "mode",
    "model",
    "tools",
    "servers",
    "mcp",
    "reconnect",
    "logs",
    "login",
    "resources",
    "read",
    "call",
    "run",
    "compare",
    "show",
    "view",
    "pane",
    "table",
    "clear",
    "compact",
    "usage",
    "resume",
    "save",
    "save-output",
    "open",
    "cancel",
    "quit",
  ]);
  for (const c of COMMANDS) assert.ok(c.usage.startsWith(`/${c.name}`) && c.description.length > 5);
});

test("argument parsing: JSON with spaces up to the first --select, extension selectors", () => {
  assert.deepEqual(splitCommand("/call  foo {}"), ["call", "foo {}"]);
  const p = parseToolCallArgs(
    'search {"q": "a b --selector-like", "n": 2} --select user/structured --select io.modelcontextprotocol/ui/structured',
    "u",
  );
  assert.equal(p.tool, "search");
  assert.deepEqual(p.args, { q: "a b --selector-like", n: 2 });
  assert.deepEqual(p.select, [
    { audience: "user", format: "structured" },
    { audience: "io.modelcontextprotocol/ui", format: "structured" },
  ]);
  assert.deepEqual(parseToolCallArgs("search", "u"), { tool: "search", args: {}, select: undefined });
  assert.throws(() => parseToolCallArgs("search {bad json}", "u"), /^Error: bad JSON arguments: /);
  assert.throws(() => parseToolCallArgs("search [1,2]", "u"), /arguments must be a JSON object/);
  assert.throws(() => parseToolCallArgs("search {} --select user/html", "u"), /bad selector "user\/html"/);
  assert.throws(() => parseToolCallArgs("search {} --select", "u"), /--select needs audience\/format/);
});

test("unknown command and bad JSON give one clear line; the session goes on", async () => {
  const s = setup();
  assert.equal(await dispatch("/frobnicate now", s.ctx), false);
  await dispatch('/call search_customers {"q": ', s.ctx);
  await dispatch("/call nope {}", s.ctx);
  await dispatch("/mode turbo", s.ctx);
  await dispatch("/call serch_customers {}", s.ctx);
  const n = s.notices();
  assert.match(n[0], /^error: unknown command \/frobnicate — type \/help for the list$/);
  assert.match(n[1], /^error: bad JSON arguments: /);
  assert.match(n[2], /^error: unknown tool nope \(see \/tools\)$/);
  assert.match(n[3], /^error: unknown mode "turbo": expected chat, structured, code, app, minimal$/);
  assert.match(n[4], /^error: unknown tool serch_customers \(did you mean search_customers\?\) \(see \/tools\)$/);
  for (const line of n) assert.ok(!line.includes("\n"), "one line");
  assert.equal(s.calls.length, 0);
  s.cleanup();
});

test("/call runs the tool with the mode and --select, draws a card and files the table", async () => {
  const s = setup();
  await dispatch("/mode structured", s.ctx);
  await dispatch('/call search_customers {"q": "a b"} --select user/structured', s.ctx);
  assert.equal(s.calls.length, 1);
  assert.deepEqual(s.calls[0].args, { q: "a b" });
  assert.equal(s.calls[0].opts?.mode, "structured");
  assert.deepEqual(s.calls[0].opts?.select, [{ audience: "user", format: "structured" }]);
  const turn = s.store.getState().finished.at(-1)!;
  assert.deepEqual(turn.items[0], {
    kind: "user",
    text: '/call search_customers {"q": "a b"} --select user/structured',
  });
  const card = turn.items.find((i) => i.kind === "tool");
  assert.ok(card && card.kind === "tool" && card.call.outcome?.ok && card.call.progress?.total === 2);
  assert.equal(s.store.getState().lastTable?.offset, 0);
  s.cleanup();
});

test("/table pages the last table; errors past the end", async () => {
  const s = setup();
  await dispatch("/table", s.ctx);
  assert.match(s.notices().at(-1)!, /no table yet/);
  await dispatch("/call search_customers {}", s.ctx);
  await dispatch("/table next", s.ctx);
  assert.equal(s.store.getState().lastTable?.offset, 20);
  await dispatch("/table next", s.ctx);
  assert.equal(s.store.getState().lastTable?.offset, 40);
  await dispatch("/table next", s.ctx);
  assert.match(s.notices().at(-1)!, /the table has 45 rows/);
  await dispatch("/table prev", s.ctx);
  assert.equal(s.store.getState().lastTable?.offset, 20);
  await dispatch("/table 5", s.ctx);
  const items = s.store
    .getState()
    .finished.flatMap((t) => t.items)
    .filter((i) => i.kind === "table");
  assert.deepEqual(
    items.map((i) => (i as { offset: number }).offset),
    [20, 40, 20, 4],
  );
  await dispatch("/table sideways", s.ctx);
  assert.match(s.notices().at(-1)!, /usage: \/table \[next\|prev\|N\]/);
  s.cleanup();
});

test("/save writes the transcript as JSON Lines; /save-output writes the audio bytes", async () => {
  const s = setup();
  await dispatch("/call generate_audio {}", s.ctx);
  await dispatch("/save-output 1 clip.wav", s.ctx);
  assert.equal(readFileSync(join(s.dir, "clip.wav"), "utf8"), "RIFF....WAVE");
  await dispatch("/save-output 9", s.ctx);
  assert.match(s.notices().at(-1)!, /no output 9: outputs are numbered 1–1/);
  await dispatch("/save-output x", s.ctx);
  assert.match(s.notices().at(-1)!, /usage: \/save-output N \[file\]/);
  await dispatch("/save t.jsonl", s.ctx);
  const lines = readFileSync(join(s.dir, "t.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const toolLine = lines.find((l) => l.kind === "tool");
  assert.equal(toolLine.tool, "generate_audio");
  assert.equal(toolLine.routed.user[0].content[0].type, "audio");
  assert.ok(lines.some((l) => l.kind === "user" && l.text === "/call generate_audio {}"));
  s.cleanup();
});

test("/compare calls once per distinct request and draws one row per mode", async () => {
  const s = setup();
  await dispatch('/compare search_customers {"q": "x"}', s.ctx);
  // chat and structured both send assistant/content + user/structured for this tool: one call.
  assert.deepEqual(
    s.calls.map((c) => c.opts?.mode),
    ["chat", "code", "app", "minimal"],
  );
  const table = s.store
    .getState()
    .finished.flatMap((t) => t.items)
    .find((i) => i.kind === "table");
  assert.ok(table && table.kind === "table" && Array.isArray(table.value) && table.value.length === 5);
  assert.deepEqual(
    (table.value as Record<string, string>[]).map((r) => r.call),
    ["mode chat", "mode structured (= chat)", "mode code", "mode app", "mode minimal"],
  );
  assert.match(s.notices().join("\n"), /5 ways to read it from 4 wire calls/);
  s.cleanup();
});

test("/compare of a tool that is not read-only asks first; declined, nothing runs", async () => {
  const s = setup();
  const running = dispatch('/compare delete_customer {"id": 7}', s.ctx);
  while (!s.store.getState().approval) await new Promise((r) => setImmediate(r));
  assert.match(
    s.notices().at(-1)!,
    /compare delete_customer on demo: 5 calls: chat\+structured, code, app, minimal, and once more at 2026-07-28 .* not marked read-only/,
  );
  s.store.getState().approval!.resolve("no");
  await running;
  assert.deepEqual(s.calls, [], "declined: no call was made");
  assert.match(s.notices().at(-1)!, /not run \(declined\)/);
  // Approved, each distinct request runs once (the legacy profiles are not available on this host).
  const again = dispatch('/compare delete_customer {"id": 7}', s.ctx);
  while (!s.store.getState().approval) await new Promise((r) => setImmediate(r));
  s.store.getState().approval!.resolve("yes");
  await again;
  assert.equal(s.calls.length, 4);
  // --yes: no question at all.
  s.ctx.autoApprove = true;
  await dispatch('/compare delete_customer {"id": 7}', s.ctx);
  assert.equal(s.calls.length, 8);
  s.cleanup();
});

test("/compare of a legacy-era tool makes one call: every mode and every client profile read it", async () => {
  const s = setup();
  s.ctx.host.tools = async () => [
    { ...tool("weather"), era: "legacy", variants: [{ audience: "assistant", format: "content" }] },
  ];
  await dispatch('/compare weather {"city": "Oslo"}', s.ctx);
  assert.equal(s.calls.length, 1);
  const table = s.store
    .getState()
    .finished.flatMap((t) => t.items)
    .find((i) => i.kind === "table");
  assert.ok(table && table.kind === "table");
  assert.equal((table.value as unknown[]).length, 5 + LEGACY_PROFILES.length);
  s.cleanup();
});

test("/servers shows each server's last stderr lines and host diagnostics, neutralized and cut to the width", async () => {
  const s = setup();
  const stderr = ["boot 1", "boot 2", "warn: cache cold", "\u001b[31mERROR\u001b[0m listening failed", "x".repeat(300)];
  s.ctx.host = {
    ...s.ctx.host,
    servers: () => [
      {
        name: "demo",
        protocolVersion: "2026-12-01",
        state: "connected",
        diagnostics: ["stdout: ignored a line that is not JSON-RPC: hello"],
        stderr,
      },
      { name: "quiet", protocolVersion: "2025-11-25", state: "connected", diagnostics: [], stderr: [] },
    ],
  };
  await dispatch("/servers", s.ctx);
  const lines = s
    .notices()
    .at(-1)!
    .replace(/^info: /, "")
    .split("\n");
  assert.deepEqual(lines.slice(0, 5), [
    "demo  2026-12-01  connected",
    "  diagnostics:",
    "    stdout: ignored a line that is not JSON-RPC: hello",
    "  stderr (last 3 of 5 kept):",
    "    warn: cache cold",
  ]);
  assert.ok(!lines[5].includes("\u001b"), "escape sequences from server stderr are neutralized");
  assert.match(lines[5], /ERROR.*listening failed/);
  assert.ok(lines[6].length <= 100 && lines[6].startsWith("    xxx"), "a long line is cut to the width");
  assert.equal(lines[7], "quiet  2025-11-25  connected");
  assert.equal(lines.length, 8, "a server with nothing to report gets one line");
  s.cleanup();
});

test("/help, /tools, /servers, /pane, /clear, /quit", async () => {
  const s = setup();
  await dispatch("/help", s.ctx);
  assert.match(s.notices().at(-1)!, /\/save-output N \[file\]\s+save audio/);
  await dispatch("/tools", s.ctx);
  assert.match(s.notices().at(-1)!, /search_customers \(demo, 2026-12-01\) → assistant\/content, user\/structured/);
  await dispatch("/servers", s.ctx);
  assert.match(s.notices().at(-1)!, /demo {2}2026-12-01 {2}connected/);
  const before = s.store.getState().paneOpen;
  await dispatch("/pane", s.ctx);
  assert.equal(s.store.getState().paneOpen, !before);
  await dispatch("/clear", s.ctx);
  // Only the echo is left, on the cleared screen, saying what was cleared.
  const left = s.store.getState().finished.flatMap((t) => t.items);
  assert.deepEqual(
    left.map((i) => i.kind),
    ["user", "notice"],
  );
  assert.match(JSON.stringify(left), /"\/clear".*cleared the screen and the conversation; the model starts afresh/);
  assert.equal(s.store.getState().epoch, 1);
  assert.equal(s.resets(), 1);
  await dispatch("/quit", s.ctx);
  assert.equal(s.quits(), 1);
  s.cleanup();
});

test("/compare adds one row per legacy client profile when the host can read the legacy shape", async () => {
  const s = setup();
  const asked: string[] = [];
  s.ctx.host.legacyCall = async (t, args) => {
    asked.push(`${t.qualifiedName} ${JSON.stringify(args)}`);
    // One legacy-shaped result (as the Host hands it on): /compare reads it under every profile.
    const legacy = okOutcome(
      { model: [{ audience: "assistant", format: "content", content: [{ type: "text", text: "x" }] }] },
      { tool: t.name, requested: undefined, era: "2026-07-28", protocolVersion: "2026-07-28" },
    );
    return {
      ...legacy,
      legacyResult: {
        content: [{ type: "text", text: "x" }],
        structuredContent: { n: 1 },
        isError: false,
        meta: undefined,
      },
    } as typeof legacy;
  };
  await dispatch('/compare search_customers {"q": "x"}', s.ctx);
  assert.deepEqual(asked, ['search_customers {"q":"x"}']);
  const table = s.store
    .getState()
    .finished.flatMap((t) => t.items)
    .find((i) => i.kind === "table");
  assert.ok(table && table.kind === "table" && Array.isArray(table.value));
  const rows = table.value as Record<string, string>[];
  assert.deepEqual(
    rows.map((r) => r.call),
    [
      "mode chat",
      "mode structured (= chat)",
      "mode code",
      "mode app",
      "mode minimal",
      "sep (mcp-prism)",
      "content-only (gemini-cli)",
      "structured-replaces-content (Claude Code, Codex, opencode)",
      "both (content + JSON mirror)",
      "annotation-audience (goose)",
    ],
  );
  assert.equal(rows[0].requested, "U/s");
  assert.equal(rows[5].requested, "none sent (2026-07-28)");
  assert.match(rows[0].user, /^1 table \d+(\.\d)? (B|kB)$/);
  assert.equal(rows[0].program, "—");
  // Each profile read the one result its own way: sep gives structuredContent to program logic, content-only drops it.
  assert.notEqual(rows[5].program, "—");
  assert.equal(rows[6].program, "—");
  s.ctx.host.legacyCall = async () => {
    throw new Error("server demo refused 2026-07-28");
  };
  await dispatch('/compare search_customers {"q": "x"}', s.ctx);
  assert.match(s.notices().at(-1)!, /legacy client profiles not available: server demo refused 2026-07-28/);
  s.cleanup();
});

test("/tools and /servers show every rejected tool, unavailable tool, declined variant and warning with its rule", async () => {
  const s = setup();
  const declined: ToolEntry = {
    ...tool("declined_variant"),
    declined: [
      {
        audience: "programmatic",
        format: "structured",
        schema: { type: "nonsense" },
        rule: "uncompilable-variant-schema",
        detail: "schema does not compile: bad type; not requested",
      },
    ],
  };
  const task: ToolEntry = {
    ...tool("research"),
    unavailable: { rule: "task-required", detail: 'execution.taskSupport is "required"' },
  };
  const warned: ToolEntry = {
    ...tool("weather", "old"),
    era: "legacy",
    warnings: [
      {
        server: "old",
        tool: "weather",
        rule: "uncompilable-output-schema",
        detail: "outputSchema does not compile: x\u001b[2J",
      },
    ],
  };
  s.ctx.host = {
    ...s.ctx.host,
    tools: async () => [declined, task, warned],
    toolErrors: async () => [
      { server: "old", tool: "broken", rule: "malformed-tool", detail: "malformed tool: inputSchema: required" },
    ],
    servers: () => [
      { name: "demo", protocolVersion: "2026-12-01", state: "connected" },
      { name: "old", protocolVersion: "2025-11-25", state: "connected" },
    ],
  };
  s.ctx.width = () => 160;
  await dispatch("/tools", s.ctx);
  const t = s
    .notices()
    .at(-1)!
    .replace(/^info: /, "")
    .split("\n");
  assert.ok(
    t.includes("research (demo, 2026-12-01) → assistant/content, user/structured  [unavailable: task-required]"),
    t.join("\n"),
  );
  assert.ok(t.includes("set aside:"));
  for (const line of [
    "  ✗ demo · declined_variant programmatic/structured declined [uncompilable-variant-schema]: schema does not compile: bad type; not requested",
    '  ✗ demo · research unavailable [task-required]: execution.taskSupport is "required"',
    "  ✗ old · broken rejected [malformed-tool]: malformed tool: inputSchema: required",
  ])
    assert.ok(t.includes(line), `${line}\n in\n${t.join("\n")}`);
  const w = t.find((l) => l.includes("[uncompilable-output-schema]"))!;
  assert.match(w, /^ {2}⚠ old · weather \[uncompilable-output-schema\]: outputSchema does not compile: x/);
  assert.ok(!w.includes("\u001b"), "server text is sanitized");

  await dispatch("/servers", s.ctx);
  const v = s
    .notices()
    .at(-1)!
    .replace(/^info: /, "")
    .split("\n");
  assert.deepEqual(v.slice(0, 4), [
    "demo  2026-12-01  connected",
    "  tools: 1 usable, 1 unavailable; set aside:",
    "    ✗ declined_variant programmatic/structured declined [uncompilable-variant-schema]: schema does not compile: bad type; not requested",
    '    ✗ research unavailable [task-required]: execution.taskSupport is "required"',
  ]);
  assert.equal(v[4], "old  2025-11-25  connected");
  assert.equal(v[5], "  tools: 1 usable, 1 rejected; set aside:");
  assert.match(v[6], /^ {4}⚠ weather \[uncompilable-output-schema\]/);
  assert.equal(v[7], "    ✗ broken rejected [malformed-tool]: malformed tool: inputSchema: required");
  s.cleanup();
});

test("/tools with no usable tool still names every rejected one", async () => {
  const s = setup();
  s.ctx.host = {
    ...s.ctx.host,
    tools: async () => [],
    toolErrors: async () => [
      { server: "fs", tool: "read_file", rule: "malformed-tool", detail: "malformed tool: name" },
    ],
  };
  await dispatch("/tools", s.ctx);
  assert.equal(
    s.notices().at(-1),
    "info: no usable tools; set aside:\n  ✗ fs · read_file rejected [malformed-tool]: malformed tool: name",
  );
  s.cleanup();
});

test("/servers and /login: a server refused with 401 is 'sign-in needed'; /login signs in beside the conversation", async () => {
  const s = setup();
  const asked: string[] = [];
  let finish: (v: "signed-in") => void = () => {};
  s.ctx.host = {
    ...s.ctx.host,
    servers: () => [
      { name: "demo", protocolVersion: "2026-12-01", state: "connected" },
      {
        name: "remote",
        state: "failed",
        error: "server remote: HTTP 401: the server needs authorization",
        failure: { rule: "auth-required", detail: "HTTP 401" },
      },
      {
        name: "broken",
        state: "failed",
        error: "server broken: exited",
        failure: { rule: "connection-failed", detail: "exited" },
      },
    ],
    login: (server, showUrl) => {
      asked.push(server);
      showUrl("http://127.0.0.1:9/authorize?x=1");
      return new Promise((r) => (finish = r));
    },
  };
  await dispatch("/servers", s.ctx);
  const lines = s.notices().at(-1)!.split("\n");
  assert.match(lines[1], /^remote {2}\? {2}sign-in needed — server remote: HTTP 401/);
  assert.match(lines[2], /^broken {2}\? {2}error — /);
  await dispatch("/login remote", s.ctx);
  assert.deepEqual(asked, ["remote"]);
  assert.match(s.notices().join("\n"), /signing in to remote: a browser opens/);
  assert.match(
    s.notices().join("\n"),
    /sign in to remote in your browser; if it did not open, open:\n {2}http:\/\/127\.0\.0\.1:9\/authorize\?x=1/,
  );
  assert.doesNotMatch(s.notices().join("\n"), /signed in to remote$/m, "the command returns before the sign-in ends");
  finish("signed-in");
  await new Promise((r) => setImmediate(r));
  assert.match(s.notices().at(-1)!, /signed in to remote$/);
  await dispatch("/login nobody", s.ctx);
  assert.match(s.notices().at(-1)!, /^error: \/login: no server named nobody$/);
  await dispatch("/login", s.ctx);
  assert.match(s.notices().at(-1)!, /^error: \/login: name the server/);
  s.cleanup();
});

test("/tools search on|off|auto sets tool search; /tools shows what is loaded for the model", async () => {
  const s = setup();
  const control: ToolSearchControl = { setting: "auto", pinned: [] };
  s.ctx.toolSearch = control;
  await dispatch("/tools", s.ctx);
  assert.doesNotMatch(s.notices().at(-1)!, /tool search|\[loaded\]/);
  await dispatch("/tools search on", s.ctx);
  assert.equal(control.setting, "on");
  assert.match(s.notices().at(-1)!, /^info: tool search on: the model gets search_tools/);
  control.offered = { loaded: ["search_customers", "search_tools"], deferred: 3 };
  await dispatch("/tools", s.ctx);
  const listing = s.notices().at(-1)!;
  assert.match(listing, /tool search on: 1 of 3 tools loaded for the model \(search_customers\)/);
  assert.match(listing, /search_customers \(demo, 2026-12-01\) → assistant\/content, user\/structured {2}\[loaded\]/);
  assert.doesNotMatch(listing, /generate_audio[^\n]*\[loaded\]/);
  await dispatch("/tools search sideways", s.ctx);
  assert.match(s.notices().at(-1)!, /usage: \/tools search on\|off\|auto/);
  assert.equal(control.setting, "on");
  await dispatch("/tools search off", s.ctx);
  assert.equal(control.setting, "off");
  s.cleanup();
});

test("/tools pin and unpin: a known tool only, bounded, shown in /tools; unpin says what was pinned", async () => {
  const s = setup();
  const control: ToolSearchControl = { setting: "on", pinned: [] };
  s.ctx.toolSearch = control;
  await dispatch("/tools pin search_customers", s.ctx);
  assert.deepEqual(control.pinned, ["search_customers"]);
  assert.match(s.notices().at(-1)!, /^info: pinned search_customers: under tool search the model gets its definition/);
  await dispatch("/tools pin search_customers", s.ctx);
  assert.match(s.notices().at(-1)!, /already pinned/);
  assert.deepEqual(control.pinned, ["search_customers"]);
  await dispatch("/tools pin no_such_tool", s.ctx);
  assert.match(s.notices().at(-1)!, /^error: no tool named no_such_tool \(see \/tools\)$/);
  await dispatch("/tools pin", s.ctx);
  assert.match(s.notices().at(-1)!, /usage: \/tools pin NAME/);
  control.offered = { loaded: ["search_customers", "search_tools"], deferred: 3 };
  await dispatch("/tools", s.ctx);
  const listing = s.notices().at(-1)!;
  assert.match(listing, /;\s+pinned: search_customers/);
  assert.match(listing, /search_customers \(demo, 2026-12-01\) → [^\n]* {2}\[pinned\] {2}\[loaded\]/);
  await dispatch("/tools unpin generate_audio", s.ctx);
  assert.match(s.notices().at(-1)!, /generate_audio is not pinned \(pinned: search_customers\)/);
  await dispatch("/tools unpin search_customers", s.ctx);
  assert.equal(control.pinned.length, 0);
  assert.match(s.notices().at(-1)!, /^info: unpinned search_customers/);
  control.pinned.push(...Array.from({ length: 32 }, (_, i) => `t${i}`));
  await dispatch("/tools pin search_customers", s.ctx);
  assert.match(s.notices().at(-1)!, /at most 32 pinned tools; unpin one first/);
  s.cleanup();
});
