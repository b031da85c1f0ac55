import "./env.js";
import { test, after } from "node:test";
import assert from "node:assert/strict";
import jpeg from "jpeg-js";
import { ToolCard } from "../../src/ui/components/ToolCard.js";
import { UserContentView } from "../../src/ui/components/UserContentView.js";
import { TableView } from "../../src/ui/components/TableView.js";
import { ProgrammaticPane, AppPane } from "../../src/ui/components/Panes.js";
import { StatusBar } from "../../src/ui/components/StatusBar.js";
import { ApprovalPrompt } from "../../src/ui/components/ApprovalPrompt.js";
import { Conversation } from "../../src/ui/components/Conversation.js";
import { SessionStore, type ToolCallView } from "../../src/ui/state.js";
import { readImageSize, renderImage } from "../../src/ui/image.js";
import { imagesSettled } from "../../src/ui/imageCache.js";
import {
  renderAt,
  waitFor,
  stripAnsi,
  assertNeutralized,
  HOSTILE,
  okOutcome,
  plan,
  makePng,
  pngHeaderOnly,
  type Harness,
} from "./harness.js";
import { callError, failedOutcome } from "../../src/host/host-error.js";

const open: Harness[] = [];
function draw(el: React.ReactElement, columns = 100): Harness {
  const h = renderAt(el, columns);
  open.push(h);
  return h;
}
after(() => open.forEach((h) => h.unmount()));

const call = (c: Partial<ToolCallView> = {}): ToolCallView => ({
  id: "c1",
  n: 1,
  server: "demo",
  tool: "generate_images",
  args: { prompt: "a cat", count: 2 },
  startedAt: Date.now(),
  ...c,
});

test("ToolCard running: spinner, progress 3/5 with message, elapsed time", () => {
  const h = draw(
    <ToolCard
      call={call({ startedAt: Date.now() - 1500, progress: { progress: 3, total: 5, message: "Drawing image…" } })}
      width={100}
    />,
  );
  const f = stripAnsi(h.lastFrame());
  assert.match(f, /demo · generate_images/);
  assert.match(f, /\{"prompt":"a cat","count":2\}/);
  assert.match(f, /3\/5 Drawing image… · (1\.[5-9]|[2-9]\.\d)s/);
  assert.match(f, /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /m);
});

test("ToolCard running a task: its status and message, no bare 0 before them", () => {
  const h = draw(
    <ToolCard
      call={call({
        startedAt: Date.now() - 1500,
        progress: { progress: 0, message: "task working: 3 of 5 sources read" },
      })}
      width={100}
    />,
  );
  const f = stripAnsi(h.lastFrame());
  assert.match(f, /^ {2}task working: 3 of 5 sources read · (1\.[5-9]|[2-9]\.\d)s/m);
  assert.doesNotMatch(f, /0 task/);
  const plain = stripAnsi(
    draw(<ToolCard call={call({ startedAt: Date.now(), progress: { progress: 0 } })} width={100} />).lastFrame(),
  );
  assert.match(plain, /^ {2}0 · /m, "a progress of 0 with nothing else is still shown");
});

test("ToolCard done: requested outputs and per-sink sizes", () => {
  const img = { type: "image", data: "AAAA", mimeType: "image/png" };
  const o = okOutcome(
    {
      model: [{ audience: "assistant", format: "content", content: [{ type: "text", text: "Drew 2 cats." }] }],
      user: [{ audience: "user", format: "content", content: [img, { ...img }] }],
      programmatic: [{ audience: "programmatic", format: "structured", structuredContent: { ids: [1, 2] } }],
    },
    {
      requested: [
        { audience: "assistant", format: "content" },
        { audience: "user", format: "content" },
        { audience: "programmatic", format: "structured" },
      ],
    },
    { bytes: { model: 212, user: 48 * 1024, programmatic: 3174, app: 0 } },
  );
  const h = draw(<ToolCard call={call({ outcome: o })} width={120} />);
  const f = stripAnsi(h.lastFrame());
  assert.match(f, /✓ demo · generate_images/);
  assert.match(f, /requested: assistant\/content, user\/content, programmatic\/structured/);
  assert.match(f, /→ model 212 B · user 2 images 48 kB · programmatic 3\.1 kB · app —/);
  assert.match(f, /model sees: Drew 2 cats\./);
});

