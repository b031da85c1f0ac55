// Host configuration in the shape people already have (Claude Desktop / Cursor `mcpServers`),
// looked up as --config FILE, ./mcp-prism.json, $XDG_CONFIG_HOME/mcp-prism/config.json, else
// the bundled demo server over stdio. Unknown keys are tolerated; wrong ones get one clear line.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_MAX_JSON_DEPTH, exceedsJsonDepth } from "../protocol/json-depth.js";
import { LEGACY_PROFILES, MODES, type LegacyProfile, type Mode } from "./types.js";

export interface StdioServerConfig {
  kind: "stdio";
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}
export interface HttpServerConfig {
  kind: "http";
  url: string;
  headers?: Record<string, string>;
}
export type ServerConfig = StdioServerConfig | HttpServerConfig;

export interface Limits {
  /** Per-call timeout (sends notifications/cancelled when it fires). */
  callTimeoutMs: number;
  /** How long the stdio `server/discover` probe waits before assuming a legacy server. */
  discoverTimeoutMs: number;
  /** How long a prompt waits for servers still connecting; later ones join when they connect. */
  connectWaitMs: number;
  /** Largest accepted tool result (serialized JSON bytes; on stdio and modern HTTP the read stops there). */
  maxResultBytes: number;
  /** Largest image a result may carry, in pixels claimed by its header (PNG/JPEG/GIF). */
  maxImagePixels: number;
  /** Deepest nesting of objects/arrays accepted from a server, the model or the config. */
  maxJsonDepth: number;
}
export const DEFAULT_LIMITS: Limits = {
  callTimeoutMs: 60_000,
  discoverTimeoutMs: 3_000,
  connectWaitMs: 5_000,
  maxResultBytes: 8 * 1024 * 1024,
  maxImagePixels: 40_000_000,
  maxJsonDepth: DEFAULT_MAX_JSON_DEPTH,
};

export interface HostConfig {
  /** Where it came from: a file path, or "built-in default". */
  source: string;
  servers: Record<string, ServerConfig>;
  mode?: Mode;
  /** `--model`-style string or a provider block; interpreted by the model layer. */
  model?: string | Record<string, unknown>;
  profile?: LegacyProfile;
  protocol?: string;
  limits: Limits;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Absolute path of bin/mcp-prism.js (src/host and dist/host are both two levels below the root). */
export function bundledCliPath(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..", "bin", "mcp-prism.js");
}

export function builtInConfig(): HostConfig {
  return {
    source: "built-in default",
    servers: { demo: { kind: "stdio", command: process.execPath, args: [bundledCliPath(), "demo-server"] } },
    limits: { ...DEFAULT_LIMITS },
  };
}

/** The config file to use, in lookup order; undefined = the built-in default. */
export function findConfigFile(explicit: string | undefined, env = process.env, cwd = process.cwd()): string | undefined {
  if (explicit !== undefined) return resolve(cwd, explicit);
  const local = join(cwd, "mcp-prism.json");
  if (existsSync(local)) return local;
  const xdg = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== "" ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), ".config");
  const user = join(xdg, "mcp-prism", "config.json");
  if (existsSync(user)) return user;
  return undefined;
}

export function loadConfig(explicit?: string, env = process.env, cwd = process.cwd()): HostConfig {
  const file = findConfigFile(explicit, env, cwd);
  if (file === undefined) return builtInConfig();
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(`${file}: cannot read config (${code === "ENOENT" ? "no such file" : (code ?? (e as Error).message)})`);
  }
  return parseConfig(text, file);
}

