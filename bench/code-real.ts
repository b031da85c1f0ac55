// Code mode on real servers that declare no programmatic/structured variant, issue 30's three bulk
// tasks, each in chat mode (the model makes the calls and reads every result) and in code mode
// (one run_code script makes the same calls and returns only the answer). Measured as
// bench/code-mode.ts measures (the REAL Anthropic adapter against the fake Messages API).
// (a) the git server (typed from its outputSchema), a generated 500-commit repository: the five
//     authors with the most commits touching src/ in the last 300;
// (b) mcp-server-sqlite-npx (no outputSchema: scripts get {text, content}), 10,000 generated
//     orders: revenue per region for 2026, top three;
// (c) server-filesystem (outputSchema {content}), a generated tree of 2,000 files: the ten
//     largest files under docs/.
import { CallGate } from "../src/host/call/gate.js";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Host } from "../src/host/host.js";
import { runCodeTool } from "../src/code/run-code.js";
import { DEFAULT_LIMITS } from "../src/host/config/config.js";
import type { Responder } from "../test/helpers/fake-anthropic.js";
import type { HostConfig } from "../src/host/config/config.js";
import { filesystemStdio, gitServer, sqliteServer } from "../test/helpers/real-servers.js";
import { measure, oneCall, runTable, tokens, type Run } from "./code-mode.js";
import { int, ratio, type BenchOptions, type Section, type Target } from "./lib/report.js";

const AUTHORS = Array.from({ length: 12 }, (_, i) => `Author ${String.fromCharCode(65 + i)}`);

/** 500 commits through `git fast-import` (one process): commit i by AUTHORS[(i*i) % 12], touching src/ or docs/. */
function generateRepo(dir: string): { top: [string, number][] } {
  mkdirSync(dir, { recursive: true });
  spawnSync("git", ["init", "-q", "-b", "main", dir]);
  let stream = "";
  const touched: { author: string; src: boolean }[] = [];
  for (let i = 0; i < 500; i++) {
    const author = AUTHORS[(i * i + i) % 12];
    const src = i % 3 !== 0;
    const path = src ? `src/m${i % 40}.ts` : `docs/p${i % 25}.md`;
    const data = `// ${i}\n`;
    stream += `commit refs/heads/main\nmark :${i + 1}\nauthor ${author} <a${i % 12}@example.com> ${1_700_000_000 + i * 60} +0000\ncommitter ${author} <a${i % 12}@example.com> ${1_700_000_000 + i * 60} +0000\ndata ${`change ${i}`.length}\nchange ${i}\n${i ? `from :${i}\n` : ""}M 644 inline ${path}\ndata ${data.length}\n${data}\n`;
    touched.push({ author, src });
  }
  const r = spawnSync("git", ["fast-import", "--quiet"], { cwd: dir, input: stream });
  if (r.status !== 0) throw new Error(`git fast-import: ${r.stderr}`);
  spawnSync("git", ["checkout", "-q", "main"], { cwd: dir });
  const counts = new Map<string, number>();
  for (const t of touched.slice(-300)) if (t.src) counts.set(t.author, (counts.get(t.author) ?? 0) + 1);
  return { top: [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 5) };
}

const script = (repo: string) => `const last = await tools.git_log({ path: ${JSON.stringify(repo)}, maxCount: 300 });
const src = await tools.git_log({ path: ${JSON.stringify(repo)}, maxCount: 300, filePath: "src" });
const recent = new Set(last.commits.map((c) => c.hash));
const counts = {};
for (const c of src.commits) if (recent.has(c.hash)) counts[c.author] = (counts[c.author] ?? 0) + 1;
return Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 5);`;

/** Chat mode: both git_log calls in one round trip, then the answer. */
const chatModel =
  (repo: string): Responder =>
  (_b, index) =>
    index === 0
      ? {
          kind: "reply",
          blocks: [
            { type: "tool_use", name: "git_log", input: { path: repo, maxCount: 300 } },
            { type: "tool_use", name: "git_log", input: { path: repo, maxCount: 300, filePath: "src" } },
          ],
        }
      : { kind: "reply", blocks: [{ type: "text", text: "done" }] };

const REGIONS = ["EMEA", "NA", "APAC", "LATAM", "MEA"];

