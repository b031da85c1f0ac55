import "./env.js";
import { test, after } from "node:test";
import assert from "node:assert/strict";
import type { Key } from "ink";
import { PromptInput, applyKey, EMPTY_EDIT } from "../../src/ui/components/PromptInput.js";
import { renderAt, tick, stripAnsi, type Harness } from "./harness.js";
import type { CompletionSource } from "../../src/ui/hooks/useCompletion.js";
import type { PromptEntry } from "../../src/host/catalog/prompts.js";
import { COMMANDS } from "../../src/ui/commands/index.js";

const GREET: PromptEntry = {
  server: "p",
  name: "greet",
  arguments: [
    { name: "name", required: true },
    { name: "style", required: false },
  ],
};
/** A completion source like the session's: the asks for argument values are recorded. */
function source(
  asked: unknown[] = [],
  commands: CompletionSource["commands"] = ["help", "mode", "save", "save-output"],
): CompletionSource {
  return {
    commands,
    prompts: () => [GREET],
    tools: async () => [
      { name: "search_customers", keys: ["query", "limit", "region"] },
      { name: "get_customer", keys: ["id"] },
    ],
    resources: async () => [
      { uri: "demo://customers/globex", name: "Globex" },
      { uri: "demo://customers/initech", name: "Initech" },
      { uri: "demo://reports/7", name: "Q3 revenue" },
    ],
    known: () => ({ servers: ["demo", "other"], cards: 3, outputs: 0, tableRows: 0 }),
    complete: async (_e, argument, value, context) => {
      asked.push({ argument, value, context });
      const pool = argument === "name" ? ["Ada", "Alan", "Ada Lovelace"] : ["formal", "casual"];
      return { values: pool.filter((v) => v.startsWith(value)), hasMore: false };
    },
  };
}

const open: Harness[] = [];
after(() => open.forEach((h) => h.unmount()));

function setup(
  history: string[] = [],
  asked: unknown[] = [],
  empties: boolean[] = [],
  opts: { commands?: CompletionSource["commands"]; busy?: boolean } = {},
) {
  const submitted: string[] = [];
  const h = renderAt(
    <PromptInput
      onSubmit={(t) => submitted.push(t)}
      history={history}
      width={80}
      completion={source(asked, opts.commands)}
      onEmpty={(e) => empties.push(e)}
      busy={opts.busy}
    />,
    80,
  );
  open.push(h);
  const type = async (s: string) => {
    h.stdin.write(s);
    await tick(15);
  };
  return { h, submitted, type, frame: () => stripAnsi(h.lastFrame()) };
}

test("typing and Enter submits; the line is cleared", async () => {
  const { submitted, type, frame } = setup();
  for (const c of "hello") await type(c);
  assert.match(frame(), /› hello/);
  await type("\r");
  assert.deepEqual(submitted, ["hello"]);
  assert.ok(!frame().includes("hello"));
});

test("editing: ←, Backspace, ^A, ^E, ^U, ^W", async () => {
  const { submitted, type } = setup();
  for (const c of "helo") await type(c);
  await type("\x1b[D"); // ←
  await type("l"); // hel|lo → hello
  await type("\x05"); // ^E
  await type(" world");
  await type("\x7f"); // Backspace → "hello worl"
  await type("\x17"); // ^W → "hello "
  await type("there");
  await type("\x01"); // ^A
  await type(">");
  await type("\r");
  assert.deepEqual(submitted, [">hello there"]);
  const s2 = setup();
  for (const c of "abc") await s2.type(c);
  await s2.type("\x15"); // ^U
  await s2.type("x");
  await s2.type("\r");
  assert.deepEqual(s2.submitted, ["x"]);
});

test("history: ↑ recalls older entries, ↓ returns to the draft", async () => {
  const { submitted, type, frame } = setup(["first", "second"]);
  await type("dr");
  await type("\x1b[A");
  assert.match(frame(), /› second/);
  await type("\x1b[A");
  assert.match(frame(), /› first/);
  await type("\x1b[A"); // stays at the oldest
  assert.match(frame(), /› first/);
  await type("\x1b[B");
  await type("\x1b[B");
  assert.match(frame(), /› dr/);
  await type("\x1b[A");
  await type("\r");
  assert.deepEqual(submitted, ["second"]);
});

