// Code mode on real third-party servers none of which declares a programmatic/structured variant
// (devDependencies: @cyanheads/git-mcp-server, mcp-server-sqlite-npx, server-filesystem,
// server-everything), through the BUILT CLI: the declarations typed from each outputSchema
// compile with tsc; `mcp-prism run` gets validated structuredContent from outputSchema tools and
// {text, content} from the others; display() hands an image to the user, not the value; and
// through the REAL Anthropic adapter, what a script read reaches the model only when returned.
// Needs a build (npm test builds first).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT, config } from "../helpers/host-fixtures.js";
import {
  EVERYTHING,
  FILESYSTEM,
  gitRepo,
  gitServer,
  realServerFiles,
  sqliteServer,
  TEXT,
} from "../helpers/real-servers.js";
import { FakeAnthropic, type Responder } from "../helpers/fake-anthropic.js";
import { Host } from "../../src/host/host.js";
import { declarationsFor } from "../../src/code/declarations.js";

const CANARY = "CANARY-GIT-SUBJECT-7d21fa";
const files = realServerFiles();
const repo = join(files.dir, "repos", "r");
const configFile = join(files.dir, "servers.json");
let fake: FakeAnthropic;

before(async () => {
  gitRepo(repo, ["first", `second ${CANARY}`, "third"]);
  mkdirSync(join(files.dir, "db"));
  const servers = {
    git: gitServer(join(files.dir, "repos")),
    sqlite: sqliteServer(join(files.dir, "db", "shop.db")),
    fs: { command: process.execPath, args: [FILESYSTEM, files.files] },
    everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
  };
  writeFileSync(
    configFile,
    JSON.stringify({
      mcpServers: servers,
      roots: [files.files],
      limits: { discoverTimeoutMs: 30000, connectWaitMs: 60000 },
    }),
  );
  fake = await new FakeAnthropic().start();
});
after(async () => {
  await fake?.stop();
  files.remove();
});

