// Tool search's pieces: the words the index reads, when "auto" defers the tools, what is loaded
// (derived from the conversation, so a resumed one keeps it), and search_tools' answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ANTHROPIC_CAPABILITIES } from "../../src/model/context.js";
import { Conversation } from "../../src/model/conversation.js";
import { ToolIndex, words } from "../../src/host/catalog/tool-index.js";
import {
  MAX_LOADED,
  searchWanted,
  ToolSearch,
  toolSearchLine,
  type ToolSearchDetail,
} from "../../src/model/tool-search.js";
import type { ModelRequest, ModelToolSpec } from "../../src/model/adapter.js";
import { OfflineModel } from "../../src/model/offline.js";
import { runTurn } from "../../src/model/turn.js";
import { FakeExecutor, tool } from "./support.js";
import { parseConfig } from "../../src/host/config/config.js";

const spec = (name: string, description = "", props: string[] = []): ModelToolSpec => ({
  name,
  description,
  inputSchema: { type: "object", properties: Object.fromEntries(props.map((p) => [p, { type: "string" }])) },
});

test("words: split on case, digits and punctuation, lightly stemmed, stop words out", () => {
  assert.deepEqual(words("browser_takeScreenshot"), ["browser", ...words("take screenshot")]);
  assert.deepEqual(words("Taking the screenshots"), words("take screenshot"));
  assert.deepEqual(words("created tables"), words("create table"));
  assert.deepEqual(words("list-directories"), ["list", "directory"]);
});

test("the index ranks by name first, then parameters and description; server narrows", () => {
  const index = new ToolIndex([
    { ...spec("send_email", "Send a message", ["to", "subject"]), server: "mail" },
    { ...spec("weather", "Forecast for a city; can email the report", ["city"]), server: "wx" },
    { ...spec("search_city", "Find a city", []), server: "geo" },
  ]);
  assert.equal(index.search("email")[0].name, "send_email");
  assert.deepEqual(
    index.search("city").map((m) => m.name),
    ["search_city", "weather"],
  );
  assert.deepEqual(
    index.search("email", { server: "wx" }).map((m) => m.name),
    ["weather"],
  );
  assert.deepEqual(index.search("the a of"), []);
});

test('"auto" defers the tools only over a tenth of the window; "on" and "off" decide alone', () => {
  const few = [spec("a", "x".repeat(100))];
  const many = Array.from({ length: 100 }, (_, i) => spec(`t${i}`, "d".repeat(1000)));
  assert.equal(searchWanted("auto", few, ANTHROPIC_CAPABILITIES), false);
  assert.equal(searchWanted("auto", many, ANTHROPIC_CAPABILITIES), true);
  assert.equal(searchWanted("auto", many, { ...ANTHROPIC_CAPABILITIES, contextWindow: 10_000_000 }), false);
  assert.equal(searchWanted("on", few, ANTHROPIC_CAPABILITIES), true);
  assert.equal(searchWanted("off", many, ANTHROPIC_CAPABILITIES), false);
});

test("loaded: pinned, then what the conversation used or found, newest first, at most MAX_LOADED", async () => {
  const tools = [
    spec("send_email", "Send an email"),
    spec("read_inbox", "Read the inbox"),
    ...Array.from({ length: 40 }, (_, i) => spec(`tool_${i}`, `thing ${i}`)),
  ];
  const search = new ToolSearch(tools, () => "s", ["read_inbox", "not_a_tool"]);
  const c = new Conversation();
  assert.deepEqual([...search.loaded(c.items)], ["read_inbox"]);
  c.append({ role: "user", text: "mail" });
  c.append({
    role: "assistant",
    text: "",
    toolCalls: [{ id: "1", name: "search_tools", server: "", tool: "search_tools", args: { query: "send email" } }],
  });
  assert.ok(search.loaded(c.items).has("send_email"));
  // A resumed conversation (the same items) loads the same tools.
  assert.deepEqual([...search.loaded(Conversation.from(c.items).items)], [...search.loaded(c.items)]);
  for (let i = 0; i < 40; i++)
    c.append({
      role: "assistant",
      text: "",
      toolCalls: [{ id: `c${i}`, name: `tool_${i}`, server: "s", tool: `tool_${i}`, args: {} }],
    });
  const loaded = search.loaded(c.items);
  assert.equal(loaded.size, MAX_LOADED);
  assert.ok(loaded.has("tool_39") && !loaded.has("tool_0"));
  assert.deepEqual(
    search
      .offered(c.items)
      .map((t) => t.name)
      .sort(),
    [...loaded].sort(),
  );
});

