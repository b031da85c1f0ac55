// Regenerates the JSON examples of docs/reference/tool-result-variants.md from the demo server.
// Each `<!-- example:NAME -->…<!-- /example -->` block gets the real request and response of
// EXAMPLES[NAME], sent raw over stdio to `node bin/mcp-prism.js demo-server` (needs a build).
//   npx tsx scripts/gen-reference-examples.ts           rewrite the chapter
//   npx tsx scripts/gen-reference-examples.ts --check   exit 1 if the chapter drifted
// Long payloads are abbreviated HERE, deterministically (see abbreviate), so a regenerated
// chapter compares equal to the committed one.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { StdioConnection } from "../src/conformance/stdio-client.js";
import type { RawConnection, RpcReply } from "../src/conformance/wire.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const CHAPTER = `${ROOT}docs/reference/tool-result-variants.md`;
const SERVER = ["bin/mcp-prism.js", "demo-server"];
const UI = "io.modelcontextprotocol/ui";
const CLIENT_INFO = { name: "ExampleClient", version: "1.0.0" };

function meta(version: string, extensions: string[] = []) {
  const caps: Record<string, unknown> = {};
  if (extensions.includes(UI)) caps.extensions = { [UI]: { mimeTypes: ["text/html;profile=mcp-app"] } };
  return {
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    "io.modelcontextprotocol/clientCapabilities": caps,
  };
}

interface Example {
  method: string;
  params: Record<string, unknown>;
  /** "modern": the shared connection; "legacy": after initialize on a fresh process (2025-11-25). */
  era?: "modern" | "legacy";
  /** Keep only these tools of a tools/list result. */
  onlyTools?: string[];
}

const call = (
  name: string,
  args: Record<string, unknown>,
  requested?: { audience: string; format: string }[],
  version = "2026-12-01",
  extensions: string[] = [],
) => ({
  name,
  arguments: args,
  ...(requested ? { requestedOutputs: requested } : {}),
  _meta: meta(version, extensions),
});
const sel = (s: string) => ({ audience: s.slice(0, s.lastIndexOf("/")), format: s.slice(s.lastIndexOf("/") + 1) });

export const EXAMPLES: Record<string, Example> = {
  discover: { method: "server/discover", params: { _meta: meta("2026-12-01") } },
  "tools-list": { method: "tools/list", params: { _meta: meta("2026-12-01") }, onlyTools: ["search_customers"] },
  "tools-list-apps": {
    method: "tools/list",
    params: { _meta: meta("2026-12-01", [UI]) },
    onlyTools: ["refresh_dashboard"],
  },
  fallback: { method: "tools/call", params: call("search_customers", { query: "Globex" }) },
  conversational: {
    method: "tools/call",
    params: call("search_customers", { query: "Globex" }, [sel("assistant/content")]),
  },
  "code-mode": {
    method: "tools/call",
    params: call("search_customers", { query: "Globex" }, [sel("programmatic/structured")]),
  },
  "structured-model": {
    method: "tools/call",
    params: call("search_customers", { query: "Globex" }, [sel("assistant/structured")]),
  },
  "user-structured": {
    method: "tools/call",
    params: call("search_customers", { query: "Globex" }, [sel("user/structured")]),
  },
  "user-media": {
    method: "tools/call",
    params: call("generate_images", { prompt: "A sunrise over Puget Sound", count: 2 }, [sel("user/content")]),
  },
  apps: {
    method: "tools/call",
    params: call(
      "search_customers",
      { query: "Globex" },
      [sel("assistant/content"), sel(`${UI}/structured`)],
      "2026-12-01",
      [UI],
    ),
  },
  "app-only": {
    method: "tools/call",
    params: call("refresh_dashboard", {}, [sel(`${UI}/structured`)], "2026-12-01", [UI]),
  },
  "app-only-fallback": { method: "tools/call", params: call("refresh_dashboard", {}, undefined, "2026-12-01", [UI]) },
  "refuse-undeclared": { method: "tools/call", params: call("refresh_dashboard", {}, [sel("user/structured")]) },
  "refuse-unnegotiated": {
    method: "tools/call",
    params: call("search_customers", { query: "Globex" }, [sel(`${UI}/structured`)]),
  },
  "repeated-selector": {
    method: "tools/call",
    params: call("search_customers", { query: "Globex" }, [sel("assistant/content"), sel("assistant/content")]),
  },
  "tool-error": {
    method: "tools/call",
    params: call("lookup_order", { orderId: "ord_9999" }, [sel("assistant/content"), sel("programmatic/structured")]),
  },
  "unsupported-version": { method: "server/discover", params: { _meta: meta("1900-01-01") } },
  "legacy-0728-tools-list": {
    method: "tools/list",
    params: { _meta: meta("2026-07-28") },
    onlyTools: ["search_customers"],
  },
  "legacy-0728-call": {
    method: "tools/call",
    params: call("search_customers", { query: "Globex" }, undefined, "2026-07-28"),
  },
  "legacy-1125-initialize": {
    method: "initialize",
    era: "legacy",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO },
  },
  "legacy-1125-call": {
    method: "tools/call",
    era: "legacy",
    params: { name: "legacy_weather", arguments: { city: "Seattle" } },
  },
};