/** 10,000 orders (region, amount, day) through the server's own write_query; the expected top three. */
async function fillOrders(host: Host): Promise<[string, number][]> {
  const call = async (name: string, query: string) => {
    const o = await host.call(name, { query }, { mode: "chat" });
    if (!o.ok || o.isError)
      throw new Error(`${name}: ${JSON.stringify(o.ok ? o.routed.model : o.error).slice(0, 300)}`);
  };
  await call("create_table", "CREATE TABLE orders (id INTEGER PRIMARY KEY, region TEXT, amount INTEGER, day TEXT)");
  const revenue = new Map<string, number>();
  for (let chunk = 0; chunk < 20; chunk++) {
    const rows: string[] = [];
    for (let j = 0; j < 500; j++) {
      const i = chunk * 500 + j;
      const region = REGIONS[(i * 7 + (i % 3)) % 5];
      const amount = 10 + ((i * 7919) % 990);
      const day = `${2025 + (i % 2)}-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;
      if (day.startsWith("2026")) revenue.set(region, (revenue.get(region) ?? 0) + amount);
      rows.push(`('${region}', ${amount}, '${day}')`);
    }
    await call("write_query", `INSERT INTO orders (region, amount, day) VALUES ${rows.join(", ")}`);
  }
  return [...revenue].sort((a, b) => b[1] - a[1]).slice(0, 3);
}

const ORDERS_2026 = "SELECT region, amount FROM orders WHERE day LIKE '2026-%'";
const sqlScript = `const r = await tools.read_query({ query: ${JSON.stringify(ORDERS_2026)} });
const sums = {};
for (const row of JSON.parse(r.text)) sums[row.region] = (sums[row.region] ?? 0) + row.amount;
return Object.entries(sums).sort((a, b) => b[1] - a[1]).slice(0, 3);`;

/** 2,000 files: docs/ holds 20 directories of 50, src/ 20 of 50; sizes under 1,000 bytes (listed exactly). */
function fillTree(dir: string): [string, number][] {
  const docs: [string, number][] = [];
  for (const top of ["docs", "src"])
    for (let d = 0; d < 20; d++) {
      mkdirSync(join(dir, top, `d${d}`), { recursive: true });
      for (let f = 0; f < 50; f++) {
        const i = d * 50 + f + (top === "src" ? 1000 : 0);
        const size = 1 + ((i * 7919) % 997);
        writeFileSync(join(dir, top, `d${d}`, `f${f}.txt`), "x".repeat(size));
        if (top === "docs") docs.push([`d${d}/f${f}.txt`, size]);
      }
    }
  return docs.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10);
}

const treeScript = (docs: string) => `const docs = ${JSON.stringify(docs)};
const tree = JSON.parse((await tools.directory_tree({ path: docs })).content);
const sizes = [];
for (const d of tree.filter((e) => e.type === "directory")) {
  const listing = (await tools.list_directory_with_sizes({ path: docs + "/" + d.name })).content;
  for (const line of listing.split("\\n")) {
    const m = /^\\[FILE\\] (\\S+)\\s+(\\d+) B$/.exec(line.trim());
    if (m) sizes.push([d.name + "/" + m[1], Number(m[2])]);
  }
}
return sizes.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10);`;

/** Chat mode on the tree: the tree of docs/, then every directory's listing with sizes in one round. */
const treeChatModel =
  (docs: string): Responder =>
  (_b, index) =>
    index === 0
      ? { kind: "reply", blocks: [{ type: "tool_use", name: "directory_tree", input: { path: docs } }] }
      : index === 1
        ? {
            kind: "reply",
            blocks: Array.from({ length: 20 }, (_, d) => ({
              type: "tool_use" as const,
              name: "list_directory_with_sizes",
              input: { path: `${docs}/d${d}` },
            })),
          }
        : { kind: "reply", blocks: [{ type: "text", text: "done" }] };

interface Task {
  id: string;
  caption: string;
  runs: Run[];
}

/** One task on its own host: chat mode, then code mode. */
async function task(
  log: (l: string) => void,
  id: string,
  config: HostConfig,
  prepare: (host: Host) => Promise<(seen: string) => boolean>,
  chat: Responder,
  script: string,
  resultTokens?: number,
): Promise<Run[]> {
  const host = await Host.start({ config, mode: "chat", eraCache: false });
  try {
    const complete = await prepare(host);
    log(`code-real: ${id}, chat mode`);
    const chatRun = await measure("chat mode, direct calls", host, "chat", chat, [], complete, resultTokens);
    log(`code-real: ${id}, code mode`);
    const codeRun = await measure(
      "code mode, run_code script",
      host,
      "code",
      oneCall("run_code", { code: script }),
      [runCodeTool(host, { gate: new CallGate({ yes: true }) })],
      complete,
      resultTokens,
    );
    return [chatRun, codeRun];
  } finally {
    await host.close();
  }
}

export async function codeRealBench({ log }: BenchOptions): Promise<Section> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-bench-real-"));
  const limits = { ...DEFAULT_LIMITS, discoverTimeoutMs: 30_000 };
  try {
    const tasks: Task[] = [];
    log("code-real: generating a 500-commit repository");
    const repo = join(dir, "repo");
    const { top } = generateRepo(repo);
    tasks.push({
      id: "git",
      caption: "(a) git: top five src/ authors in the last 300 commits",
      runs: await task(
        log,
        "git",
        { source: "bench", servers: { git: { kind: "stdio", ...gitServer(dir) } }, limits },
        async () => (seen) =>
          top.every(([a, n]) => seen.includes(a) && (seen.includes(`${n}]`) || seen.split(a).length - 1 >= n)),
        chatModel(repo),
        script(repo),
      ),
    });
    tasks.push({
      id: "sqlite",
      caption: "(b) SQLite: revenue per region for 2026, top three (10,000 orders)",
      runs: await task(
        log,
        "sqlite",
        { source: "bench", servers: { sql: { kind: "stdio", ...sqliteServer(join(dir, "orders.db")) } }, limits },
        async (host) => {
          log("code-real: filling 10,000 orders");
          const best = await fillOrders(host);
          // Complete when the model saw each of the three regions' totals (code), or every row (chat).
          return (seen) =>
            best.every(([r, n]) => seen.includes(`"${r}",${n}`)) || (seen.match(/"region"/g)?.length ?? 0) >= 5000;
        },
        oneCall("read_query", { query: ORDERS_2026 }),
        sqlScript,
        // Chat mode reads ≈5,000 rows whole (≈70,000 tokens, within the 200,000-token window), as a
        // host without a result budget would send them; the budget would cut them and page.
        150_000,
      ),
    });
    const tree = join(dir, "tree");
    const largest = fillTree(tree);
    const docs = join(tree, "docs");
    tasks.push({
      id: "files",
      caption: "(c) files: the ten largest files under docs/ (2,000 files)",
      runs: await task(
        log,
        "files",
        { source: "bench", servers: { fs: filesystemStdio(tree) }, roots: [tree], limits } as HostConfig,
        async () => (seen) => largest.every(([, size]) => seen.includes(` ${size} B`) || seen.includes(`,${size}]`)),
        treeChatModel(docs),
        treeScript(docs),
      ),
    });
    const targets: Target[] = tasks.map((t) => {
      const [chat, code] = t.runs;
      return {
        name: `code mode on ${t.id}, bulk task`,
        target: "≥ 10× fewer tokens than chat mode, the answer complete",
        figure: `${ratio(tokens(code) / tokens(chat))}: ${int(tokens(code))} vs ${int(tokens(chat))} tokens; complete: chat ${chat.complete ? "yes" : "no"}, code ${code.complete ? "yes" : "no"}`,
        met: tokens(chat) >= 10 * tokens(code) && code.complete && chat.complete,
      };
    });
    return {
      id: "code-real",
      title: "Code mode on real servers without variants (git, SQLite, files)",
      intro: [
        "Issue 30's bulk tasks on real servers that declare no programmatic/structured variant, each in chat mode (the scripted model calls the tools and reads every result) and in code mode (one run_code script makes the same calls; the model reads only what it returns). The git server's tools declare outputSchemas (code mode types them from those), server-filesystem's a `{content}` schema, mcp-server-sqlite-npx none (scripts get `{text, content}`).",
        "(b) lifts the result budget to 150,000 tokens in both modes so chat mode reads the rows whole, as a host without a budget sends them; with the budget the rows would be cut and paged with read_result, and the model would still read all of them.",
        "A chat model that writes the aggregate itself (GROUP BY) would read three rows: the comparison is for work the server cannot do for the model, as in (a) and (c).",
      ],
      tables: tasks.map((t) => runTable(t.runs, t.runs[0], t.caption)),
      targets,
      notes: [],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
