// Real third-party MCP servers through the built CLI (`node bin/mcp-prism.js`, dist/): `tools
// --json` lists every tool usable with inputSchema, annotations and _meta exactly as the server
// sent them (compared with a raw tools/list), and `call --json` routes each representative call
// where the server's documentation says.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { BIN, ROOT, tempDir } from "../helpers/host-fixtures.js";
import {
  EVERYTHING,
  FILESYSTEM,
  MEMORY,
  PNG,
  realServerFiles,
  startEverythingHttp,
  TEXT,
} from "../helpers/real-servers.js";

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: tempDir(),
    encoding: "utf8",
    timeout: 90_000,
    env: { ...process.env, XDG_CONFIG_HOME: tempDir() },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** tools/list exactly as a server answers it, over a raw initialize handshake on its stdio. */
async function rawToolsList(command: string, args: string[], env: Record<string, string> = {}): Promise<any[]> {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"], env: { ...process.env, ...env } });
  const lines = createInterface({ input: child.stdout! });
  const replies = new Map<number, (m: any) => void>();
  lines.on("line", (l) => {
    const m = JSON.parse(l);
    replies.get(m.id)?.(m);
  });
  const request = (id: number, method: string, params: unknown) =>
    new Promise<any>((resolve) => {
      replies.set(id, resolve);
      child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  try {
    await request(1, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    });
    child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    return (await request(2, "tools/list", {})).result.tools;
  } finally {
    child.kill();
  }
}

describe("the built CLI on real servers", () => {
  const files = realServerFiles();
  let http: Awaited<ReturnType<typeof startEverythingHttp>>;
  let configFile: string;
  before(async () => {
    http = await startEverythingHttp();
    configFile = join(files.dir, "servers.json");
    writeFileSync(
      configFile,
      JSON.stringify({
        mcpServers: {
          fs: { command: process.execPath, args: [FILESYSTEM, files.files] },
          memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: files.memoryFile } },
          everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
          web: { url: http.url },
        },
        // server-filesystem serves the client's roots when it advertises roots: offer it its directory.
        roots: [files.files],
        limits: { discoverTimeoutMs: 15000 },
      }),
    );
  });
  after(async () => {
    await http?.stop();
    files.remove();
  });

  test("tools --json: every tool usable, none rejected or declined, declarations as the servers sent them", async () => {
    const r = cli(["tools", "--json", "--config", configFile]);
    assert.equal(r.code, 0, r.err);
    const doc = JSON.parse(r.out);
    assert.deepEqual(
      doc.servers.map((s: any) => [s.name, s.state]),
      [
        ["fs", "connected"],
        ["memory", "connected"],
        ["everything", "connected"],
        ["web", "connected"],
      ],
    );
    for (const s of doc.servers) {
      assert.deepEqual(s.rejected, [], `${s.name}: nothing rejected`);
      for (const t of s.tools) {
        assert.equal(t.declined, undefined, `${s.name}/${t.name}`);
        assert.equal(t.warnings, undefined, `${s.name}/${t.name}`);
        // simulate-research-query runs only as a task: usable, server-everything offers tasks.
        assert.equal(t.usable, true, `${s.name}/${t.name} usable`);
      }
    }
    const raw = {
      fs: await rawToolsList(process.execPath, [FILESYSTEM, files.files]),
      memory: await rawToolsList(process.execPath, [MEMORY], { MEMORY_FILE_PATH: files.memoryFile }),
    };
    for (const [name, tools] of Object.entries(raw)) {
      const listed = doc.servers.find((s: any) => s.name === name).tools;
      assert.deepEqual(
        listed.map((t: any) => t.name),
        tools.map((t) => t.name),
      );
      for (const t of tools) {
        const mine = listed.find((x: any) => x.name === t.name);
        assert.deepEqual(mine.inputSchema, t.inputSchema, `${name}/${t.name} inputSchema`);
        assert.deepEqual(mine.annotations, t.annotations, `${name}/${t.name} annotations`);
        assert.deepEqual(mine._meta, t._meta, `${name}/${t.name} _meta`);
        assert.deepEqual(mine.legacyOutputSchema, t.outputSchema, `${name}/${t.name} outputSchema`);
      }
    }
    const everything = doc.servers.find((s: any) => s.name === "everything").tools;
    const task = everything.find((t: any) => t.name === "simulate-research-query");
    assert.deepEqual([task.execution, task.unavailable], [{ taskSupport: "required" }, undefined]);
  });

  test("tools (human): the counts; the task-only tool usable (the server offers tasks)", () => {
    const r = cli(["tools", "--config", configFile, "--server", "everything"]);
    assert.equal(r.code, 0, r.err);
    // 17: the one-shot commands advertise roots, elicitation and sampling, so its gated tools are listed (the task-only one too).
    assert.match(r.out, /^everything · protocol 2025-11-25 \(initialize era\) · 17 tools$/m);
    assert.doesNotMatch(r.out, /task-required/);
  });

  test("call --json: read_text_file → model; read_media_file → model image; get-structured-content → content to model, structured to program logic", () => {
    const text = JSON.parse(
      cli([
        "call",
        "read_text_file",
        "--server",
        "fs",
        "--args",
        JSON.stringify({ path: join(files.files, "notes.txt") }),
        "--json",
        "--config",
        configFile,
      ]).out,
    );
    assert.equal(text.routed.model[0].content[0].text, TEXT);
    assert.deepEqual(text.routed.programmatic[0].structuredContent, { content: TEXT });
    assert.equal(text.warnings, undefined);

    const media = JSON.parse(
      cli([
        "call",
        "read_media_file",
        "--server",
        "fs",
        "--args",
        JSON.stringify({ path: join(files.files, "dot.png") }),
        "--json",
        "--config",
        configFile,
      ]).out,
    );
    assert.equal(media.routed.model[0].audience, "assistant");
    assert.equal(media.routed.model[0].format, "content");
    assert.ok(Buffer.from(media.routed.model[0].content[0].data, "base64").equals(PNG));
    assert.deepEqual(media.routed.user, []);

    for (const server of ["everything", "web"]) {
      const r = cli([
        "call",
        "get-structured-content",
        "--server",
        server,
        "--args",
        '{"location":"Los Angeles"}',
        "--json",
        "--config",
        configFile,
      ]);
      assert.equal(r.code, 0, r.err);
      const doc = JSON.parse(r.out);
      const weather = { temperature: 73, conditions: "Sunny / Clear", humidity: 48 };
      assert.deepEqual(JSON.parse(doc.routed.model[0].content[0].text), weather);
      assert.deepEqual(doc.routed.programmatic, [
        { audience: "programmatic", format: "structured", structuredContent: weather },
      ]);
    }
  });

  test("call --json: memory create_entities then read_graph; a task-only tool runs as a task", () => {
    const entity = { name: "cli", entityType: "test", observations: ["built CLI"] };
    const created = cli([
      "call",
      "create_entities",
      "--server",
      "memory",
      "--args",
      JSON.stringify({ entities: [entity] }),
      "--json",
      "--config",
      configFile,
    ]);
    assert.equal(created.code, 0, created.err);
    const graph = JSON.parse(cli(["call", "read_graph", "--server", "memory", "--json", "--config", configFile]).out);
    assert.deepEqual(graph.routed.programmatic[0].structuredContent.entities, [entity]);
    const task = cli([
      "call",
      "simulate-research-query",
      "--server",
      "everything",
      "--args",
      '{"topic":"t"}',
      "--json",
      "--config",
      configFile,
    ]);
    assert.equal(task.code, 0, task.err);
    assert.match(JSON.parse(task.out).routed.model[0].content[0].text, /^# Research Report: t/);
  });
});

test("examples/real-servers.json as a user writes it (npx -y, resolved offline to the pinned devDependencies): every tool usable", () => {
  const example = JSON.parse(readFileSync(join(ROOT, "examples", "real-servers.json"), "utf8"));
  const dev = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies;
  for (const s of Object.values<any>(example.mcpServers)) {
    assert.equal(s.command, "npx");
    assert.match(dev[s.args[1]] ?? "", /^\d+\.\d+\.\d+$/, `${s.args[1]} is a devDependency at an exact version`);
  }
  // npm_config_offline: npx must take the installed package, never the registry (tests use no network).
  const r = spawnSync(process.execPath, [BIN, "tools", "--json", "--config", "examples/real-servers.json"], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, npm_config_offline: "true", XDG_CONFIG_HOME: tempDir() },
  });
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.deepEqual(
    doc.servers.map((s: any) => [s.name, s.state, s.rejected.length]),
    [
      ["filesystem", "connected", 0],
      ["memory", "connected", 0],
      ["everything", "connected", 0],
    ],
  );
  for (const s of doc.servers)
    assert.ok(
      s.tools.length > 0 && s.tools.every((t: any) => t.usable || t.unavailable.rule === "task-required"),
      s.name,
    );
});
