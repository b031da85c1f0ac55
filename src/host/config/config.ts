// Host configuration in the shape people already have (Claude Desktop / Cursor `mcpServers`),
// looked up as --config FILE, ./mcp-prism.json, $XDG_CONFIG_HOME/mcp-prism/config.json, else
// the bundled demo server over stdio. Unknown keys are tolerated; wrong ones get one clear line.
// A directory's ./mcp-prism.json is used only once the user trusted it (config-trust.ts): until
// then loading it throws UntrustedConfigError, which callers that can ask turn into a question.
import { packageRoot, userConfigPath } from "./paths.js";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { parseAuthConfig, type AuthConfig } from "../auth/auth-config.js";
import { ConfigTrust, contentHash } from "./config-trust.js";
import { isDirectory, parseRoots } from "./roots.js";
import { isLogLevel, LOG_LEVELS, type LogLevel } from "../connection/server-logs.js";
import { DEFAULT_MAX_JSON_DEPTH, exceedsJsonDepth } from "../../protocol/json-depth.js";
import { DEFAULT_MAX_RESULT_BYTES } from "../../protocol/limits.js";
import { isObject } from "../../protocol/is-object.js";
import { LEGACY_PROFILES, MODES, type LegacyProfile, type Mode } from "../types.js";

export const IMAGES_SETTINGS = ["auto", "kitty", "iterm", "sixel", "blocks"] as const;
export type ImagesSetting = (typeof IMAGES_SETTINGS)[number];

/** At most this many pinned tools (each is a full definition in every request). */
export const MAX_PINNED_TOOLS = 32;

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
  /** OAuth sign-in settings (auth/auth-config.ts); without it sign-in still works (registration). */
  auth?: AuthConfig;
}
export type ServerConfig = StdioServerConfig | HttpServerConfig;

export interface Limits {
  /** Per-call timeout (sends notifications/cancelled when it fires); each progress notification starts it again. */
  callTimeoutMs: number;
  /** The hard maximum of one call however long its progress keeps coming. */
  maxCallTimeoutMs: number;
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
  /** How long a browser sign-in (OAuth) may take before the redirect listener gives up. */
  signInTimeoutMs: number;
  /** Sampling (sampling-budget.ts): samples and requested maxTokens, per call and per session. */
  maxSamplesPerCall: number;
  maxSamplesPerSession: number;
  maxSampledTokensPerCall: number;
  maxSampledTokensPerSession: number;
  /** The budget of one tool result for the model, in tokens (unset: the smaller of 25,000 and a quarter of the model's window). */
  modelResultTokens?: number;
  /** Compact the older turns when the context reaches this share of the model's window (unset: 0.85). */
  compactAt?: number;
}
export const DEFAULT_LIMITS: Limits = {
  callTimeoutMs: 60_000,
  maxCallTimeoutMs: 600_000,
  discoverTimeoutMs: 3_000,
  connectWaitMs: 5_000,
  maxResultBytes: DEFAULT_MAX_RESULT_BYTES,
  maxImagePixels: 40_000_000,
  maxJsonDepth: DEFAULT_MAX_JSON_DEPTH,
  signInTimeoutMs: 300_000,
  maxSamplesPerCall: 10,
  maxSamplesPerSession: 50,
  maxSampledTokensPerCall: 40_000,
  maxSampledTokensPerSession: 100_000,
};