test("a multi-line paste stays one input, shows its line count, submits whole", async () => {
  const { submitted, type, frame } = setup();
  await type("line one\r\nline two\nline three");
  assert.match(frame(), /› line one/);
  assert.match(frame(), /line three/);
  assert.match(frame(), /\[3 lines · Enter sends all\]/);
  assert.equal(submitted.length, 0, "the newlines in a paste do not submit");
  await type("\r");
  assert.deepEqual(submitted, ["line one\nline two\nline three"]);
});

test("slash completion hint", async () => {
  const { type, frame } = setup();
  await type("/");
  await type("s");
  assert.match(frame(), /\/save {2}\/save-output/);
  assert.ok(!frame().includes("/help"));
});

test("Tab completes commands and prompt commands as far as they agree, one candidate whole", async () => {
  const empties: boolean[] = [];
  const { type, frame } = setup([], [], empties);
  await type("/");
  assert.match(frame(), /\/help {2}\/mode {2}\/save {2}\/save-output {2}\/p:greet/);
  await type("s");
  await type("\t");
  assert.match(frame(), /› \/save /, "both candidates share /save");
  assert.ok(!frame().includes("/save-output "), "not taken whole");
  await type("\x15"); // ^U
  await type("/p");
  // Tab acts on the menu drawn; under load 15 ms may not be enough for it to follow the text.
  for (let i = 0; i < 100 && !/› \/p\s*\n\s*\/p:greet/.test(frame()); i++) await tick(20);
  await type("\t");
  assert.match(frame(), /› \/p:greet /);
  assert.equal(empties.at(-1), false);
});

test("Tab completes a prompt argument's value from the server, with the other arguments as context", async () => {
  const asked: unknown[] = [];
  const { type, frame } = setup([], asked);
  for (const c of "/p:greet A") await type(c);
  await tick(250);
  assert.match(frame(), /Ada {2}Alan {2}"Ada Lovelace"/);
  await type("d");
  await tick(250);
  await type("\t");
  assert.match(frame(), /› \/p:greet Ad \n/, 'Ada and "Ada Lovelace" do not agree further: Tab adds nothing');
  await type("\x7f");
  await type("l");
  await tick(250);
  await type("\t");
  assert.match(frame(), /› \/p:greet Alan /);
  for (const c of "style=c") await type(c);
  await tick(250);
  await type("\t");
  assert.match(frame(), /› \/p:greet Alan style=casual /);
  assert.deepEqual(asked.at(-1), { argument: "style", value: "c", context: { name: "Alan" } });
});

test("Tab after /call completes a tool name; Tab on an empty line adds nothing", async () => {
  const empties: boolean[] = [];
  const { type, frame } = setup([], [], empties, { commands: COMMANDS });
  await type("\t");
  assert.equal(frame().trim(), "›");
  assert.equal(empties.at(-1), true);
  for (const c of "/call sea") await type(c);
  await tick(50);
  await type("\t");
  assert.match(frame(), /› \/call search_customers /);
});

test("applyKey is pure and ignores app keys", () => {
  const key = (k: Partial<Key>): Key =>
    ({
      upArrow: false,
      downArrow: false,
      leftArrow: false,
      rightArrow: false,
      pageDown: false,
      pageUp: false,
      home: false,
      end: false,
      return: false,
      escape: false,
      ctrl: false,
      shift: false,
      tab: false,
      backspace: false,
      delete: false,
      meta: false,
      super: false,
      hyper: false,
      capsLock: false,
      numLock: false,
      ...k,
    }) as Key;
  const s = { ...EMPTY_EDIT, value: "ab", cursor: 2 };
  assert.deepEqual(applyKey(s, "", key({ tab: true }), []), [s, undefined]);
  assert.deepEqual(applyKey(s, "", key({ escape: true }), []), [s, undefined]);
  assert.deepEqual(applyKey(s, "", key({ return: true }), [])[1], "ab");
  assert.equal(applyKey(s, "\x1b[200~x\ny\x1b[201~", key({}), [])[0].value, "abx\ny");
});

