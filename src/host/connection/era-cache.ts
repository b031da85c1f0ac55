// The era each server was last detected with, so the next connect starts from it: a legacy
// server gets `initialize` at once (no probe, so no probe timeout for one that ignores unknown
// requests), a modern one gets `server/discover` with its version. One small JSON file,
// $XDG_STATE_HOME/mcp-prism/eras.json (default ~/.local/state/mcp-prism/), keyed by a hash of the
// server's whole config, so no command line, env value, URL or header is stored in clear. Written
// atomically (temp file + rename) with mode 0600, at most MAX_ENTRIES entries; a corrupt or
// oversized file is ignored with one diagnostic. MCP_PRISM_ERA_CACHE=0 turns it off.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ALL_VERSIONS, isModernVersion } from "../../protocol/index.js";
import type { ServerConfig } from "../config/config.js";
import { stateDir } from "../config/paths.js";

export interface RememberedEra {
  era: "modern" | "legacy";
  version: string;
}
interface Entry extends RememberedEra {
  /** When it was last confirmed (ms since the epoch): the oldest entries go first. */
  at: number;
}

const MAX_ENTRIES = 200;
const MAX_FILE_BYTES = 64 * 1024;
const FILE = "eras.json";

export { stateDir };

/** A stable hash of everything that identifies a server (secrets included, never stored in clear). */
export function configKey(cfg: ServerConfig): string {
  const sorted = (o: Record<string, string> | undefined) =>
    o
      ? Object.keys(o)
          .sort()
          .map((k) => [k, o[k]])
      : [];
  const parts =
    cfg.kind === "stdio"
      ? ["stdio", cfg.command, cfg.args, sorted(cfg.env), cfg.cwd ?? ""]
      : ["http", cfg.url, sorted(cfg.headers)];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

export class EraCache {
  constructor(
    readonly dir: string,
    /** Where a problem with the file is said (once per read). */
    private readonly onDiagnostic: (text: string) => void = () => {},
  ) {}

  /** The cache in $XDG_STATE_HOME/mcp-prism, or undefined when MCP_PRISM_ERA_CACHE=0. */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): EraCache | undefined {
    return env.MCP_PRISM_ERA_CACHE === "0" ? undefined : new EraCache(stateDir(env));
  }

  get file(): string {
    return join(this.dir, FILE);
  }

  get(cfg: ServerConfig, diagnostic = this.onDiagnostic): RememberedEra | undefined {
    const e = this.read(diagnostic)[configKey(cfg)];
    return e ? { era: e.era, version: e.version } : undefined;
  }

  /** Records what was detected; the file is rewritten only when that changed. Never throws. */
  set(cfg: ServerConfig, era: RememberedEra, diagnostic = this.onDiagnostic): void {
    const entries = this.read(() => {}); // a corrupt file was reported by get(); it is replaced
    const key = configKey(cfg);
    const old = entries[key];
    if (old && old.era === era.era && old.version === era.version) return;
    // Strictly newer than every entry, so the newest is never the one a tie drops.
    const newest = Math.max(0, ...Object.values(entries).map((e) => e.at));
    entries[key] = { era: era.era, version: era.version, at: Math.max(Date.now(), newest + 1) };
    const kept = Object.entries(entries)
      .sort((a, b) => b[1].at - a[1].at)
      .slice(0, MAX_ENTRIES);
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const tmp = join(this.dir, `.${FILE}.${process.pid}.${Date.now()}.tmp`);
      writeFileSync(tmp, JSON.stringify({ version: 1, servers: Object.fromEntries(kept) }), { mode: 0o600 });
      renameSync(tmp, this.file);
    } catch (e) {
      diagnostic(`era cache ${this.file} not written: ${(e as Error).message}`);
    }
  }

  /** Forgets a server (its remembered era failed and the full detection failed too). */
  delete(cfg: ServerConfig): void {
    const entries = this.read(() => {});
    const key = configKey(cfg);
    if (!(key in entries)) return;
    delete entries[key];
    try {
      const tmp = join(this.dir, `.${FILE}.${process.pid}.${Date.now()}.tmp`);
      writeFileSync(tmp, JSON.stringify({ version: 1, servers: entries }), { mode: 0o600 });
      renameSync(tmp, this.file);
    } catch {
      // best effort: a stale entry only costs one failed fast path
    }
  }

  private read(diagnostic: (text: string) => void): Record<string, Entry> {
    let text: string;
    try {
      const buf = readFileSync(this.file);
      if (buf.length > MAX_FILE_BYTES) {
        diagnostic(`era cache ${this.file} ignored: ${buf.length} bytes, over ${MAX_FILE_BYTES}`);
        return {};
      }
      text = buf.toString("utf8");
    } catch {
      return {}; // no file yet (or unreadable): detect as if new
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      diagnostic(`era cache ${this.file} ignored: not valid JSON`);
      return {};
    }
    const servers = (doc as { servers?: unknown } | null)?.servers;
    if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
      diagnostic(`era cache ${this.file} ignored: no "servers" object`);
      return {};
    }
    const out: Record<string, Entry> = {};
    for (const [k, v] of Object.entries(servers as Record<string, unknown>)) {
      const e = v as Partial<Entry> | null;
      const version = String(e?.version);
      const known =
        (ALL_VERSIONS as readonly string[]).includes(version) && (e?.era === "modern") === isModernVersion(version);
      const ok = /^[0-9a-f]{32}$/.test(k) && (e?.era === "modern" || e?.era === "legacy") && known;
      if (ok) out[k] = { era: e!.era!, version: e!.version!, at: typeof e!.at === "number" ? e!.at : 0 };
    }
    return out;
  }
}