export interface HostConfig {
  /** Where it came from: a file path, or "built-in default". */
  source: string;
  /** Keyed by server name; a null-prototype object (a server may be named "toString"): look up with Object.hasOwn. */
  servers: Record<string, ServerConfig>;
  mode?: Mode;
  /** `--model`-style string or a provider block; interpreted by the model layer. */
  model?: string | Record<string, unknown>;
  profile?: LegacyProfile;
  protocol?: string;
  limits: Limits;
  /** The roots offered to servers (absolute directories, from `"roots"` or `--root`); none: no roots capability. */
  roots?: string[];
  /** Tool search (deferred tools): "auto" (default: over a tenth of the model's window), "on", "off". */
  toolSearch?: "auto" | "on" | "off";
  /** Tools always offered with their definitions under tool search (`"pinnedTools"`: names as `/tools` shows them). */
  pinnedTools?: string[];
  /** The least severe server log message wanted (`"logLevel"`, default info). */
  logLevel?: LogLevel;
  /** How the app draws pictures (`"images"`): the terminal's own protocol when "auto" finds one, else half blocks. */
  images?: ImagesSetting;
  /** One line each for the user, about how the lookup went (a directory config left out). */
  notices?: string[];
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * A directory config the user has not answered for (or whose content changed since). As a
 * ConfigError it is one line that refuses the command wherever nobody can be asked; a caller that
 * can ask shows `config` (parsed, nothing run) and records the answer with `sha256`.
 */
export class UntrustedConfigError extends ConfigError {
  constructor(
    readonly file: string,
    readonly sha256: string,
    readonly config: HostConfig,
  ) {
    super(
      `${file} is not trusted yet (a directory's config runs its servers' commands and may set the model endpoint): ` +
        `pass --config ${file} to trust it, or run mcp-prism once in a terminal to answer`,
    );
    this.name = "UntrustedConfigError";
  }
}

/** The config for this server name, if the config has one (a name like "toString" is not inherited). */
export function serverConfig(config: HostConfig, name: string): ServerConfig | undefined {
  return Object.hasOwn(config.servers, name) ? config.servers[name] : undefined;
}

/** Absolute path of bin/mcp-prism.js. */
export function bundledCliPath(): string {
  return join(packageRoot(), "bin", "mcp-prism.js");
}

export function builtInConfig(): HostConfig {
  return {
    source: "built-in default",
    servers: { demo: { kind: "stdio", command: process.execPath, args: [bundledCliPath(), "demo-server"] } },
    limits: { ...DEFAULT_LIMITS },
  };
}

/**
 * The config to use, in lookup order: `--config FILE` (trusted: the user named it), else
 * ./mcp-prism.json if the user trusted it with this content (declined: skipped with a notice;
 * never answered: UntrustedConfigError), else the user's $XDG_CONFIG_HOME/mcp-prism/config.json
 * (trusted: their own), else the built-in default. The bytes that were hashed are the bytes parsed.
 */
export function loadConfig(
  explicit?: string,
  env = process.env,
  cwd = process.cwd(),
  trust = ConfigTrust.fromEnv(env),
): HostConfig {
  if (explicit !== undefined) return readConfig(resolve(cwd, explicit)).config;
  const notices: string[] = [];
  const local = join(cwd, "mcp-prism.json");
  if (existsSync(local)) {
    const { config, sha256 } = readConfig(local);
    const answer = trust.lookup(local, sha256);
    if (answer === "trusted") return config;
    if (answer === undefined) throw new UntrustedConfigError(local, sha256, config);
    notices.push(`${local} not used: you did not trust it (pass --config ${local} to use it)`);
  }
  const user = userConfigPath(env);
  const config = existsSync(user) ? readConfig(user).config : builtInConfig();
  return notices.length ? { ...config, notices } : config;
}

function readConfig(file: string): { config: HostConfig; sha256: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(
      `${file}: cannot read config (${code === "ENOENT" ? "no such file" : (code ?? (e as Error).message)})`,
    );
  }
  return { config: parseConfig(bytes.toString("utf8"), file), sha256: contentHash(bytes) };
}