test("^C clears typed text; ↑/↓ move between a draft's lines, and reach history only from its first/last line", () => {
  const key = (k: Partial<Key>): Key =>
    ({
      upArrow: false,
      downArrow: false,
      leftArrow: false,
      rightArrow: false,
      pageDown: false,
      pageUp: false,
      home: false,
      end: false,
      return: false,
      escape: false,
      ctrl: false,
      shift: false,
      tab: false,
      backspace: false,
      delete: false,
      meta: false,
      super: false,
      hyper: false,
      capsLock: false,
      numLock: false,
      ...k,
    }) as Key;
  assert.deepEqual(applyKey({ ...EMPTY_EDIT, value: "half a prompt", cursor: 4 }, "c", key({ ctrl: true }), []), [
    EMPTY_EDIT,
    undefined,
  ]);
  assert.deepEqual(applyKey(EMPTY_EDIT, "c", key({ ctrl: true }), []), [EMPTY_EDIT, undefined]);
  const history = ["older"];
  // "first line\nsecond\nthird one", the cursor after "thi".
  const draft = { ...EMPTY_EDIT, value: "first line\nsecond\nthird one", cursor: 21 };
  const up = applyKey(draft, "", key({ upArrow: true }), history)[0];
  assert.equal(up.cursor, 14, "up keeps the column: after 'sec'");
  assert.equal(up.value, draft.value, "no history recalled from the middle of a draft");
  const up2 = applyKey(up, "", key({ upArrow: true }), history)[0];
  assert.equal(up2.cursor, 3, "the first line, the same column");
  const hist = applyKey(up2, "", key({ upArrow: true }), history)[0];
  assert.equal(hist.value, "older", "from the first line, ↑ is history");
  const down = applyKey({ ...draft, cursor: 10 }, "", key({ downArrow: true }), history)[0];
  assert.equal(down.cursor, 17, "down to a shorter line stops at its end");
});

test("typed text and Enter in ONE chunk (tmux send-keys, ssh) submits the text", async () => {
  const { submitted, type, frame } = setup();
  await type("search customers Globex\r");
  assert.deepEqual(submitted, ["search customers Globex"]);
  assert.ok(!frame().includes("Globex"), "the line is cleared");
  await type("ab");
  await type("cd\r");
  assert.deepEqual(submitted, ["search customers Globex", "abcd"]);
});

test("bracketed paste: newlines kept (CR included), nothing submitted, markers never typed", async () => {
  const { submitted, type, frame } = setup();
  await type("x ");
  await type("\x1b[200~first line\rsecond line\r\nthird\r\x1b[201~");
  assert.equal(submitted.length, 0, "a paste never submits, even ending in CR");
  assert.match(frame(), /\[4 lines · Enter sends all\]/);
  assert.ok(!frame().includes("200~") && !frame().includes("201~"), "markers are not inserted");
  await type("\r");
  assert.deepEqual(submitted, ["x first line\nsecond line\nthird\n"]);
});

test("bracketed paste split over several stdin chunks is one paste", async () => {
  const { submitted, type, frame } = setup();
  await type("\x1b[200~one\r");
  await type("two\r");
  await type("three\x1b[201~");
  assert.equal(submitted.length, 0);
  assert.match(frame(), /\[3 lines · Enter sends all\]/);
  await type("\r");
  assert.deepEqual(submitted, ["one\ntwo\nthree"]);
});

test("keys inside a paste (Esc, Tab, arrows) are text, not commands", async () => {
  const { submitted, type, frame } = setup(["older"]);
  await type("\x1b[200~a\tb\x1b[Ac\x1b[201~");
  assert.equal(submitted.length, 0);
  assert.ok(!frame().includes("older"), "↑ inside a paste does not recall history");
  await type("\r");
  assert.equal(submitted.length, 1);
  assert.ok(submitted[0].startsWith("a\tb") && submitted[0].endsWith("c"));
});

test("type-ahead: several typed lines in one chunk are submitted one by one", async () => {
  const { submitted, type, frame } = setup();
  await type("/mode code\rsearch customers Globex\r\r");
  assert.deepEqual(submitted, ["/mode code", "search customers Globex"]);
  assert.ok(!frame().includes("Globex"));
});