test("search_tools answers with name, server and one line; an empty query is one error line", async () => {
  const search = new ToolSearch([spec("send_email", "Send an email.\nMore lines here")], () => "mail");
  const tool = search.hostTool();
  const r = await tool.run({ query: "email someone" }, {});
  assert.equal(r.text, "Loaded for your next step:\nsend_email (server mail): Send an email.");
  // The user's line (the app, -p): what the search loaded, from the run's detail, not its text.
  assert.equal(
    toolSearchLine(r.detail as ToolSearchDetail),
    'search_tools "email someone": loaded send_email (mail) for the model',
  );
  assert.equal((await tool.run({ query: "" }, {})).isError, true);
  const none = await tool.run({ query: "zebra" }, {});
  assert.match(none.text, /^No tool matches "zebra"/);
  assert.equal(toolSearchLine(none.detail as ToolSearchDetail), 'search_tools "zebra": no tool matched');
});

/** The offline model, recording the tool names of every request it gets. */
function recordingOffline() {
  const requests: string[][] = [];
  const model = new OfflineModel({ chunkDelayMs: 0 });
  const adapter = {
    id: model.id,
    capabilities: model.capabilities,
    respond: (req: ModelRequest) => (requests.push(req.tools.map((t) => t.name)), model.respond(req)),
  };
  return { requests, adapter };
}

test("the offline model under tool search: searches, then calls the tool it found, on every request only the loaded ones", async () => {
  const entries = [
    tool("send_email", { server: "mail", description: "Send an email to someone" }),
    tool("weather_forecast", {
      server: "wx",
      description: "The weather forecast for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } } },
    }),
    ...Array.from({ length: 30 }, (_, i) =>
      tool(`other_${i}`, { server: "misc", description: `Unrelated thing number ${i}` }),
    ),
  ];
  const exec = new FakeExecutor(entries);
  const { requests, adapter } = recordingOffline();
  const conversation = new Conversation();
  const r = await runTurn({
    adapter,
    executor: exec,
    conversation,
    prompt: "what is the weather forecast for Paris",
    mode: "chat",
    toolSearch: "on",
  });
  assert.equal(r.ok, true, r.error?.message);
  assert.deepEqual(
    r.toolCalls.map((c) => c.call.name),
    ["search_tools", "weather_forecast"],
  );
  assert.deepEqual(
    exec.calls.map((c) => c.name),
    ["weather_forecast"],
  );
  assert.deepEqual(requests[0], ["search_tools"]);
  assert.ok(requests[1].includes("weather_forecast") && requests[1].length < 10);
  // The next turn goes on with the tool loaded (it was used), no search needed.
  const again = await runTurn({
    adapter,
    executor: exec,
    conversation,
    prompt: 'call weather_forecast {"city":"Oslo"}',
    mode: "chat",
    toolSearch: "on",
  });
  assert.deepEqual(
    again.toolCalls.map((c) => c.call.name),
    ["weather_forecast"],
  );
});

test('config "toolSearch": "auto", "on" or "off", else one line naming the key', () => {
  const servers = { mcpServers: { a: { command: "x" } } };
  assert.equal(parseConfig(JSON.stringify({ ...servers, toolSearch: "on" }), "/tmp/c.json").toolSearch, "on");
  assert.equal(parseConfig(JSON.stringify(servers), "/tmp/c.json").toolSearch, undefined);
  assert.throws(
    () => parseConfig(JSON.stringify({ ...servers, toolSearch: true }), "/tmp/c.json"),
    /toolSearch: expected "auto", "on" or "off"/,
  );
});

test("pinned tools (config pinnedTools, /tools pin) are in every request under tool search, by the names /tools shows", async () => {
  const entries = [
    tool("send_email", { server: "mail", description: "Send an email to someone" }),
    ...Array.from({ length: 30 }, (_, i) => tool(`other_${i}`, { server: "misc", description: `Thing ${i}` })),
  ];
  const { requests, adapter } = recordingOffline();
  const r = await runTurn({
    adapter,
    executor: new FakeExecutor(entries),
    conversation: new Conversation(),
    prompt: "hello",
    mode: "chat",
    toolSearch: "on",
    pinnedTools: [entries[0].qualifiedName, "not_a_tool"],
  });
  assert.equal(r.ok, true, r.error?.message);
  assert.deepEqual(requests[0].sort(), ["search_tools", "send_email"]);
});

test('config "pinnedTools": an array of at most 32 names, else one line naming the key', () => {
  const servers = { mcpServers: { a: { command: "x" } } };
  const parse = (v: unknown) => parseConfig(JSON.stringify({ ...servers, pinnedTools: v }), "/tmp/c.json").pinnedTools;
  assert.deepEqual(parse(["a__x", "b", "b"]), ["a__x", "b"]);
  for (const bad of ["x", [1], [""], Array.from({ length: 33 }, (_, i) => `t${i}`)])
    assert.throws(() => parse(bad), /pinnedTools: expected an array of at most 32 tool names/);
});