/** Line and column (1-based) of a character offset. */
function lineCol(text: string, pos: number): string {
  const before = text.slice(0, pos).split("\n");
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

export function parseConfig(text: string, file: string): HostConfig {
  const name = basename(file);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const m = /position (\d+)/.exec(msg);
    const pos = m ? Number(m[1]) : text.length;
    const why = msg.replace(/ in JSON at position \d+.*$/, "").replace(/^(.*?), ".*" is not valid JSON$/, "$1");
    throw new ConfigError(`${name}: invalid JSON at ${lineCol(text, pos)}: ${why}`);
  }
  if (exceedsJsonDepth(raw, DEFAULT_MAX_JSON_DEPTH)) throw new ConfigError(`${name}: nests deeper than ${DEFAULT_MAX_JSON_DEPTH} levels [too-deep]`);
  const bad = (path: string, expected: string): never => {
    throw new ConfigError(`${name}: ${path}: expected ${expected}`);
  };
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  const strRecord = (v: unknown, path: string): Record<string, string> | undefined => {
    if (v === undefined) return undefined;
    if (!isObj(v) || Object.values(v).some((x) => typeof x !== "string")) bad(path, "object of strings");
    return v as Record<string, string>;
  };
  if (!isObj(raw)) return bad("(top level)", "object");
  const servers: Record<string, ServerConfig> = {};
  const ms = raw.mcpServers;
  if (ms === undefined) bad("mcpServers", "object of servers");
  if (!isObj(ms)) return bad("mcpServers", "object of servers");
  for (const [id, s] of Object.entries(ms)) {
    const p = `mcpServers.${id}`;
    if (!isObj(s)) return bad(p, 'object with "command" or "url"');
    if (s.url !== undefined) {
      if (typeof s.url !== "string" || !/^https?:\/\//.test(s.url)) bad(`${p}.url`, "http(s) URL string");
      servers[id] = { kind: "http", url: s.url as string, headers: strRecord(s.headers, `${p}.headers`) };
    } else if (s.command !== undefined) {
      if (typeof s.command !== "string" || s.command === "") bad(`${p}.command`, "non-empty string");
      if (s.args !== undefined && (!Array.isArray(s.args) || s.args.some((a) => typeof a !== "string"))) {
        bad(`${p}.args`, "array of strings");
      }
      if (s.cwd !== undefined && typeof s.cwd !== "string") bad(`${p}.cwd`, "string");
      const cwd = typeof s.cwd === "string" ? resolve(dirname(file), s.cwd) : undefined;
      servers[id] = {
        kind: "stdio",
        command: s.command as string,
        args: (s.args as string[] | undefined) ?? [],
        env: strRecord(s.env, `${p}.env`),
        ...(cwd ? { cwd } : {}),
      };
    } else bad(p, 'object with "command" or "url"');
  }
  if (Object.keys(servers).length === 0) bad("mcpServers", "at least one server");
  const cfg: HostConfig = { source: file, servers, limits: { ...DEFAULT_LIMITS } };
  if (raw.mode !== undefined) {
    if (typeof raw.mode !== "string" || !(MODES as readonly string[]).includes(raw.mode)) bad("mode", `one of ${MODES.join(", ")}`);
    cfg.mode = raw.mode as Mode;
  }
  if (raw.model !== undefined) {
    // A string ("offline", "anthropic:ID") or a block ({"provider","id","baseURL","maxTokens"}),
    // whose fields src/model/select.ts checks.
    if (typeof raw.model !== "string" && !isObj(raw.model)) bad("model", 'string or object with "provider"');
    cfg.model = raw.model as string | Record<string, unknown>;
  }
  if (raw.profile !== undefined) {
    if (typeof raw.profile !== "string" || !(LEGACY_PROFILES as readonly string[]).includes(raw.profile)) {
      bad("profile", `one of ${LEGACY_PROFILES.join(", ")}`);
    }
    cfg.profile = raw.profile as LegacyProfile;
  }
  if (raw.protocol !== undefined) {
    if (typeof raw.protocol !== "string") bad("protocol", "version string");
    cfg.protocol = raw.protocol as string;
  }
  if (raw.limits !== undefined) {
    if (!isObj(raw.limits)) bad("limits", "object");
    const limits = raw.limits as Record<string, unknown>;
    for (const key of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
      const v = limits[key];
      if (v === undefined) continue;
      if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) bad(`limits.${key}`, "positive number");
      cfg.limits[key] = v as number;
    }
  }
  return cfg;
}
