// mcp-prism conformance-client [--mode MODE] [--api openai|anthropic]: mcp-prism as a client under
// `check-client` (or any runner of the official suite's convention). It reads the scenario from
// MCP_CONFORMANCE_CONTEXT and runs one ordinary -p turn against that server and model endpoint,
// through a config file of its own (0600, in a private temporary directory, removed after).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isObject } from "../../protocol/is-object.js";
import { UsageError, parseOptions } from "../args.js";
import { out, err } from "../output/terminal.js";

const USAGE = `Usage: mcp-prism conformance-client [--mode MODE] [--api openai|anthropic]
  One -p turn against the scenario in MCP_CONFORMANCE_CONTEXT (set by mcp-prism check-client):
  its server (serverUrl or serverCommand), its model endpoint, its prompt.
`;

const OPTIONS = {
  mode: { type: "string" },
  api: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const MAX_CONTEXT = 64 * 1024;

export async function run(argv: string[]): Promise<number> {
  let mode: string | undefined;
  let api = "openai";
  let context: Record<string, unknown>;
  try {
    // The official convention appends the server URL: a trailing positional is allowed (the context has it too).
    const { values } = parseOptions(argv, OPTIONS, true);
    if (values.help === true) {
      out(USAGE);
      return 0;
    }
    mode = values.mode as string | undefined;
    api = (values.api as string | undefined) ?? "openai";
    if (api !== "openai" && api !== "anthropic")
      throw new UsageError(`--api takes openai or anthropic, got ${JSON.stringify(api)}`);
    const raw = process.env.MCP_CONFORMANCE_CONTEXT ?? "";
    if (!raw || raw.length > MAX_CONTEXT)
      throw new UsageError("MCP_CONFORMANCE_CONTEXT is not set (run under check-client)");
    const parsed = JSON.parse(raw) as unknown;
    if (!isObject(parsed)) throw new UsageError("MCP_CONFORMANCE_CONTEXT is not a JSON object");
    context = parsed;
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof SyntaxError)) throw e;
    err(`mcp-prism conformance-client: ${e.message}\n${USAGE}`);
    return 2;
  }
  const str = (k: string) => (typeof context[k] === "string" ? (context[k] as string) : "");
  const command = Array.isArray(context.serverCommand) ? context.serverCommand.map(String) : [];
  const server = str("serverUrl") ? { url: str("serverUrl") } : { command: command[0], args: command.slice(1) };
  if (!str("serverUrl") && command.length === 0) {
    err("mcp-prism conformance-client: the context names no server (serverUrl or serverCommand)\n");
    return 2;
  }
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-conformance-"));
  try {
    const config = join(dir, "config.json");
    writeFileSync(config, JSON.stringify({ mcpServers: { scenario: server } }), { mode: 0o600 });
    const model = str("model") || "conformance-model";
    const turn = [
      "-p",
      str("prompt") || "Use the tool.",
      "--config",
      config,
      ...(api === "anthropic"
        ? ["--model", `anthropic:${model}`]
        : [
            "--model",
            `openai-compatible:${model}`,
            "--base-url",
            str("modelBaseUrl"),
            "--api-key-env",
            "OPENAI_API_KEY",
          ]),
      "--yes",
      ...(mode ? ["--mode", mode] : []),
    ];
    return await (await import("./oneshot.js")).run(turn);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
