// Real third-party MCP servers through the Host: @modelcontextprotocol/server-everything (stdio
// and Streamable HTTP), server-filesystem, server-memory and server-sequential-thinking. Their
// SDK 1.x tools carry draft-07 outputSchemas (zod): every tool they list is usable, none
// rejected and no variant declined, and a representative call of each routes where its
// documentation says (content to the model, structuredContent validated to program logic).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import type { CallOutcome } from "../../src/host/types.js";
import { config } from "../helpers/host-fixtures.js";
import {
  everythingStdio,
  filesystemStdio,
  memoryStdio,
  PNG,
  realServerFiles,
  sequentialThinkingStdio,
  startEverythingHttp,
  TEXT,
} from "../helpers/real-servers.js";

function ok(o: CallOutcome) {
  assert.ok(o.ok, o.ok ? "" : `${o.error.rule}: ${o.error.message}`);
  assert.equal(o.isError, false, "not an isError result");
  assert.equal(o.warnings, undefined, "no warning: the structured part passed its outputSchema");
  return o as Extract<CallOutcome, { ok: true }>;
}
const modelText = (o: Extract<CallOutcome, { ok: true }>) =>
  o.routed.model
    .flatMap((e) => (e.format === "content" ? e.content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)) : []))
    .join("\n");

/** Every tool listed is usable: none rejected, no variant declined, no warning; `unavailable` lists the task-only ones. */
async function assertAllUsable(host: Host, server: string, unavailable: string[] = []) {
  const tools = (await host.tools()).filter((t) => t.server === server);
  assert.ok(tools.length > 0, `${server} lists tools`);
  assert.deepEqual(await host.toolErrors(), [], "no tool rejected");
  for (const t of tools) {
    assert.equal(t.declined, undefined, `${t.name}: no variant declined`);
    assert.equal(t.warnings, undefined, `${t.name}: no warning (${JSON.stringify(t.warnings)})`);
  }
  assert.deepEqual(
    tools.filter((t) => t.unavailable).map((t) => t.name),
    unavailable,
  );
  const offered = new Set(host.modelTools().map((t) => t.name));
  for (const t of tools)
    assert.equal(
      offered.has(t.name),
      !unavailable.includes(t.name),
      `${t.name} offered to the model: ${!unavailable.includes(t.name)}`,
    );
  return tools;
}

