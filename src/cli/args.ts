// Command-line parsing shared by every subcommand: node:util parseArgs with the common options,
// plus each command's own. A bad option is one clear line and exit code 2.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { statSync } from "node:fs";
import { resolve } from "node:path";
// The zod-free protocol modules only: every command parses its arguments first, the app before its first frame.
import { ALL_VERSIONS } from "../protocol/versions.js";
import { parseSelector } from "../protocol/selectors.js";
import type { ToolResultOutputSelector } from "../protocol/schemas.js";
import { LEGACY_PROFILES, MODES, type LegacyProfile, type Mode } from "../host/types.js";
import { err } from "./output/terminal.js";
import { didYouMean } from "../protocol/suggest.js";

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export interface CommonOptions {
  config?: string;
  server?: string;
  mode?: Mode;
  model?: string;
  /** --base-url: an OpenAI-compatible endpoint for --model. */
  baseUrl?: string;
  /** --api-key-env: the environment variable holding that endpoint's key. */
  apiKeyEnv?: string;
  protocol?: string;
  /** `--root DIR` (repeatable): the roots offered to servers, absolute, instead of the config's. */
  roots?: string[];
  yes: boolean;
  json: boolean;
}

type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

export const COMMON_OPTIONS = {
  config: { type: "string" },
  server: { type: "string" },
  mode: { type: "string" },
  model: { type: "string" },
  "base-url": { type: "string" },
  "api-key-env": { type: "string" },
  protocol: { type: "string" },
  root: { type: "string", multiple: true },
  yes: { type: "boolean", short: "y" },
  json: { type: "boolean" },
} as const satisfies OptionSpec;

export interface ParsedCli {
  common: CommonOptions;
  /** Every option's value, common and command-specific. */
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

function oneLine(e: Error, options: OptionSpec): string {
  const m = e.message;
  const unknown = /^Unknown option '([^']+)'/.exec(m);
  if (unknown) {
    const known = Object.keys(options).map((k) => `--${k}`);
    return `unknown option ${unknown[1]}${unknown[1].startsWith("--") ? didYouMean(unknown[1], known) : ""}`;
  }
  // "argument missing" at the end; "ambiguous" when the next word is an option (`--url --json`).
  // node names the option `-p, --prompt <value>` or `--url <value>`: the short form is what was typed most often.
  const missing = /^Option '(?:(-\w), )?(--[^ ']+)[^']*' argument (?:missing|is ambiguous)/.exec(m);
  if (missing) return `option ${missing[1] ?? missing[2]} needs a value`;
  const positional = /^Unexpected argument '([^']+)'/.exec(m);
  if (positional) return `unexpected argument ${JSON.stringify(positional[1])}`;
  return m.split("\n")[0].replace(/\. To specify.*$/, "");
}

/** parseArgs (strict) with exactly `options`, for a command without the common ones; throws UsageError with one line. */
export function parseOptions(argv: string[], options: OptionSpec, allowPositionals = true): Omit<ParsedCli, "common"> {
  try {
    const parsed = parseArgs({ args: argv, options, allowPositionals, strict: true });
    return { values: parsed.values as ParsedCli["values"], positionals: parsed.positionals };
  } catch (e) {
    throw new UsageError(oneLine(e as Error, options));
  }
}

/** Parses argv with the common options plus `extra`; throws UsageError with one line. */
export function parseCli(
  argv: string[],
  extra: OptionSpec = {},
  opts: { positionals?: [min: number, max: number] } = {},
): ParsedCli {
  const parsed = parseOptions(argv, { ...COMMON_OPTIONS, ...extra });
  const v = parsed.values;
  const str = (k: string) => (typeof v[k] === "string" ? (v[k] as string) : undefined);
  const mode = str("mode");
  if (mode !== undefined && !(MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`--mode: expected one of ${MODES.join(", ")} (got ${JSON.stringify(mode)})`);
  }
  const protocol = str("protocol");
  if (protocol !== undefined && !(ALL_VERSIONS as readonly string[]).includes(protocol)) {
    throw new UsageError(`--protocol: expected one of ${ALL_VERSIONS.join(", ")} (got ${JSON.stringify(protocol)})`);
  }
  const roots = parseRootFlags(v.root);
  const [min, max] = opts.positionals ?? [0, Infinity];
  if (parsed.positionals.length < min)
    throw new UsageError(min === 1 ? "missing the tool name" : `expected at least ${min} arguments`);
  if (parsed.positionals.length > max)
    throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[max])}`);
  return {
    common: {
      config: str("config"),
      server: str("server"),
      mode: mode as Mode | undefined,
      model: str("model"),
      baseUrl: str("base-url"),
      apiKeyEnv: str("api-key-env"),
      protocol,
      ...(roots ? { roots } : {}),
      yes: v.yes === true,
      json: v.json === true,
    },
    values: v,
    positionals: parsed.positionals,
  };
}

/** `--root DIR`s as absolute existing directories (against the current directory), or one clear line. */
function parseRootFlags(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const dirs: string[] = [];
  for (const d of (Array.isArray(value) ? value : [value]) as string[]) {
    const dir = resolve(d);
    let isDir = false;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      // missing: said below
    }
    if (!isDir) throw new UsageError(`--root: expected an existing directory (${dir} is not one)`);
    if (!dirs.includes(dir)) dirs.push(dir);
  }
  if (dirs.length > 64) throw new UsageError(`--root: at most 64 roots (got ${dirs.length})`);
  return dirs;
}

/** `--args JSON` (or another flag's JSON object): an object, or one clear line. */
export function parseToolArgs(text: string | undefined, flag = "--args"): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${flag}: invalid JSON (${(e as Error).message.split("\n")[0]})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError(`${flag}: expected a JSON object`);
  return value as Record<string, unknown>;
}

/** `--select audience/format` (repeatable). */
export function parseSelectors(values: unknown): ToolResultOutputSelector[] | undefined {
  if (values === undefined) return undefined;
  const list = (Array.isArray(values) ? values : [values]) as string[];
  return list.map((text) => {
    const sel = parseSelector(text);
    if (!sel)
      throw new UsageError(
        `--select: expected audience/format such as assistant/content (got ${JSON.stringify(text)})`,
      );
    return sel;
  });
}

export function parseProfile(value: unknown): LegacyProfile | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !(LEGACY_PROFILES as readonly string[]).includes(value)) {
    throw new UsageError(`--profile: expected one of ${LEGACY_PROFILES.join(", ")}`);
  }
  return value as LegacyProfile;
}

/** Runs a command body; a UsageError becomes one stderr line and exit code 2 (`command` "" is the app). */
export async function withUsage(command: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof UsageError) {
      err(`mcp-prism${command ? ` ${command}` : ""}: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