// ---------------------------------------------------------------- abbreviation

/** Arrays longer than MAX_ITEMS + 2 keep MAX_ITEMS items and a "…(N more)" marker. */
const MAX_ITEMS = 3;
const MAX_BASE64 = 24;
const MAX_TEXT = 80;
/** Values that differ per call; replaced by a fixed marker so the examples are reproducible. */
const VOLATILE_KEYS = new Set(["refreshedAt"]);
const KEEP_WHOLE = new Set([
  "supportedVersions",
  "supported",
  "required",
  "enum",
  "outputVariants",
  "tools",
  "requestedOutputs",
  "outputs",
  "columns",
  "content",
]);

/** Deterministic: base64 cut to its first characters, arrays to their first items, volatile values marked. */
export function abbreviate(value: unknown, key = ""): unknown {
  if (typeof value === "string") {
    if (VOLATILE_KEYS.has(key)) return "<time of the call>";
    if (key === "instructions" && value.length > MAX_TEXT)
      return `${value.slice(0, MAX_TEXT)}…(${value.length} characters)`;
    if ((key === "data" || key === "blob") && value.length > MAX_BASE64)
      return `${value.slice(0, MAX_BASE64)}…(${value.length} base64 characters)`;
    return value;
  }
  if (Array.isArray(value)) {
    // Data arrays are cut; lists that are part of a contract (versions, schema keywords) are not.
    if (value.length <= MAX_ITEMS + 2 || KEEP_WHOLE.has(key)) return value.map((v) => abbreviate(v));
    return [...value.slice(0, MAX_ITEMS).map((v) => abbreviate(v)), `…(${value.length - MAX_ITEMS} more)`];
  }
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, abbreviate(v, k)]));
  return value;
}

function replyBody(reply: RpcReply, ex: Example): Record<string, unknown> {
  if (reply.kind === "error") return { jsonrpc: "2.0", id: 1, error: reply.error };
  let result = reply.result;
  if (ex.onlyTools && Array.isArray(result.tools)) {
    result = {
      ...result,
      tools: result.tools.filter((t) => ex.onlyTools!.includes((t as { name?: string }).name ?? "")),
    };
  }
  return { jsonrpc: "2.0", id: 1, result: abbreviate(result) };
}

function render(ex: Example, reply: RpcReply): string {
  const request = { jsonrpc: "2.0", id: 1, method: ex.method, params: ex.params };
  const note = ex.onlyTools ? ` (only ${ex.onlyTools.join(", ")} shown)` : "";
  return [
    "Request:",
    "```json",
    JSON.stringify(request, null, 2),
    "```",
    `Response${note}:`,
    "```json",
    JSON.stringify(replyBody(reply, ex), null, 2),
    "```",
  ].join("\n");
}

// ---------------------------------------------------------------- driving the demo server

const BLOCK = /<!-- example:([a-z0-9-]+) -->\n[\s\S]*?<!-- \/example -->/g;

/** Returns the chapter with every example block regenerated. Throws on unknown or unused examples. */
export async function regenerate(chapter: string, timeoutMs = 15_000): Promise<string> {
  const names = [...chapter.matchAll(BLOCK)].map((m) => m[1]);
  const unknown = names.filter((n) => !(n in EXAMPLES));
  if (unknown.length) throw new Error(`unknown example(s) in the chapter: ${unknown.join(", ")}`);
  const unused = Object.keys(EXAMPLES).filter((n) => !names.includes(n));
  if (unused.length) throw new Error(`example(s) not used by the chapter: ${unused.join(", ")}`);

  const opened: RawConnection[] = [];
  const start = async () => {
    const c = await StdioConnection.start(
      process.execPath,
      SERVER.map((a, i) => (i === 0 ? `${ROOT}${a}` : a)),
      timeoutMs,
    );
    opened.push(c);
    return c;
  };
  try {
    const modern = await start();
    let legacy: RawConnection | undefined;
    const rendered = new Map<string, string>();
    // Legacy examples run in EXAMPLES order on one fresh process (initialize first).
    for (const [name, ex] of Object.entries(EXAMPLES)) {
      let conn: RawConnection = modern;
      if (ex.era === "legacy") {
        if (!legacy) legacy = await start();
        conn = legacy;
      }
      const reply = await conn.request(ex.method, ex.params);
      if (ex.method === "initialize") await conn.notify("notifications/initialized");
      rendered.set(name, render(ex, reply));
    }
    return chapter.replace(
      BLOCK,
      (_all, name: string) => `<!-- example:${name} -->\n${rendered.get(name)}\n<!-- /example -->`,
    );
  } finally {
    await Promise.all(opened.map((c) => c.close()));
  }
}

async function main(): Promise<number> {
  const check = process.argv.includes("--check");
  const before = readFileSync(CHAPTER, "utf8");
  const after = await regenerate(before);
  if (check) {
    if (after === before) return 0;
    process.stderr.write(
      "gen-reference-examples: docs/reference/tool-result-variants.md drifted from the demo server; run npx tsx scripts/gen-reference-examples.ts\n",
    );
    return 1;
  }
  if (after !== before) writeFileSync(CHAPTER, after);
  process.stdout.write(after === before ? "examples up to date\n" : "examples regenerated\n");
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`gen-reference-examples: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
