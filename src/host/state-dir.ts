// Where mcp-prism keeps its state (transcripts, the era cache, trusted config files). Imports
// only node builtins: the chat app's first-frame code reads it.
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/** `$XDG_STATE_HOME/mcp-prism`; a relative or empty XDG_STATE_HOME is ignored, as the spec says. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_STATE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME ?? homedir(), ".local", "state");
  return join(base, "mcp-prism");
}
