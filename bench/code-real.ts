// Code mode on a real server that declares no programmatic/structured variant: the git server
// (@cyanheads/git-mcp-server, typed from its outputSchema) on a repository generated here with
// 500 commits. "The five authors with the most commits touching src/ in the last 300": in chat
// mode the model calls git_log twice (the last 300 commits; those touching src/) and reads both
// results; in code mode one run_code script makes the same calls and returns the five. Measured
// as bench/code-mode.ts measures (the REAL Anthropic adapter against the fake Messages API).
// Not yet here: the SQLite (10,000 rows) and 2,000-file tree tasks of issue 30.
import { CallGate } from "../src/host/call/gate.js";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Host } from "../src/host/host.js";
import { runCodeTool } from "../src/code/run-code.js";
import { DEFAULT_LIMITS } from "../src/host/config/config.js";
import type { Responder } from "../test/helpers/fake-anthropic.js";
import { gitServer } from "../test/helpers/real-servers.js";
import { measure, oneCall, tokens, type Run } from "./code-mode.js";
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

export async function codeRealBench({ log }: BenchOptions): Promise<Section> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-bench-git-"));
  const repo = join(dir, "repo");
  try {
    log("code-real: generating a 500-commit repository");
    const { top } = generateRepo(repo);
    const complete = (seen: string) =>
      top.every(([a, n]) => seen.includes(a) && (seen.includes(`${n}]`) || seen.split(a).length - 1 >= n));
    const host = await Host.start({
      config: {
        source: "bench",
        servers: { git: { kind: "stdio", ...gitServer(dir) } },
        limits: { ...DEFAULT_LIMITS, discoverTimeoutMs: 30_000 },
      },
      mode: "chat",
      eraCache: false,
    });
    const runs: Run[] = [];
    try {
      log("code-real: git, chat mode");
      runs.push(await measure("chat mode, direct calls", host, "chat", chatModel(repo), [], complete));
      log("code-real: git, code mode");
      runs.push(
        await measure(
          "code mode, run_code script",
          host,
          "code",
          oneCall("run_code", { code: script(repo) }),
          [runCodeTool(host, { gate: new CallGate({ yes: true }) })],
          complete,
        ),
      );
    } finally {
      await host.close();
    }
    const [chat, code] = runs;
    const targets: Target[] = [
      {
        name: "code mode on the git server, bulk task",
        target: "≥ 10× fewer tokens than chat mode",
        figure: ratio(tokens(code) / tokens(chat)),
        met: tokens(chat) >= 10 * tokens(code),
      },
    ];
    return {
      id: "code-real",
      title: "Code mode on a real server without variants (git)",
      intro: [
        "@cyanheads/git-mcp-server on a generated repository of 500 commits: the five authors with the most commits touching src/ in the last 300. Its tools declare outputSchemas only; code mode types them from those (bench/code-real.ts).",
      ],
      tables: [
        {
          caption: "git: top five src/ authors in the last 300 commits",
          head: [
            "how",
            "model round trips",
            "tool calls",
            "tool definitions (chars)",
            "tool results read (chars)",
            "tokens ≈",
            "vs chat",
            "complete",
          ],
          rows: runs.map((r) => [
            r.name,
            r.requests,
            r.calls,
            int(r.defChars),
            int(r.resultChars),
            int(tokens(r)),
            ratio(tokens(r) / tokens(chat)),
            r.complete ? "yes" : "no",
          ]),
        },
      ],
      targets,
      notes: ["The SQLite (10,000 rows) and 2,000-file tree tasks of issue 30 are not measured yet."],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
