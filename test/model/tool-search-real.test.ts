// Tool search with the six real servers (issue 29's measurement: ~94 tools, ~70 KB of
// definitions): with it on, the first request carries ≤ 15% of the definition bytes it carries
// with it off, and a scripted model (the real Anthropic SDK, the fake Messages API) that searches
// "take a screenshot" gets the tool it found offered in the next request and calls it on
// playwright-mcp with Debian's Chromium. The index ranks the real tool sets well.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Host } from "../../src/host/host.js";
import { AnthropicModel } from "../../src/model/anthropic.js";
import { Conversation } from "../../src/model/conversation.js";
import { runTurn, type TurnEvent } from "../../src/model/turn.js";
import { buildToolNameMap } from "../../src/model/tool-names.js";
import { boundTools } from "../../src/model/bounds.js";
import { ToolIndex } from "../../src/host/catalog/tool-index.js";
import type { ToolSearchSetting } from "../../src/model/tool-search.js";
import { FakeAnthropic, type Responder } from "../helpers/fake-anthropic.js";
import { sixServers } from "../helpers/six-servers.js";

let fake: FakeAnthropic;
let host: Host;
const six = sixServers();

before(async () => {
  fake = await new FakeAnthropic().start();
  host = await Host.start({ config: six.config, eraCache: false });
  for (const s of host.servers()) assert.equal(s.state, "connected", `${s.name}: ${s.error}`);
});
after(async () => {
  await host?.close();
  await fake.stop();
  six.remove();
});

async function turn(setting: ToolSearchSetting, responder: Responder, events: TurnEvent[] = []) {
  fake.requests.length = 0;
  fake.responder = responder;
  const adapter = new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url, model: "claude-test", maxRetries: 0 });
  return runTurn({
    adapter,
    executor: host,
    conversation: new Conversation(),
    prompt: "take a screenshot of the page",
    mode: "chat",
    toolSearch: setting,
    events: (e) => events.push(e),
  });
}

const toolBytes = (body: any) => JSON.stringify(body.tools).length;
const toolNames = (body: any): string[] => body.tools.map((t: { name: string }) => t.name);

test("the first request with tool search on carries at most 15% of the definitions it carries off", async () => {
  const off = await turn("off", () => ({ kind: "reply", blocks: [{ type: "text", text: "ok" }] }));
  assert.equal(off.ok, true, off.error?.message);
  const offBytes = toolBytes(fake.requests[0].body);
  assert.ok(toolNames(fake.requests[0].body).length >= 90, `${toolNames(fake.requests[0].body).length} tools`);
  assert.ok(offBytes > 60_000, `${offBytes} bytes of definitions`);
  const on = await turn("on", () => ({ kind: "reply", blocks: [{ type: "text", text: "ok" }] }));
  assert.equal(on.ok, true, on.error?.message);
  const onBytes = toolBytes(fake.requests[0].body);
  assert.deepEqual(toolNames(fake.requests[0].body), ["search_tools"]);
  assert.ok(onBytes <= 0.15 * offBytes, `${onBytes} of ${offBytes} bytes`);
});

test('a model that searches "take a screenshot" gets the tool it found next, calls it, and the call succeeds', async () => {
  let found: string | undefined;
  const events: TurnEvent[] = [];
  const r = await turn(
    "on",
    (body, index) => {
      if (index === 0)
        return {
          kind: "reply",
          blocks: [{ type: "tool_use", name: "search_tools", input: { query: "take a screenshot" } }],
        };
      if (index === 1) {
        found = toolNames(body).find((n) => /screenshot/.test(n));
        if (!found) return { kind: "reply", blocks: [{ type: "text", text: "not found" }] };
        return { kind: "reply", blocks: [{ type: "tool_use", name: found, input: { type: "png" } }] };
      }
      return { kind: "reply", blocks: [{ type: "text", text: "Here is the screenshot." }] };
    },
    events,
  );
  assert.equal(r.ok, true, r.error?.message);
  assert.equal(found, "browser_take_screenshot");
  assert.ok(!toolNames(fake.requests[0].body).includes("browser_take_screenshot"));
  assert.ok(toolNames(fake.requests[1].body).includes("browser_take_screenshot"));
  const search = JSON.stringify(fake.requests[1].body.messages.at(-1));
  assert.match(search, /browser_take_screenshot \(server playwright\)/);
  const shot = r.toolCalls.find((c) => c.call.name === "browser_take_screenshot");
  assert.ok(shot?.outcome?.ok, JSON.stringify(shot?.outcome).slice(0, 500));
  assert.equal(shot.outcome.isError, false);
  assert.deepEqual(fake.refused, []);
  const offered = events.filter((e): e is Extract<TurnEvent, { type: "tools-offered" }> => e.type === "tools-offered");
  assert.ok(offered.at(-1)!.loaded.includes("browser_take_screenshot"));
});

test("the index ranks the real servers' tools: the tool meant is among the first three", () => {
  const names = buildToolNameMap(host.modelTools());
  const tools = boundTools(names.tools).tools;
  const index = new ToolIndex(tools.map((t) => ({ ...t, server: names.resolve(t.name)!.server })));
  const expect: [string, string][] = [
    ["take a screenshot", "browser_take_screenshot"],
    ["commit my changes", "git_commit"],
    ["run a SQL query", "read_query"],
    ["create entities in the knowledge graph", "create_entities"],
    ["list the files in a directory", "list_directory"],
    ["click a button on the page", "browser_click"],
    ["show the git log history", "git_log"],
    ["create a table", "create_table"],
    ["add two numbers", "get-sum"],
  ];
  for (const [query, tool] of expect) {
    const top = index.search(query, { limit: 3 }).map((m) => m.name);
    assert.ok(top.includes(tool), `${query} → ${top.join(", ")}`);
  }
  assert.deepEqual(index.search("screenshot", { server: "git" }), []);
});