test("ToolCard: fallback, legacy era, isError", () => {
  const fallback = okOutcome({}, { requested: undefined, era: "2026-12-01" });
  assert.match(
    stripAnsi(draw(<ToolCard call={call({ outcome: fallback })} width={100} />).lastFrame()),
    /requested: none sent \(fallback\)/,
  );
  const legacy = okOutcome({}, { requested: undefined, era: "legacy", protocolVersion: "2025-11-25" });
  assert.match(
    stripAnsi(draw(<ToolCard call={call({ outcome: legacy })} width={100} />).lastFrame()),
    /requested: legacy era \(2025-11-25\)/,
  );
  const err = okOutcome(
    { model: [{ audience: "assistant", format: "content", content: [{ type: "text", text: "no such city" }] }] },
    {},
    { isError: true },
  );
  const f = stripAnsi(draw(<ToolCard call={call({ outcome: err })} width={100} />).lastFrame());
  assert.match(f, /^✗ demo/m);
  assert.match(f, /isError/);
});

test("ToolCard failed: ONE red line naming server, tool and rule", () => {
  const o = failedOutcome(
    plan(),
    "unrequested-output",
    "server returned programmatic/structured, which was not requested",
    5,
  );
  const h = draw(<ToolCard call={call({ outcome: o })} width={120} />, 120);
  const lines = stripAnsi(h.lastFrame())
    .split("\n")
    .filter((l) => l.trim());
  assert.equal(lines.length, 1);
  assert.match(
    lines[0],
    /✗ demo · search_customers failed \[unrequested-output\]: server returned programmatic\/structured/,
  );
  assert.match(h.lastFrame(), /\x1b\[31m/, "drawn in red");
});

test("ToolCard failed: drawn from the error's fields, the server and tool named once", () => {
  const o = failedOutcome(plan(), "timeout", "no answer within 60 s", 5);
  const line = stripAnsi(draw(<ToolCard call={call({ outcome: o })} width={120} />).lastFrame()).trim();
  assert.equal(line, "✗ demo · search_customers failed [timeout]: no answer within 60 s");
  // The card reads `detail`, never the message line (a message is not parsed back).
  const odd = { ...o, error: { ...o.error, message: "server demo, tool search_customers: NOT THE DETAIL" } };
  assert.equal(stripAnsi(draw(<ToolCard call={call({ outcome: odd })} width={120} />).lastFrame()).trim(), line);
  // An error about another server's tool (tool-moved) keeps its whole line.
  const moved = {
    ...o,
    error: callError("other", "search_customers", "tool-moved", "now means another tool; not run"),
  };
  assert.match(
    stripAnsi(draw(<ToolCard call={call({ outcome: moved })} width={160} />, 160).lastFrame()),
    /failed \[tool-moved\]: server other, tool search_customers: now means another tool; not run/,
  );
});

test("image: real PNG → half-block ANSI at the requested width", async () => {
  const png = makePng(120, 40, (x, y) => [x * 2, y * 6, 128]);
  const block = { type: "image" as const, data: png.toString("base64"), mimeType: "image/png" };
  const h = draw(
    <UserContentView
      outputs={[{ audience: "user", format: "content", content: [block] }] as never}
      width={48}
      saveIds={new Map([[block, 7]])}
    />,
  );
  await waitFor(() => h.lastFrame().includes("▄"), "image rendering");
  const f = h.lastFrame();
  assert.match(
    f,
    /\x1b\[(?:3[0-7]|4[0-7]|9[0-7]|10[0-7]|[34]8;[25];[\d;]+)m▄/,
    "ANSI colour codes before the half-blocks",
  );
  const imageLines = f.split("\n").filter((l) => l.includes("▄"));
  assert.equal(imageLines.length, 8, "120×40 px at 48 columns = 48×16 px = 8 rows");
  for (const l of imageLines)
    assert.equal([...stripAnsi(l).replace(/\x1b\[[0-9;]*m/g, "")].filter((c) => c === "▄").length, 48);
  assert.match(stripAnsi(f), /🖼 image\/png .* 120×40 — \/save-output 7/);
});

test("image: oversized header refused before decoding; configurable limit", async () => {
  const huge = pngHeaderOnly(100_000, 100_000);
  const r = await renderImage(huge, { width: 40 });
  assert.equal(r.ok, false);
  assert.match((r as { reason: string }).reason, /header claims 100000×100000 \(10000\.0 MP\), limit 40\.0 MP/);
  const block = {
    type: "image" as const,
    data: makePng(64, 32, () => [0, 0, 0]).toString("base64"),
    mimeType: "image/png",
  };
  const h = draw(
    <UserContentView
      outputs={[{ audience: "user", format: "content", content: [block] }] as never}
      width={40}
      maxPixels={1000}
    />,
  );
  await waitFor(() => h.lastFrame().includes("refused"), "refusal line");
  assert.match(stripAnsi(h.lastFrame()), /⚠ image refused: header claims 64×32/);
  await imagesSettled();
});

test("image header reader: PNG, JPEG SOF, junk", () => {
  assert.deepEqual(readImageSize(makePng(3, 2, () => [1, 2, 3])), { width: 3, height: 2, format: "png" });
  const j = jpeg.encode({ data: Buffer.alloc(17 * 9 * 4, 200), width: 17, height: 9 }, 80).data;
  assert.deepEqual(readImageSize(j), { width: 17, height: 9, format: "jpeg" });
  assert.equal(readImageSize(Buffer.from("not an image")), undefined);
});

test("user content: text, audio, links and resources as labelled lines", () => {
  const audio = { type: "audio", data: Buffer.alloc(12 * 1024).toString("base64"), mimeType: "audio/wav" };
  const link = { type: "resource_link", uri: "file:///r/report.csv", name: "report.csv", mimeType: "text/csv" };
  const res = { type: "resource", resource: { uri: "mem://notes", mimeType: "text/plain", text: "hello" } };
  const h = draw(
    <UserContentView
      outputs={
        [
          { audience: "user", format: "content", content: [{ type: "text", text: "Here you go:" }, audio, link, res] },
        ] as never
      }
      width={100}
      saveIds={
        new Map<object, number>([
          [audio, 3],
          [link, 4],
          [res, 5],
        ])
      }
    />,
  );
  const f = stripAnsi(h.lastFrame());
  assert.match(f, /Here you go:/);
  assert.match(f, /♪ audio\/wav 12 kB — \/save-output 3/);
  assert.match(f, /🔗 report\.csv <file:\/\/\/r\/report\.csv> text\/csv — \/save-output 4/);
  assert.match(f, /📄 mem:\/\/notes text\/plain 5 B — \/save-output 5/);
});

test("panes: programmatic only in its pane, App only in the App pane with its extension label", () => {
  const store = new SessionStore();
  store.startTurn("show me");
  const id = store.toolStart("demo", "refresh_dashboard", {});
  store.toolEnd(
    id,
    okOutcome(
      {
        model: [{ audience: "assistant", format: "content", content: [{ type: "text", text: "MODEL-TEXT" }] }],
        programmatic: [
          { audience: "programmatic", format: "structured", structuredContent: { marker: "PROG-CANARY" } },
        ],
        app: [
          { audience: "io.modelcontextprotocol/ui", format: "structured", structuredContent: { marker: "APP-CANARY" } },
        ],
        appMeta: { "io.modelcontextprotocol/ui": { resourceUri: "ui://dash" } },
      },
      { tool: "refresh_dashboard" },
    ),
  );
  store.endTurn();
  const s = store.getState();
  const conv = stripAnsi(draw(<Conversation finished={s.finished} live={s.live} width={100} />).lastFrame());
  const prog = stripAnsi(
    draw(<ProgrammaticPane entries={s.programmatic} width={50} height={20} scroll={0} />).lastFrame(),
  );
  const app = stripAnsi(draw(<AppPane entries={s.app} width={60} height={20} />).lastFrame());
  assert.match(prog, /PROG-CANARY/);
  assert.match(prog, /#1 demo · refresh_dashboard .* \d+ B/);
  assert.ok(!prog.includes("APP-CANARY") && !prog.includes("MODEL-TEXT"));
  assert.match(app, /App · io\.modelcontextprotocol\/ui/);
  // A narrow pane keeps the extension id whole and drops the "App ·" word instead.
  const narrow = stripAnsi(draw(<AppPane entries={s.app} width={34} height={20} focused />).lastFrame());
  assert.match(narrow, /▸ io\.modelcontextprotocol\/ui \(\d+\)/);
  assert.match(app, /APP-CANARY/);
  assert.match(app, /_meta:/);
  assert.match(app, /ui:\/\/dash/);
  assert.ok(!app.includes("PROG-CANARY"));
  assert.ok(!conv.includes("PROG-CANARY") && !conv.includes("APP-CANARY") && !conv.includes("ui://dash"));
  assert.match(conv, /programmatic \d+ B · app \d+ B/);
});

test("programmatic pane scrolls with ↑/↓ markers and bounded height", () => {
  const entries = Array.from({ length: 10 }, (_, i) => ({
    n: i + 1,
    server: "demo",
    tool: "t",
    at: 0,
    bytes: 10,
    value: { i, list: [1, 2, 3] },
  }));
  const bottom = stripAnsi(draw(<ProgrammaticPane entries={entries} width={50} height={12} scroll={0} />).lastFrame());
  assert.match(bottom, /↑ \d+ more/);
  assert.ok(!/↓/.test(bottom));
  assert.ok(bottom.split("\n").length <= 12, "bounded height");
  const up = stripAnsi(draw(<ProgrammaticPane entries={entries} width={50} height={12} scroll={20} />).lastFrame());
  assert.match(up, /↓ 20 more/);
});

test("status bar: servers with version and state, mode, model, key hints", () => {
  const f = stripAnsi(
    draw(
      <StatusBar
        servers={[
          { name: "demo", protocolVersion: "2026-12-01", state: "connected" },
          { name: "old", state: "failed" },
        ]}
        mode="code"
        model="offline"
        width={160}
      />,
      160,
    ).lastFrame(),
  );
  assert.match(f, /● demo 2026-12-01 connected/);
  assert.match(f, /● old error/);
  const signIn = stripAnsi(
    draw(
      <StatusBar
        servers={[{ name: "remote", state: "failed", failure: { rule: "auth-required", detail: "HTTP 401" } }]}
        mode="chat"
        model="offline"
        width={160}
      />,
      160,
    ).lastFrame(),
  );
  assert.match(signIn, /● remote sign-in needed/);
  assert.match(f, /mode code · model offline/);
  assert.match(f, /Tab complete · \^T pane · \^O expand · .*Esc cancel · \^C\^C quit · \/help/);
});

test("status bar at 80 columns with token counts: two rows, broken after a separator, no row starts with a space", () => {
  const usage = { input: 2600, output: 72, cacheRead: 0, cacheWrite: 0, estimated: true };
  const snap = { session: usage, last: { n: 1, prompt: "p", usage, requests: 1 }, turns: [] };
  const f = stripAnsi(
    draw(
      <StatusBar
        servers={[{ name: "demo", protocolVersion: "2026-12-01", state: "connected" }]}
        mode="app"
        model="offline"
        width={80}
        usage={snap}
      />,
      80,
    ).lastFrame(),
  );
  const rows = f.split("\n").filter((r) => r.trim());
  assert.equal(rows.length, 2, f);
  for (const r of rows) {
    assert.ok(r.length <= 80, r);
    assert.doesNotMatch(r, /^ /, `a row starts with a space: ${JSON.stringify(r)}`);
  }
  assert.match(rows[0], /^● demo 2026-12-01 connected {2}│ mode app · model offline ·$/);
  assert.match(rows[1], /^tokens ≈2\.6k in \/ ≈72 out · turn ≈2\.6k \/ ≈72 │ .*\/help$/);
});

test("approval prompt: y / n / a answer", async () => {
  const answers: string[] = [];
  const h = draw(
    <ApprovalPrompt server="demo" tool="wait" args={{ seconds: 3 }} width={80} onAnswer={(a) => answers.push(a)} />,
  );
  assert.match(stripAnsi(h.lastFrame()), /Run tool wait on server demo with \{"seconds":3\}\?/);
  assert.match(stripAnsi(h.lastFrame()), /\[y\]es \/ \[n\]o \/ \[a\]lways for this tool/);
  for (const k of ["y", "n", "a"]) {
    h.stdin.write(k);
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.deepEqual(answers, ["yes", "no", "always"]);
});

// --- the hostile corpus through every component -------------------------------------------
test("hostile strings are neutralized in every component", async () => {
  const hostileCall = call({
    server: `srv${HOSTILE}`,
    tool: `tool${HOSTILE}`,
    args: { q: HOSTILE },
    progress: { progress: 1, message: HOSTILE },
  });
  assertNeutralized(draw(<ToolCard call={hostileCall} width={300} />, 300).lastFrame());
  const failed = failedOutcome(plan({ server: `s${HOSTILE}`, tool: "t" }), "schema-violation", `bad ${HOSTILE}`, 1);
  assertNeutralized(draw(<ToolCard call={call({ outcome: failed })} width={300} />, 300).lastFrame());
  const done = okOutcome({
    model: [{ audience: "assistant", format: "content", content: [{ type: "text", text: HOSTILE }] }],
  });
  assertNeutralized(draw(<ToolCard call={call({ outcome: done })} width={300} />, 300).lastFrame());
  assertNeutralized(
    draw(
      <UserContentView
        outputs={
          [{ audience: "user", format: "content", content: [{ type: "text", text: `desc ${HOSTILE}` }] }] as never
        }
        width={200}
      />,
      200,
    ).lastFrame(),
  );
  assertNeutralized(draw(<TableView value={[{ [HOSTILE.slice(0, 10)]: HOSTILE }]} width={200} />, 200).lastFrame(), {
    visible: false,
  });
  assertNeutralized(draw(<TableView value={{ cell: HOSTILE }} width={200} />, 200).lastFrame());
  const entry = { n: 1, server: "s", tool: `t${HOSTILE}`, at: 0, bytes: 1, value: { k: HOSTILE } };
  assertNeutralized(draw(<ProgrammaticPane entries={[entry]} width={200} height={20} scroll={0} />, 200).lastFrame());
  assertNeutralized(
    draw(
      <AppPane
        entries={[
          {
            ...entry,
            audience: "io.modelcontextprotocol/ui",
            appMeta: { "io.modelcontextprotocol/ui": { x: HOSTILE } },
          },
        ]}
        width={200}
        height={20}
      />,
      200,
    ).lastFrame(),
  );
  assertNeutralized(
    draw(
      <StatusBar servers={[{ name: `n${HOSTILE}`, state: "connected" }]} mode="chat" model="offline" width={300} />,
      300,
    ).lastFrame(),
    { visible: false },
  );
  assertNeutralized(
    draw(
      <ApprovalPrompt
        server={`s${HOSTILE}`}
        tool={`t${HOSTILE}`}
        args={{ a: HOSTILE }}
        width={250}
        onAnswer={() => {}}
      />,
      250,
    ).lastFrame(),
  );
  const store = new SessionStore();
  store.startTurn(`user ${HOSTILE}`);
  store.appendText(`model ${HOSTILE}`);
  store.endTurn();
  assertNeutralized(draw(<Conversation finished={store.getState().finished} width={200} />, 200).lastFrame());
});

test("ToolCard: each host warning of the outcome (rule and detail, sanitized) under the sinks", () => {
  const o = okOutcome(
    { model: [{ audience: "assistant", format: "content", content: [{ type: "text", text: "n is seven" }] }] },
    { era: "legacy", protocolVersion: "2025-11-25" },
  );
  const warned = {
    ...o,
    warnings: [
      {
        server: "demo",
        tool: "generate_images",
        rule: "schema-violation",
        detail: `structuredContent dropped: /n must be number ${HOSTILE}`,
      },
    ],
  } as typeof o;
  const f = draw(<ToolCard call={call({ outcome: warned })} width={140} />).lastFrame();
  assertNeutralized(f);
  assert.match(stripAnsi(f), /^ {2}⚠ \[schema-violation\] structuredContent dropped: \/n must be number/m);
  assert.doesNotMatch(stripAnsi(draw(<ToolCard call={call({ outcome: o })} width={140} />).lastFrame()), /⚠/);
});

test("approval prompt: cut arguments can be seen whole ([v]/Tab), wrapped and scrolled, before answering", async () => {
  const answers: string[] = [];
  const tail = "rm -rf ~/DANGEROUS-TAIL";
  const args = {
    command: `echo ${"harmless ".repeat(40)}; ${tail}`,
    options: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`opt${i}`, i])),
  };
  const h = draw(
    <ApprovalPrompt server="shell" tool="run" args={args} width={60} rows={8} onAnswer={(a) => answers.push(a)} />,
    60,
  );
  const tick = () => new Promise((r) => setTimeout(r, 20));
  // A key is drawn on a later turn of the event loop, later still on a loaded machine: wait for
  // the frame that shows it (bounded) instead of a fixed pause.
  const frameWhen = async (ok: (f: string) => boolean) => {
    for (let i = 0; i < 250 && !ok(stripAnsi(h.lastFrame())); i++) await tick();
    return stripAnsi(h.lastFrame());
  };
  let f = stripAnsi(h.lastFrame());
  assert.doesNotMatch(f, /DANGEROUS-TAIL/, "cut in the one-line view");
  assert.match(f.replace(/[│\s]+/g, " "), /\[v\] view all arguments \(cut above\)/);
  h.stdin.write("v");
  f = await frameWhen((x) => /lines 1–8 of \d+/.test(x));
  assert.match(f, /"command": "echo harmless/);
  assert.match(f, /lines 1–8 of \d+/);
  // Scroll to the end: every line of the arguments is reachable, the wrapped tail included.
  const seen = new Set<string>();
  const all = () => [...seen].join("\n").replace(/[│ \n]/g, "");
  for (let i = 0; i < 300 && !(/rm-rf~\/DANGEROUS-TAIL/.test(all()) && /"opt29":29/.test(all())); i++) {
    for (const l of stripAnsi(h.lastFrame()).split("\n")) seen.add(l);
    h.stdin.write("\u001b[B");
    await tick();
  }
  assert.match(all(), /rm-rf~\/DANGEROUS-TAIL/);
  assert.match(all(), /"opt29":29/);
  assert.deepEqual(answers, [], "scrolling answers nothing");
  h.stdin.write("\t");
  assert.doesNotMatch(await frameWhen((x) => !/lines \d/.test(x)), /lines \d/);
  h.stdin.write("n");
  for (let i = 0; i < 250 && answers.length === 0; i++) await tick();
  assert.deepEqual(answers, ["no"]);
});

test("ToolCard failed: a long error wraps at words, never mid-word, continuation rows indented (34, polish)", () => {
  const detail =
    "the server answered with something entirely unexpected while the connection was being established again";
  const o = failedOutcome(plan(), "connection-failed", detail, 5);
  const rows = stripAnsi(draw(<ToolCard call={call({ outcome: o })} width={50} />, 50).lastFrame())
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.trim());
  assert.ok(rows.length >= 3, rows.join("\n"));
  const words = new Set(`✗ demo · search_customers failed [connection-failed]: ${detail}`.split(" "));
  for (const row of rows.slice(0, 2)) {
    for (const w of row.trim().split(" ")) assert.ok(words.has(w), `a cut word "${w}" in: ${rows.join("\n")}`);
    assert.ok(row.length <= 50);
  }
  assert.match(rows[1], /^ {2}\S/, "continuation indented");
});