/** Line and column (1-based) of a character offset. */
function lineCol(text: string, pos: number): string {
  const before = text.slice(0, pos).split("\n");
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

export { userConfigPath };

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
  if (exceedsJsonDepth(raw, DEFAULT_MAX_JSON_DEPTH))
    throw new ConfigError(`${name}: nests deeper than ${DEFAULT_MAX_JSON_DEPTH} levels [too-deep]`);
  const bad = (path: string, expected: string): never => {
    throw new ConfigError(`${name}: ${path}: expected ${expected}`);
  };
  const strRecord = (v: unknown, path: string): Record<string, string> | undefined => {
    if (v === undefined) return undefined;
    if (!isObject(v) || Object.values(v).some((x) => typeof x !== "string")) bad(path, "object of strings");
    return v as Record<string, string>;
  };
  if (!isObject(raw)) return bad("(top level)", "object");
  // Null prototype: a server named "__proto__", "constructor" or "toString" is one like any other.
  const servers: Record<string, ServerConfig> = Object.create(null);
  const ms = raw.mcpServers;
  if (ms === undefined) bad("mcpServers", "object of servers");
  if (!isObject(ms)) return bad("mcpServers", "object of servers");
  for (const [id, s] of Object.entries(ms)) {
    const p = `mcpServers.${id}`;
    if (!isObject(s)) return bad(p, 'object with "command" or "url"');
    if (s.url !== undefined) {
      if (typeof s.url !== "string" || !/^https?:\/\//.test(s.url)) bad(`${p}.url`, "http(s) URL string");
      const auth = s.auth === undefined ? undefined : parseAuthConfig(s.auth, `${p}.auth`);
      if (Array.isArray(auth)) bad(auth[0], auth[1]);
      servers[id] = {
        kind: "http",
        url: s.url as string,
        headers: strRecord(s.headers, `${p}.headers`),
        ...(auth ? { auth: auth as AuthConfig } : {}),
      };
    } else if (s.command !== undefined) {
      if (typeof s.command !== "string" || s.command === "") bad(`${p}.command`, "non-empty string");
      if (s.args !== undefined && (!Array.isArray(s.args) || s.args.some((a) => typeof a !== "string"))) {
        bad(`${p}.args`, "array of strings");
      }
      if (s.cwd !== undefined && typeof s.cwd !== "string") bad(`${p}.cwd`, "string");
      const cwd = typeof s.cwd === "string" ? resolve(dirname(file), s.cwd) : undefined;
      if (cwd !== undefined && !isDirectory(cwd)) bad(`${p}.cwd`, `an existing directory (${cwd} is not one)`);
      // A path ("./server.sh", "bin/x") is the config folder's, like cwd; a bare name is looked up in PATH.
      const command = s.command as string;
      servers[id] = {
        kind: "stdio",
        command: /[\\/]/.test(command) && !isAbsolute(command) ? resolve(dirname(file), command) : command,
        args: (s.args as string[] | undefined) ?? [],
        env: strRecord(s.env, `${p}.env`),
        ...(cwd ? { cwd } : {}),
      };
    } else bad(p, 'object with "command" or "url"');
  }
  if (Object.keys(servers).length === 0) bad("mcpServers", "at least one server");
  const cfg: HostConfig = { source: file, servers, limits: { ...DEFAULT_LIMITS } };
  if (raw.mode !== undefined) {
    if (typeof raw.mode !== "string" || !(MODES as readonly string[]).includes(raw.mode))
      bad("mode", `one of ${MODES.join(", ")}`);
    cfg.mode = raw.mode as Mode;
  }
  if (raw.model !== undefined) {
    // A string ("offline", "anthropic:ID") or a block ({"provider","id","baseURL","maxTokens"}),
    // whose fields src/model/select.ts checks.
    if (typeof raw.model !== "string" && !isObject(raw.model)) bad("model", 'string or object with "provider"');
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
  if (raw.roots !== undefined) {
    const roots = parseRoots(raw.roots, dirname(file));
    if ("error" in roots) bad("roots", roots.error);
    else cfg.roots = roots.dirs;
  }
  if (raw.toolSearch !== undefined) {
    if (raw.toolSearch !== "auto" && raw.toolSearch !== "on" && raw.toolSearch !== "off")
      bad("toolSearch", '"auto", "on" or "off"');
    cfg.toolSearch = raw.toolSearch as "auto" | "on" | "off";
  }
  if (raw.pinnedTools !== undefined) {
    const names = raw.pinnedTools;
    if (
      !Array.isArray(names) ||
      names.length > MAX_PINNED_TOOLS ||
      !names.every((n) => typeof n === "string" && n.length > 0 && n.length <= 200)
    )
      bad("pinnedTools", `an array of at most ${MAX_PINNED_TOOLS} tool names`);
    else cfg.pinnedTools = [...new Set(names as string[])];
  }
  if (raw.images !== undefined) {
    if (!IMAGES_SETTINGS.includes(raw.images as ImagesSetting))
      bad("images", IMAGES_SETTINGS.map((v) => `"${v}"`).join(", "));
    cfg.images = raw.images as ImagesSetting;
  }
  if (raw.logLevel !== undefined) {
    if (!isLogLevel(raw.logLevel)) bad("logLevel", `one of ${LOG_LEVELS.join(", ")}`);
    cfg.logLevel = raw.logLevel as LogLevel;
  }
  if (raw.limits !== undefined) {
    if (!isObject(raw.limits)) bad("limits", "object");
    const limits = raw.limits as Record<string, unknown>;
    for (const key of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
      const v = limits[key];
      if (v === undefined) continue;
      if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) bad(`limits.${key}`, "positive number");
      cfg.limits[key] = v as number;
    }
    const budget = limits.modelResultTokens;
    if (budget !== undefined) {
      if (typeof budget !== "number" || !Number.isInteger(budget) || budget < 1000 || budget > 10_000_000)
        bad("limits.modelResultTokens", "integer from 1000 to 10000000 (tokens)");
      cfg.limits.modelResultTokens = budget as number;
    }
    const at = limits.compactAt;
    if (at !== undefined) {
      if (typeof at !== "number" || !(at >= 0.1 && at <= 0.99))
        bad("limits.compactAt", "a share of the model's window from 0.1 to 0.99");
      cfg.limits.compactAt = at as number;
    }
  }
  return cfg;
}