function cli(
  args: string[],
  opts: { env?: Record<string, string>; stdin?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (k.startsWith("ANTHROPIC_")) delete base[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: files.dir,
      env: { ...base, XDG_STATE_HOME: join(files.dir, "state"), ...opts.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.stdin.end(opts.stdin ?? "");
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`mcp-prism ${args.join(" ")} timed out; stderr: ${stderr}`));
    }, 120_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test("declarations: outputSchema tools typed, the others ToolText, each kind named, grouped by server; tsc --strict accepts a right script and refuses a wrong one", async () => {
  const cfg = JSON.parse((await import("node:fs")).readFileSync(configFile, "utf8"));
  const servers = Object.fromEntries(
    Object.entries(cfg.mcpServers).map(([k, v]) => [k, { kind: "stdio", ...(v as object) }]),
  );
  const host = await Host.start({
    config: { ...config(servers as never, { discoverTimeoutMs: 30_000 }), roots: [files.files] },
    mode: "code",
    eraCache: false,
  });
  let decl: string;
  try {
    assert.deepEqual(
      host.servers().map((s) => [s.name, s.state]),
      [
        ["git", "connected"],
        ["sqlite", "connected"],
        ["fs", "connected"],
        ["everything", "connected"],
      ],
    );
    decl = declarationsFor(host.modelTools());
  } finally {
    await host.close();
  }
  // git's 28 declarations pass the budget: named, with $search; the smaller servers declared whole.
  assert.match(decl, /\/\/ server git: [^\n]*git_log/);
  assert.match(decl, /\$search\(query: string\)/);
  assert.match(decl, /\/\/ server sqlite\n/);
  assert.match(
    decl,
    /\[text\] Execute a SELECT query[^\n]*read_query\(args: \{[^\n]*query: string\}\): Promise<ToolText>;/,
  );
  assert.match(decl, /\[outputSchema\][^\n]*read_text_file\(args: \{[^\n]*\): Promise<\{content: string\}>;/);
  assert.match(decl, /\[text\][^\n]*"get-tiny-image"\(args: /);
  const tsc = (body: string) => {
    const dir = join(files.dir, `tsc-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    writeFileSync(join(dir, "script.ts"), `${decl}\nexport {};\nasync function main() {\n${body}\n}\n`);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2022", lib: ["es2022"], types: [] },
        files: ["script.ts"],
      }),
    );
    const r = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], {
      cwd: dir,
      encoding: "utf8",
      timeout: 120_000,
    });
    return { code: r.status, out: r.stdout + r.stderr };
  };
  const ok = tsc(
    `const f = await tools.read_text_file({ path: "x" }); const c: string = f.content; const q = await tools.read_query({ query: "select 1" }); const t: string = q.text; const m = await tools.$search("log"); await display(q.content[0]); return [c, t, m[0].signature];`,
  );
  assert.equal(ok.code, 0, ok.out);
  const bad = tsc(`const f = await tools.read_text_file({ path: "x" }); const n: number = f.content; return n;`);
  assert.notEqual(bad.code, 0);
  assert.match(bad.out, /Type 'string' is not assignable to type 'number'/);
});

test("mcp-prism run: git_log's structuredContent, read_query's {text, content}, read_text_file typed, an image displayed to the user only", async () => {
  const script = `
const log = await tools.git_log({ path: ${JSON.stringify(repo)}, maxCount: 10 });
await tools.create_table({ query: "CREATE TABLE sales (region TEXT, amount INTEGER)" });
await tools.write_query({ query: "INSERT INTO sales VALUES ('EMEA', 5), ('EMEA', 7), ('APAC', 3)" });
const q = await tools.read_query({ query: "SELECT region, SUM(amount) AS total FROM sales GROUP BY region ORDER BY region" });
const f = await tools.read_text_file({ path: ${JSON.stringify(join(files.files, "notes.txt"))} });
const img = await tools["get-tiny-image"]({});
const image = img.content.find((b) => b.type === "image");
await display(image);
let refused;
try { await display({ type: "image", data: "not base64!", mimeType: "image/png" }); } catch (e) { refused = e.rule; }
return { subjects: log.commits.map((c) => c.subject), total: log.totalCount, keys: Object.keys(q), rows: JSON.parse(q.text), file: f.content, imageBlocks: img.content.map((b) => b.type), refused };`;
  const r = await cli(["run", "-", "--config", configFile, "--json", "--yes"], { stdin: script });
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const doc = JSON.parse(r.stdout);
  assert.deepEqual(doc.value.subjects, ["third", `second ${CANARY}`, "first"]);
  assert.equal(doc.value.total, 3);
  assert.deepEqual(doc.value.keys, ["text", "content"]);
  assert.deepEqual(doc.value.rows, [
    { region: "APAC", total: 3 },
    { region: "EMEA", total: 12 },
  ]);
  assert.equal(doc.value.file, TEXT);
  assert.ok(doc.value.imageBlocks.includes("image"));
  assert.equal(doc.value.refused, "invalid-display");
  // The image went to the user (a line on stderr here), never into the value.
  assert.match(r.stderr, /the script displayed an image \(image\/png, \d+ bytes\)/);
  assert.ok(!r.stdout.includes("iVBOR"), "no image bytes in the value");
});

/** Calls run_code once with `code`, then answers. */
const runCodeThenAnswer =
  (code: string): Responder =>
  (body) => {
    const last = body?.messages?.at(-1);
    if (Array.isArray(last?.content) && last.content.some((b: { type: string }) => b.type === "tool_result"))
      return { kind: "reply", blocks: [{ type: "text", text: "done" }] };
    return { kind: "reply", blocks: [{ type: "tool_use", name: "run_code", input: { code } }] };
  };

for (const returned of [false, true]) {
  test(`anthropic, code mode on a real git server: what the script read reaches the model ${returned ? "when returned" : "never unless returned"}`, async () => {
    const code = `const log = await tools.git_log({ path: ${JSON.stringify(repo)} }); return ${returned ? "log.commits.map((c) => c.subject)" : "{ commits: log.commits.length }"};`;
    fake.responder = runCodeThenAnswer(code);
    const from = fake.requests.length;
    const r = await cli(
      ["-p", "count commits", "--model", "anthropic:claude-test", "--mode", "code", "--config", configFile, "--json"],
      { env: { ANTHROPIC_API_KEY: "sk-fake", ANTHROPIC_BASE_URL: fake.url } },
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const doc = JSON.parse(r.stdout);
    // The script really read the canary (so its absence from the model means something).
    assert.ok(JSON.stringify(doc.toolCalls[0].calls).includes(CANARY));
    const requests = fake.requests.slice(from);
    assert.equal(requests.length, 2);
    // git's tools are reached only through run_code: none is listed on its own.
    assert.deepEqual(
      requests[0].body.tools.map((t: { name: string }) => t.name),
      ["run_code"],
    );
    const bodies = JSON.stringify(requests.map((q) => q.body));
    assert.equal(bodies.includes(CANARY), returned);
    if (!returned) assert.match(JSON.stringify(requests[1].body.messages.at(-1)), /\{\\"value\\":\{\\"commits\\":3\}/);
  });
}