describe("server-everything over stdio", () => {
  let host: Host;
  before(async () => {
    host = await Host.start({ config: config({ everything: everythingStdio() }) });
  });
  after(() => host.close());

  test("every tool usable; get-structured-content's draft-07 outputSchema is kept and compiles", async () => {
    // simulate-research-query runs only as a task: usable, server-everything offers tasks.
    const tools = await assertAllUsable(host, "everything");
    const gsc = tools.find((t) => t.name === "get-structured-content");
    assert.equal(gsc?.legacyOutputSchema?.$schema, "http://json-schema.org/draft-07/schema#");
    const research = tools.find((t) => t.name === "simulate-research-query")!;
    assert.equal(research.unavailable, undefined);
    assert.deepEqual(research.execution, { taskSupport: "required" });
  });

  test("get-structured-content: content to the model, structuredContent (validated) to program logic", async () => {
    const o = ok(await host.call("get-structured-content", { location: "Chicago" }));
    assert.deepEqual(JSON.parse(modelText(o)), { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
    assert.deepEqual(
      o.routed.programmatic.map((e) => e.structuredContent),
      [{ temperature: 36, conditions: "Light rain / drizzle", humidity: 82 }],
    );
    assert.equal(o.routed.user.length, 0);
  });

  test("get-tiny-image: the image reaches the model as assistant/content", async () => {
    const o = ok(await host.call("get-tiny-image", {}));
    const blocks = o.routed.model.flatMap((e) => (e.format === "content" ? e.content : []));
    assert.ok(
      blocks.some((b) => b.type === "image" && b.mimeType === "image/png"),
      JSON.stringify(blocks.map((b) => b.type)),
    );
    assert.equal(o.routed.user.length, 0);
  });

  test("a task-only tool runs as a task: each status as progress, its report routed to the model", async () => {
    const statuses: string[] = [];
    const o = ok(
      await host.call(
        "simulate-research-query",
        { topic: "x" },
        { onProgress: (p) => void statuses.push(p.message ?? "") },
      ),
    );
    assert.match(modelText(o), /^# Research Report: x/);
    assert.ok(statuses.includes("task working: Gathering sources..."), statuses.join(" | "));
    assert.equal(host.tasks.list().length, 0, "nothing left running");
  });
});

describe("server-everything over Streamable HTTP", () => {
  let host: Host;
  let server: Awaited<ReturnType<typeof startEverythingHttp>>;
  before(async () => {
    server = await startEverythingHttp();
    host = await Host.start({ config: config({ everything: { kind: "http", url: server.url } }) });
  });
  after(async () => {
    await host?.close();
    await server?.stop();
  });

  test("every tool usable; echo and get-structured-content route as over stdio", async () => {
    await assertAllUsable(host, "everything");
    assert.equal(modelText(ok(await host.call("echo", { message: "over http" }))), "Echo: over http");
    assert.match(
      modelText(ok(await host.call("simulate-research-query", { topic: "over http" }))),
      /^# Research Report: over http/,
    );
    const o = ok(await host.call("get-structured-content", { location: "New York" }));
    assert.deepEqual(
      o.routed.programmatic.map((e) => e.structuredContent),
      [{ temperature: 33, conditions: "Cloudy", humidity: 82 }],
    );
  });
});

describe("server-filesystem on a temporary directory", () => {
  const files = realServerFiles();
  let host: Host;
  before(async () => {
    // server-filesystem serves the client's roots when it advertises roots: offer it its directory.
    host = await Host.start({ config: { ...config({ fs: filesystemStdio(files.files) }), roots: [files.files] } });
  });
  after(async () => {
    await host.close();
    files.remove();
  });

  test("every tool usable (all fourteen carry draft-07 outputSchemas)", async () => {
    const tools = await assertAllUsable(host, "fs");
    assert.ok(tools.length >= 10, `${tools.length} tools`);
    assert.ok(tools.every((t) => t.legacyOutputSchema?.$schema === "http://json-schema.org/draft-07/schema#"));
  });

  test("read_text_file: the text to the model sink, {content} to program logic", async () => {
    const o = ok(await host.call("read_text_file", { path: join(files.files, "notes.txt") }));
    assert.equal(modelText(o), TEXT);
    assert.deepEqual(
      o.routed.programmatic.map((e) => e.structuredContent),
      [{ content: TEXT }],
    );
  });

  test("read_media_file: the PNG to the model (assistant/content), byte for byte", async () => {
    const o = ok(await host.call("read_media_file", { path: join(files.files, "dot.png") }));
    const images = o.routed.model
      .flatMap((e) => (e.format === "content" ? e.content : []))
      .filter((b) => b.type === "image");
    assert.equal(images.length, 1);
    assert.ok(
      images[0].type === "image" &&
        images[0].mimeType === "image/png" &&
        Buffer.from(images[0].data, "base64").equals(PNG),
    );
    assert.equal(o.routed.user.length, 0);
  });
});

describe("server-memory with a temporary MEMORY_FILE_PATH", () => {
  const files = realServerFiles();
  let host: Host;
  before(async () => {
    host = await Host.start({ config: config({ memory: memoryStdio(files.memoryFile) }) });
  });
  after(async () => {
    await host.close();
    files.remove();
  });

  test("every tool usable; create_entities then read_graph round-trips through the memory file", async () => {
    await assertAllUsable(host, "memory");
    const entity = { name: "prism", entityType: "project", observations: ["tests real servers"] };
    const created = ok(await host.call("create_entities", { entities: [entity] }));
    assert.deepEqual(
      created.routed.programmatic.map((e) => e.structuredContent),
      [{ entities: [entity] }],
    );
    const graph = ok(await host.call("read_graph", {}));
    assert.deepEqual((graph.routed.programmatic[0].structuredContent as { entities: unknown[] }).entities, [entity]);
    assert.match(modelText(graph), /"name": ?"prism"/);
    assert.match(readFileSync(files.memoryFile, "utf8"), /"name":"prism"/);
  });
});

describe("server-sequential-thinking", () => {
  let host: Host;
  before(async () => {
    host = await Host.start({ config: config({ thinking: sequentialThinkingStdio() }) });
  });
  after(() => host.close());

  test("its tool is usable and a thought is recorded", async () => {
    const [tool] = await assertAllUsable(host, "thinking");
    const o = ok(
      await host.call(tool.qualifiedName, {
        thought: "first",
        nextThoughtNeeded: false,
        thoughtNumber: 1,
        totalThoughts: 1,
      }),
    );
    assert.equal(
      (o.routed.programmatic[0]?.structuredContent as { thoughtNumber?: number } | undefined)?.thoughtNumber,
      1,
    );
  });
});
