import "./env.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionStore } from "../../src/ui/state.js";
import { attachTranscript, transcriptDir } from "../../src/ui/transcript.js";
import { COMMANDS, dispatch, type CommandContext } from "../../src/ui/commands/index.js";
import { okOutcome, plan } from "./harness.js";
import { failedOutcome } from "../../src/host/host-error.js";

const read = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

test("transcript dir: $XDG_STATE_HOME/mcp-prism, else ~/.local/state/mcp-prism (relative XDG ignored)", () => {
  assert.equal(transcriptDir({ XDG_STATE_HOME: "/x/state" }), "/x/state/mcp-prism");
  assert.match(transcriptDir({}), /\/\.local\/state\/mcp-prism$/);
  assert.match(transcriptDir({ XDG_STATE_HOME: "rel/dir" }), /\/\.local\/state\/mcp-prism$/);
});

test("every event is on disk as soon as it happens: user turn, request, routed sinks, reply, errors", () => {
  const dir = mkdtempSync(join(tmpdir(), "prism-tr-"));
  try {
    const store = new SessionStore();
    const t = attachTranscript(store, join(dir, "mcp-prism"));
    assert.ok(t.file && t.file.path.startsWith(join(dir, "mcp-prism", "session-")) && t.file.path.endsWith(".jsonl"));
    const path = t.file.path;
    store.startTurn("search customers Globex");
    // Synchronously written: read back before anything else runs.
    assert.deepEqual(
      read(path).map((r) => [r.kind, r.text]),
      [["user", "search customers Globex"]],
    );
    const id = store.toolStart("demo", "search_customers", { query: "Globex" });
    assert.equal(read(path).at(-1).kind, "request");
    store.toolEnd(
      id,
      okOutcome(
        {
          model: [{ audience: "assistant", format: "content", content: [{ type: "text", text: "MODEL-TEXT" }] }],
          programmatic: [{ audience: "programmatic", format: "structured", structuredContent: { ids: ["cust_1042"] } }],
        },
        {
          requested: [
            { audience: "assistant", format: "content" },
            { audience: "programmatic", format: "structured" },
          ],
        },
      ),
    );
    store.appendText("Here is ");
    store.appendText("the answer.");
    store.notice("something broke", "error");
    store.endTurn();
    const failed = failedOutcome(plan({ tool: "wait" }), "cancelled", "the call was cancelled", 3);
    store.startTurn("wait");
    store.toolEnd(store.toolStart("demo", "wait", { ms: 1 }), failed);
    store.endTurn();
    const recs = read(path);
    assert.deepEqual(
      recs.map((r) => r.kind),
      ["user", "request", "tool", "notice", "assistant", "user", "request", "tool"],
    );
    const tool = recs[2];
    assert.deepEqual(tool.requestedOutputs, [
      { audience: "assistant", format: "content" },
      { audience: "programmatic", format: "structured" },
    ]);
    assert.deepEqual(tool.routed.programmatic[0].structuredContent, { ids: ["cust_1042"] });
    assert.equal(tool.routed.model[0].content[0].text, "MODEL-TEXT");
    assert.equal(tool.turn, recs[0].turn);
    assert.deepEqual([recs[3].level, recs[3].text], ["error", "something broke"]);
    assert.equal(recs[4].text, "Here is the answer.");
    // The error as data (server, tool, rule, detail) and its one line.
    assert.deepEqual(recs[7].error, {
      server: "demo",
      tool: "wait",
      rule: "cancelled",
      detail: "the call was cancelled",
      message: "server demo, tool wait: the call was cancelled",
    });
    for (const r of recs) assert.ok(!Number.isNaN(Date.parse(r.at)), "every record has a timestamp");
    t.detach();
    store.notice("after detach");
    assert.equal(read(path).length, recs.length, "nothing written after detach");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an unwritable state dir costs one error notice; the session goes on", () => {
  const dir = mkdtempSync(join(tmpdir(), "prism-tr-"));
  try {
    const blocker = join(dir, "file");
    writeFileSync(blocker, "not a dir");
    const store = new SessionStore();
    const t = attachTranscript(store, join(blocker, "mcp-prism"));
    assert.equal(t.file, undefined);
    const notices = store
      .getState()
      .finished.flatMap((x) => x.items)
      .filter((i) => i.kind === "notice");
    assert.equal(notices.length, 1);
    assert.match((notices[0] as { text: string }).text, /^transcript off: cannot write in /);
    store.startTurn("still works");
    t.detach();
  } finally {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("/save writes the whole transcript (the same records) as JSON Lines; /mode and unknown commands are in it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "prism-tr-"));
  try {
    const store = new SessionStore();
    const ctx: CommandContext = {
      store,
      host: { tools: async () => [], servers: () => [], call: async () => okOutcome({}) },
      width: () => 80,
      quit: () => {},
      cwd: dir,
      commands: COMMANDS,
    };
    store.record({ kind: "session", event: "start" });
    await dispatch("/mode code", ctx);
    await dispatch("/nope", ctx);
    await dispatch("/pane off", ctx);
    await dispatch("/save out.jsonl", ctx);
    const recs = read(join(dir, "out.jsonl"));
    assert.equal(recs[0].kind, "session");
    assert.ok(recs.some((r) => r.kind === "mode" && r.mode === "code"));
    assert.ok(recs.some((r) => r.kind === "user" && r.text === "/nope"));
    assert.ok(recs.some((r) => r.kind === "notice" && r.level === "error" && /unknown command \/nope/.test(r.text)));
    assert.ok(recs.some((r) => r.kind === "user" && r.text === "/pane off"));
    assert.equal(recs.at(-1).text, "/save out.jsonl");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
