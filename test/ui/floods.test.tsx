// Floods at the store: a progress flood is drawn a bounded number of times (the latest wins), and
// a streamed reply leaves the live frame line by line (so each redraw costs the unfinished tail,
// not the whole reply), drawn exactly as the whole text would be, its transcript record whole.
import "./env.js";
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { Conversation } from "../../src/ui/components/Conversation.js";
import { DRAW_INTERVAL_MS, SessionStore, type Turn, type TurnItem } from "../../src/ui/state.js";
import { LIVE_TAIL_MAX, LONG_LINE, splitFinished } from "../../src/ui/live-text.js";
import { okOutcome, renderAt, stripAnsi, type Harness } from "./harness.js";

const open: Harness[] = [];
after(() => open.forEach((h) => h.unmount()));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function counting(store: SessionStore): () => number {
  let n = 0;
  store.subscribe(() => n++);
  return () => n;
}
const cardOf = (items: readonly TurnItem[] | undefined) => items?.find((i) => i.kind === "tool");

test("50,000 progress notifications: a bounded number of redraws, the latest drawn", async () => {
  const store = new SessionStore();
  store.startTurn("flood");
  const id = store.toolStart("hostile", "flood_progress", {});
  const redraws = counting(store);
  for (let i = 1; i <= 50_000; i++) store.toolProgress(id, { progress: i, total: 50_000, message: `step ${i}` });
  assert.ok(redraws() <= 1, `at most one redraw during a synchronous flood (${redraws()})`);
  await sleep(DRAW_INTERVAL_MS * 3);
  assert.ok(redraws() <= 2, `one more once the interval passed (${redraws()})`);
  const card = cardOf(store.getState().live?.items);
  assert.ok(
    card?.kind === "tool" && card.call.progress?.progress === 50_000 && card.call.progress.message === "step 50000",
    "the latest progress is what is drawn",
  );

  // Spread over event-loop turns (as a server's stream delivers it): still far fewer redraws than notifications.
  for (let i = 1; i <= 20_000; i++) {
    store.toolProgress(id, { progress: i, total: 20_000 });
    if (i % 100 === 0) await new Promise((r) => setImmediate(r));
  }
  assert.ok(redraws() < 200, `redraws bounded by time, not by notifications (${redraws()} for 20,000)`);
  // The outcome keeps the last progress; nothing about progress reaches the transcript.
  store.toolProgress(id, { progress: 7, total: 7 });
  store.toolEnd(id, okOutcome({}));
  const done = cardOf(store.getState().live?.items);
  assert.ok(done?.kind === "tool" && done.call.outcome && done.call.progress?.progress === 7);
  assert.ok(!store.transcript().some((r) => JSON.stringify(r).includes("step ")), "progress is not recorded");
});

test("splitFinished: finished lines vs the unfinished tail, CRLF whole, long lines cut at a space", () => {
  assert.equal(splitFinished("no newline yet"), undefined);
  assert.deepEqual(splitFinished("one\ntwo\nthr"), { done: "one\ntwo", tail: "thr" });
  assert.deepEqual(splitFinished("one\r\ntw"), { done: "one", tail: "tw" });
  assert.deepEqual(splitFinished("one\n"), { done: "one", tail: "" });
  assert.deepEqual(splitFinished("\n\nx"), { done: "\n", tail: "x" });
  const words = "word ".repeat(LONG_LINE / 5 + 10) + "tail";
  const long = splitFinished(words)!;
  assert.ok(long.tail === "tail" && long.done.length < words.length, "cut at the last space");
  const solid = "x".repeat(LONG_LINE + 10) + "\uD83D";
  const hard = splitFinished(solid)!;
  assert.equal(hard.tail, "\uD83D", "a high surrogate waits for its pair");
  assert.equal(hard.done, "x".repeat(LONG_LINE + 10));
});

test("a 100 KB streamed reply: the live frame keeps only the tail; drawn as the whole text; recorded whole", async () => {
  const store = new SessionStore();
  store.startTurn("stream");
  let liveMax = 0;
  store.subscribe(() => {
    const live = store.getState().live;
    const chars = live
      ? live.items.reduce((n, i) => n + (i.kind === "assistant" || i.kind === "user" ? i.text.length : 100), 0)
      : 0;
    liveMax = Math.max(liveMax, chars);
  });
  const lines = Array.from({ length: 1_250 }, (_, i) => `line ${i + 1}: ${"lorem ipsum ".repeat(6)}`);
  const text = lines.join("\n") + "\n\nlast words, and a very long line " + "without any newline ".repeat(200) + "end";
  let tailMax = 0;
  for (let i = 0, n = 0; i < text.length; i += 23, n++) {
    store.appendText(text.slice(i, i + 23));
    // Bounded after every delta, not only when drawn: whatever redraws meanwhile sees a short tail.
    const last = store.getState().live?.items.at(-1);
    tailMax = Math.max(tailMax, last?.kind === "assistant" ? last.text.length : 0);
    if (n % 400 === 0) await sleep(DRAW_INTERVAL_MS + 5);
  }
  assert.ok(
    tailMax <= Math.max(LONG_LINE, LIVE_TAIL_MAX) + 23,
    `the live tail stayed short between draws (at most ${tailMax} characters)`,
  );
  await sleep(DRAW_INTERVAL_MS + 5);
  const s = store.getState();
  assert.ok(s.finished.length > 5, `the reply left the live frame in parts (${s.finished.length})`);
  assert.ok(
    liveMax <= LONG_LINE + 400 * 23,
    `the live frame stayed small (at most ${liveMax} characters, of ${text.length})`,
  );
  store.endTurn();
  const parts = store.getState().finished;
  assert.ok(
    parts.every((t) => t.id === parts[0].id),
    "all parts of one turn",
  );
  assert.deepEqual(
    parts.slice(0, -1).map((t) => t.part),
    parts.slice(0, -1).map((_, i) => i + 1),
  );
  const assistant = store.transcript().filter((r) => r.kind === "assistant");
  assert.equal(assistant.length, 1);
  assert.equal(assistant[0].text, text, "the transcript records the whole reply");

  // Drawn, the parts give exactly the lines of the whole text drawn in one piece.
  const whole: Turn[] = [
    {
      id: 1,
      items: [
        { kind: "user", text: "stream" },
        { kind: "assistant", text },
      ],
    },
  ];
  const a = renderAt(<Conversation finished={parts} width={100} />, 100, 40);
  const b = renderAt(<Conversation finished={whole} width={100} />, 100, 40);
  open.push(a, b);
  const got = stripAnsi(a.lastFrame()).split("\n");
  const want = stripAnsi(b.lastFrame()).split("\n");
  const cut = want.findIndex((l) => l.startsWith("last words"));
  assert.ok(cut > 1250);
  assert.deepEqual(got.slice(0, cut + 1), want.slice(0, cut + 1), "every finished line drawn as in the whole text");
  // The long line without a newline was cut (at spaces) while it streamed: the same words, in order.
  const words = (ls: string[]) => ls.slice(cut).join(" ").split(/\s+/).filter(Boolean);
  assert.deepEqual(words(got), words(want));
});
