// Tool search (deferred tools): when the servers' tool definitions would take too much of the
// window ("auto": over a tenth of it; "on"; "off"), the model gets only the tools it used or found
// lately plus search_tools({query, server?}), answered from the local index (tool-index.ts). A tool
// found is offered with its full definition from the next request on. What is loaded is derived
// from the conversation itself (its calls and searches), so a resumed session keeps it.
import type { ModelCapabilities } from "./context.js";
import type { ModelToolSpec } from "./adapter.js";
import type { ConversationItem } from "./conversation.js";
import type { HostTool } from "./host-tool.js";
import { ToolIndex } from "../host/catalog/tool-index.js";
import { estimateTextTokens } from "./tokens.js";

export type ToolSearchSetting = "auto" | "on" | "off";
export const TOOL_SEARCH_SETTINGS: readonly ToolSearchSetting[] = ["auto", "on", "off"];
export const SEARCH_TOOLS = "search_tools";
/** "auto" defers the tools when their definitions are over this share of the window. */
export const AUTO_SHARE = 0.1;
/** How many matches a search lists, and how many of them it loads. */
const LISTED = 8;
const LOADED_PER_SEARCH = 5;
/** At most this many deferred tools are offered at once (the most recent first). */
export const MAX_LOADED = 24;

/** The app's tool search switch (`/tools search`) and what the last request offered, shared by the runner and /tools. */
export interface ToolSearchControl {
  setting: ToolSearchSetting;
  /** Tools always offered with their definitions (config `pinnedTools`, `/tools pin`), as `/tools` names them. */
  pinned: string[];
  /** Set by the last request under tool search (cleared when a turn runs without it). */
  offered?: { loaded: string[]; deferred: number };
}

/** What one search_tools call did, for the user (the app's line, -p): the query and the tools it loaded. */
export interface ToolSearchDetail {
  query: string;
  loaded: { name: string; server: string }[];
  /** How many matched (the model is told up to 8; the first 5 are loaded). */
  listed: number;
}

/** A search_tools run with its detail (the one place that knows what a run's `detail` holds). */
export function isToolSearchRun<E extends { call: { name: string }; hostRun?: { detail?: unknown } }>(
  e: E,
): e is E & { hostRun: { detail: ToolSearchDetail } } {
  return e.call.name === SEARCH_TOOLS && e.hostRun?.detail !== undefined;
}

/** "search_tools "take a screenshot": loaded browser_take_screenshot (playwright), …" */
export function toolSearchLine(d: ToolSearchDetail): string {
  const q = JSON.stringify(d.query.length > 80 ? `${d.query.slice(0, 79)}…` : d.query);
  if (!d.loaded.length) return `search_tools ${q}: no tool matched`;
  return `search_tools ${q}: loaded ${d.loaded.map((t) => `${t.name} (${t.server})`).join(", ")} for the model`;
}

export function definitionTokens(tools: readonly ModelToolSpec[]): number {
  return estimateTextTokens(JSON.stringify(tools));
}

export function searchWanted(
  setting: ToolSearchSetting,
  tools: readonly ModelToolSpec[],
  caps: ModelCapabilities,
): boolean {
  if (setting === "off" || !tools.length) return false;
  return setting === "on" || definitionTokens(tools) > caps.contextWindow * AUTO_SHARE;
}

export class ToolSearch {
  private readonly index: ToolIndex;
  private readonly known: Set<string>;

  constructor(
    /** The servers' tools as they would be offered (bounded, named for the model). */
    readonly tools: readonly ModelToolSpec[],
    serverOf: (name: string) => string,
    private readonly pinned: readonly string[] = [],
  ) {
    this.index = new ToolIndex(tools.map((t) => ({ ...t, server: serverOf(t.name) })));
    this.known = new Set(tools.map((t) => t.name));
  }

  private find(args: Record<string, unknown>) {
    const query = typeof args.query === "string" ? args.query : "";
    const server = typeof args.server === "string" && args.server ? args.server : undefined;
    return this.index.search(query, { server, limit: LISTED });
  }

  /** The tools offered with their definitions: pinned, then used or found, newest first. */
  loaded(items: readonly ConversationItem[]): Set<string> {
    const out = new Set(this.pinned.filter((n) => this.known.has(n)));
    for (let i = items.length - 1; i >= 0 && out.size < MAX_LOADED; i--) {
      const item = items[i];
      if (item.role !== "assistant") continue;
      for (const c of [...item.toolCalls].reverse()) {
        if (c.name === SEARCH_TOOLS) for (const m of this.find(c.args).slice(0, LOADED_PER_SEARCH)) out.add(m.name);
        else if (this.known.has(c.name)) out.add(c.name);
        if (out.size >= MAX_LOADED) break;
      }
    }
    return out;
  }

  /** The definitions for one request. */
  offered(items: readonly ConversationItem[]): ModelToolSpec[] {
    const loaded = this.loaded(items);
    return this.tools.filter((t) => loaded.has(t.name));
  }

  hostTool(): HostTool {
    return {
      name: SEARCH_TOOLS,
      description: `Search the ${this.tools.length} tools of the connected MCP servers by what they do: only the ones you used or found lately are listed to you. The best matches are loaded: call them from your next step on.`,
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: "What the tool should do, in a few words (e.g. take a screenshot)." },
          server: { type: "string", description: "Only this server's tools." },
        },
        required: ["query"],
      },
      run: async (args) => {
        if (typeof args.query !== "string" || !args.query.trim())
          return { isError: true, text: "search_tools needs a query (a few words)." };
        const found = this.find(args);
        const query = args.query.slice(0, 200);
        const detail: ToolSearchDetail = {
          query,
          loaded: found.slice(0, LOADED_PER_SEARCH).map(({ name, server }) => ({ name, server })),
          listed: found.length,
        };
        if (!found.length)
          return {
            isError: false,
            text: `No tool matches ${JSON.stringify(query)}; try other words.`,
            detail,
          };
        const lines = found.map(
          (m, i) =>
            `${m.name} (server ${m.server})${i < LOADED_PER_SEARCH ? "" : " [not loaded: search again to load]"}: ${m.line}`,
        );
        return { isError: false, text: `Loaded for your next step:\n${lines.join("\n")}`, detail };
      },
    };
  }
}
