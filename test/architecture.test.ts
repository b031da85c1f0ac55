// The layering rules of docs/architecture.md, checked on the source: imports flow
// protocol ← server/host ← compare/conformance/model/code ← ui/cli, and the router is the only code that
// mints sink entries.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, dirname, resolve } from "node:path";

const SRC = "src";
const LAYERS = [
  "protocol",
  "server",
  "demo",
  "host",
  "client",
  "compare",
  "conformance",
  "model",
  "code",
  "view",
  "ui",
  "cli",
] as const;
type Layer = (typeof LAYERS)[number];
/** What each layer may import (besides itself). */
const ALLOWED: Record<Layer, Layer[]> = {
  protocol: [],
  server: ["protocol"],
  demo: ["protocol", "server"],
  host: ["protocol"],
  // mcp-prism/client: a public facade over the host's pure rules (CLIENT_RULES below).
  client: ["protocol", "host"],
  compare: ["protocol", "host"],
  // The server checker: raw JSON-RPC clients over the shared protocol rules, no host pipeline.
  // check-client's scenario servers are built with the reference toolkit (src/conformance/client/).
  conformance: ["protocol", "server"],
  model: ["protocol", "host"],
  // Code mode's sandbox and run_code: beside model (the CLI and UI hand run_code to the turn).
  code: ["protocol", "host"],
  // The App View's local web host (Node side; its page code is bundled for the browser).
  view: ["protocol", "host"],
  ui: ["protocol", "host", "compare", "model", "code", "view"],
  cli: ["protocol", "server", "demo", "host", "compare", "conformance", "model", "code", "view", "ui"],
};
/**
 * Single files a layer may import beyond ALLOWED: the checker's stdio client starts a server the way
 * the host does (its minimal environment, its own process group stopped with the host's escalation).
 */
const ALSO_ALLOWED: Partial<Record<Layer, string[]>> = {
  conformance: ["host/connection/process-group.ts", "host/connection/spawn-server.ts"],
};
/** The host files mcp-prism/client exposes: pure rules, no connection, no I/O. */
const CLIENT_RULES = [
  "host/result/legacy-outputs.ts",
  "host/policy/index.ts",
  "host/result/router.ts",
  "host/types.ts",
  "host/result/validate.ts",
];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}
const layerOf = (file: string) => relative(SRC, file).split("/")[0] as Layer;

test("imports flow one way between the layers", () => {
  const violations: string[] = [];
  for (const file of files(SRC)) {
    const from = layerOf(file);
    for (const m of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)) {
      const path = relative(SRC, resolve(dirname(file), m[1])).replace(/\.js$/, ".ts");
      const target = path.split("/")[0] as Layer;
      if (target === from || !LAYERS.includes(target) || ALLOWED[from].includes(target)) continue;
      if (!ALSO_ALLOWED[from]?.includes(path)) violations.push(`${file} imports ${m[1]}`);
    }
  }
  assert.deepEqual(violations, []);
});

test("the host files the checker may import use no other host file", () => {
  for (const path of ALSO_ALLOWED.conformance ?? []) {
    const file = join(SRC, path);
    for (const m of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)) {
      const target = relative(SRC, resolve(dirname(file), m[1])).replace(/\.js$/, ".ts");
      assert.ok(
        ALSO_ALLOWED.conformance?.includes(target) || target.startsWith("protocol/"),
        `${file} imports ${m[1]}`,
      );
    }
  }
});

test("the code sandbox never uses node:vm", () => {
  for (const file of files(join(SRC, "code")))
    assert.doesNotMatch(readFileSync(file, "utf8"), /from "(node:)?vm"/, file);
});

test("src/protocol does no I/O", () => {
  for (const file of files(join(SRC, "protocol"))) {
    assert.doesNotMatch(readFileSync(file, "utf8"), /from "node:(fs|net|http|https|child_process|process)"/, file);
  }
});

test("only the router mints sink entries", () => {
  const minting = files(SRC).filter((f) =>
    /\bas (Model|User|Programmatic|App|View)SinkEntry\b/.test(readFileSync(f, "utf8")),
  );
  assert.deepEqual(minting, [join(SRC, "host", "result", "router.ts")]);
});

test("one file per mode policy and per slash command", () => {
  const policies = readdirSync(join(SRC, "host", "policy"))
    .filter((f) => f !== "index.ts" && f !== "types.ts" && f !== "extensions.ts")
    .sort();
  assert.deepEqual(policies, ["app.ts", "chat.ts", "code.ts", "minimal.ts", "structured.ts"]);
  const commands = readdirSync(join(SRC, "ui", "commands")).map((f) => f.replace(/\.tsx?$/, ""));
  for (const c of ["help", "mode", "tools", "servers", "call", "compare", "pane", "table", "clear", "save", "quit"]) {
    assert.ok(commands.includes(c), `src/ui/commands/${c}.ts`);
  }
});

