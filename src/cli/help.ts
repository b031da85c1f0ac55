// `mcp-prism help [COMMAND]`, `COMMAND --help` and `--version`: one usage text per command, and
// the package's version. Node builtins only: main() answers these before loading any command.
import { readFileSync } from "node:fs";

const COMMON =
  "Common options:\n  --config FILE  --server NAME  --mode chat|structured|code|app|minimal\n  --model offline|anthropic|openai|ollama|lmstudio[:MODEL]\n  --model openai-compatible:MODEL --base-url URL [--api-key-env NAME]  --protocol VERSION  --root DIR  --yes  --json";

/** Each command's usage, what it does, and its own options. */
export const COMMAND_HELP: Record<string, string> = {
  "-p": "mcp-prism -p PROMPT [--json] [--answer JSON]\n  One model turn without the app; -p - reads the prompt from stdin.",
  tui: "mcp-prism [--continue | --resume [ID]]\n  The chat app (needs a terminal). --continue goes on with the last session of this directory, --resume ID with a saved one (--resume alone lists them).",
  sessions:
    "mcp-prism sessions [--json]\n  The saved sessions, the most recently used first: id, time, directory, turns, first prompt.",
  call: "mcp-prism call TOOL [--args JSON] [--select audience/format]... [--rows N] [--profile P] [--answer JSON] [--json]\n  One call; shows what the model, the user, program logic and the App view each received (--rows N: table rows shown).",
  compare:
    "mcp-prism compare TOOL [--args JSON] [--yes] [--json]\n  The call under every mode and every legacy client profile, side by side.",
  tools:
    "mcp-prism tools [--json]\n  Each tool with its era, declared variants and schemas, and what was set aside with its rule.",
  prompts: "mcp-prism prompts [--server NAME] [--json]\n  Each server's prompts with their arguments.",
  prompt:
    "mcp-prism prompt NAME [--server NAME] [--args JSON] [--json]\n  prompts/get: the messages as the user's turn would carry them.",
  resources: "mcp-prism resources [--server NAME] [--json]\n  Each server's resources and resource templates.",
  read: "mcp-prism read URI [--server NAME] [--out FILE] [--json]\n  Reads one resource; --out FILE saves a blob (mode 0600).",
  run: "mcp-prism run FILE|- [--server NAME] [--json] [--yes]\n  Runs a script in the code-mode sandbox against the servers' tools: its value on stdout (JSON), its console output on stderr. A tool not marked readOnlyHint runs only with --yes.",
  view: "mcp-prism view TOOL [--server NAME] [--args JSON] [--open] [--view-projection result|output]\n  The call in app mode, its MCP Apps View served in a local page (prints view: URL; serves until Ctrl+C).",
  login:
    "mcp-prism login SERVER\n  Signs in to an HTTP server now (OAuth in the browser; the URL also on stderr) and keeps its tokens.",
  logout: "mcp-prism logout SERVER\n  Forgets that server's tokens, client registrations and discovery.",
  check:
    "mcp-prism check (-- COMMAND [ARGS...] | --url URL) [--call TOOL [--args JSON]]... [--allow-writes] [--allow-untested] [--json]\n  SEP-3279 and 2026-07-28 conformance of any server.",
  "check-client":
    "mcp-prism check-client [--scenario NAME]... [--transport stdio|http]... [--timeout SECONDS] [--allow-untested] [--json] -- COMMAND [ARGS...]\n  SEP-3279 client conformance of any host: scenario servers and a scripted model API on 127.0.0.1.",
  "scenario-server":
    "mcp-prism scenario-server NAME [--seed HEX] [--log FILE] [--http PORT]\n  One of check-client's scenario servers.",
  "conformance-client":
    "mcp-prism conformance-client [--mode MODE] [--api openai|anthropic]\n  mcp-prism as the client under check-client: one -p turn against MCP_CONFORMANCE_CONTEXT's scenario.",
  "demo-server":
    "mcp-prism demo-server [--http PORT] [--log-requests FILE] [--conformance-fixtures] [--error-schemas]\n  The bundled demo server (stdio by default).",
  servers:
    "mcp-prism servers list [--json] | add NAME [--env KEY=VALUE]... -- COMMAND [ARGS...] | add NAME --url URL | remove NAME [--config FILE]\n  Edits the user config ($XDG_CONFIG_HOME/mcp-prism/config.json) in place; other keys stay as they were.",
  help: "mcp-prism help [COMMAND]\n  This text, or one command's.",
};

/** Commands whose help names the common options (demo-server and help take none of them). */
const TAKES_COMMON = new Set([
  "-p",
  "tui",
  "call",
  "compare",
  "tools",
  "prompts",
  "prompt",
  "resources",
  "read",
  "run",
  "view",
  "login",
  "logout",
]);

/** A command's usage: its `Usage:` line, what it does, and the common options where it takes them. */
export function commandHelp(command: string): string {
  const text = COMMAND_HELP[command];
  return `Usage: ${text}\n${TAKES_COMMON.has(command) ? `\n${COMMON}\n` : ""}`;
}

/** `mcp-prism VERSION`, from the package.json two levels above this file (src/cli, dist/cli and dist/bundle alike). */
export function versionLine(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version?: unknown;
    };
    return `mcp-prism ${typeof pkg.version === "string" ? pkg.version : "unknown"}\n`;
  } catch {
    return "mcp-prism unknown\n";
  }
}