test("several editing keys in one chunk (key repeat over ssh) edit, they are not inserted as text", async () => {
  const { submitted, type, frame } = setup();
  await type("hello worldd");
  await type("\x7f\x7f\x7f\x7f\x7f\x7f"); // six Backspaces in one read
  assert.match(frame(), /› hello /);
  assert.ok(!frame().includes("␡"));
  await type("there\x01>\r"); // text, ^A, text, Enter
  assert.deepEqual(submitted, [">hello there"]);
  await type("abc\x15xyz\r"); // ^U in the middle
  assert.deepEqual(submitted, [">hello there", "xyz"]);
});

test("Tab completes a command's words: modes, servers, pane names, card numbers", async () => {
  const { type, frame } = setup([], [], [], { commands: COMMANDS });
  for (const c of "/mode st") await type(c);
  await type("\t");
  assert.match(frame(), /› \/mode structured /);
  await type("\x15");
  for (const c of "/logs ") await type(c);
  assert.match(frame(), /demo {2}other/, "the servers under the line");
  await type("o");
  await type("\t");
  assert.match(frame(), /› \/logs other /);
  await type("\x15");
  for (const c of "/pane p") await type(c);
  await type("\t");
  assert.match(frame(), /› \/pane programmatic /);
  await type("\x15");
  for (const c of "/show ") await type(c);
  assert.match(frame(), /3 {2}2 {2}1/, "card numbers, newest first");
  await type("\x15");
  for (const c of "/mcp re") await type(c);
  await type("\t");
  assert.match(frame(), /› \/mcp reconnect /);
  await type("d");
  await type("\t");
  assert.match(frame(), /› \/mcp reconnect demo /);
});

test("Tab in /call's JSON completes the tool's argument keys not given yet", async () => {
  const { type, frame } = setup([], [], [], { commands: COMMANDS });
  for (const c of "/call search_customers {") await type(c);
  await tick(50);
  assert.match(frame(), /"query": {2}"limit": {2}"region":/);
  for (const c of '"q') await type(c);
  await type("\t");
  assert.match(frame(), /› \/call search_customers \{"query": /);
  for (const c of '"Globex", ') await type(c);
  await tick(30);
  assert.doesNotMatch(frame(), /"query": {2}/, "a key given is not offered again");
  await type("r");
  await type("\t");
  assert.match(frame(), /\{"query": "Globex", "region": /);
});

test("Tab completes an @ resource by name or URI in a prompt", async () => {
  const { type, frame } = setup();
  for (const c of "summarize @") await type(c);
  await tick(50);
  assert.match(frame(), /@demo:\/\/customers\/globex {2}@demo:\/\/customers\/initech/);
  await type("I");
  await type("\t");
  assert.match(frame(), /› summarize @demo:\/\/customers\/initech /, "by name");
  await type("\x15");
  for (const c of "@demo://customers/g") await type(c);
  await tick(50);
  await type("\t");
  assert.match(frame(), /› @demo:\/\/customers\/globex /, "by URI");
  // A name the URI does not say is shown beside it; Tab still inserts the URI.
  await type("\x15");
  for (const c of "see @") await type(c);
  await tick(50);
  assert.match(frame(), /@demo:\/\/reports\/7 \(Q3 re/);
  assert.doesNotMatch(frame(), /globex \(Globex\)/, "a URI ending in its name is not named twice");
  for (const c of "q3") await type(c);
  await type("\t");
  assert.match(frame(), /› see @demo:\/\/reports\/7 /);
});

test("Esc clears the line when no turn runs, and leaves it while one runs", async () => {
  const idle = setup();
  for (const c of "draft") await idle.type(c);
  await idle.type("\x1b");
  await tick(30);
  assert.doesNotMatch(idle.frame(), /draft/);
  const busy = setup([], [], [], { busy: true });
  for (const c of "draft") await busy.type(c);
  await busy.type("\x1b");
  await tick(30);
  assert.match(busy.frame(), /› draft/);
});

test("a new line without paste: ^J, or \\ then Enter (typed key by key or in one chunk)", async () => {
  const { submitted, type, frame } = setup();
  await type("one");
  await type("\n"); // ^J
  await type("two\\");
  await type("\r");
  assert.equal(submitted.length, 0, "neither sends");
  await type("three\\\r");
  assert.equal(submitted.length, 0, "\\ Enter in one chunk does not send either");
  assert.match(frame(), /\[4 lines · Enter sends all\]/);
  await type("four\r");
  assert.deepEqual(submitted, ["one\ntwo\nthree\nfour"]);
});