test("the CLI writes to stdout/stderr only through src/cli/output/terminal.ts (the one sanitizer)", () => {
  const writers = files(join(SRC, "cli")).filter((f) => /process\.std(out|err)\.write\(/.test(readFileSync(f, "utf8")));
  assert.deepEqual(writers, [join(SRC, "cli", "output", "terminal.ts")]);
});

test("one terminal sanitizer: the checker's report uses src/protocol/sanitize.ts", () => {
  const report = readFileSync(join(SRC, "conformance", "report.ts"), "utf8");
  assert.match(report, /from "\.\.\/protocol\/sanitize\.js"/);
  assert.doesNotMatch(report, /new RegExp|\/\[\\x00/);
});

test("errors are data: no code reads a host error's line back (prefix, regex or substring of a message)", () => {
  // The host's lines start "server S, tool T: …" or "server S: …" (src/host/host-error.ts renders
  // them from fields); a consumer that needs the server, tool, rule or detail reads the field.
  const lead =
    /(?:startsWith|endsWith|includes|indexOf)\(\s*[`"'](?:server|tool) |\/\^(?:server|tool) |replace\(\s*[`"'](?:server|tool) /;
  // Asking a message what it means (startsWith("--model"), match(/…/)) instead of its error's kind.
  const asked = /\.(?:message|error|lastError)\.(?:startsWith|endsWith|match|includes|indexOf|search)\(/;
  const found: string[] = [];
  for (const file of files(SRC)) {
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (lead.test(line) || asked.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(found, []);
});

/** Every src/ file a file reaches through its relative imports (itself included). */
function closure(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)) {
      todo.push(
        resolve(dirname(file), m[1])
          .replace(/\.js$/, ".ts")
          .replace(process.cwd() + "/", ""),
      );
    }
  }
  return seen;
}
const PUBLIC_ENTRIES = ["protocol", "server", "client"].map((l) => join(SRC, l, "index.ts"));

test("the public entries (package.json exports) reach neither the CLI nor the UI, nor the host's connections", () => {
  for (const entry of PUBLIC_ENTRIES) {
    const reached = [...closure(entry)].map((f) => relative(SRC, f));
    const outside = reached.filter(
      (f) =>
        !/^(protocol|server|client)\//.test(f) &&
        !CLIENT_RULES.includes(f) &&
        !/^host\/(policy\/|result\/measure\.ts|host-error\.ts)/.test(f),
    );
    assert.deepEqual(outside, [], `${entry} reaches beyond the public layers`);
  }
});

test("mcp-prism/client and mcp-prism/protocol do no I/O", () => {
  for (const entry of [join(SRC, "client", "index.ts"), join(SRC, "protocol", "index.ts")])
    for (const file of closure(entry))
      assert.doesNotMatch(
        readFileSync(file, "utf8"),
        /from "node:(fs|net|http|https|child_process|process|worker_threads)"/,
        file,
      );
});

test("nothing in the CLI or UI is exported: package.json exports name only the public entries", () => {
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { exports: Record<string, unknown> };
  const targets = JSON.stringify(pkg.exports);
  assert.doesNotMatch(targets, /dist\/(cli|ui|model|view|code|compare|conformance|host|demo)\//);
});

test("one call lifecycle: nothing outside src/host/call builds a CallPlan, decides or asks approval", () => {
  const CALL = join(SRC, "host", "call");
  const outside = files(SRC).filter((f) => !f.startsWith(CALL + "/"));
  // A CallPlan literal: the plan's own pair of fields (the plan builder is host/call/plan.ts).
  const plans = outside.filter((f) => /requested: undefined,[^}\n]*protocolVersion:/.test(readFileSync(f, "utf8")));
  assert.deepEqual(plans, [], "CallPlan literals outside host/call/plan.ts");
  // Deciding whether a tool needs approval, or remembering "always": the gate's.
  const deciding = outside.filter((f) => /\bneedsApproval\(|\balways\.(add|has)\(/.test(readFileSync(f, "utf8")));
  assert.deepEqual(
    deciding,
    [join(SRC, "compare", "plan.ts")],
    "only compare's plan reads needsApproval (to describe the plan)",
  );
  // The app's approval dialog is shown only as the gate's asker (ui/calls.ts).
  const asking = outside.filter((f) => /\.askApproval\(/.test(readFileSync(f, "utf8")));
  assert.deepEqual(asking, [join(SRC, "ui", "calls.ts")]);
});
