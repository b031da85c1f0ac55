// Which directory config files the user trusts. A `./mcp-prism.json` found in the current
// directory (a cloned repository, a download) runs its servers' commands and may point the model
// at another endpoint, so it is used only once the user said yes to that file with that content:
// the answer is remembered per absolute path and SHA-256 of the bytes read, so a changed file asks
// again. `--config FILE` and the user's own $XDG_CONFIG_HOME config are trusted without asking
// (src/host/config/config.ts). One small JSON file, $XDG_STATE_HOME/mcp-prism/trusted-configs.json,
// written atomically (temp file + rename) with mode 0600, at most MAX_ENTRIES entries; a corrupt
// or oversized file is read as empty (nothing trusted). Only node builtins: the chat app asks
// before its first frame.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stateDir } from "./paths.js";

export type TrustAnswer = "trusted" | "declined";
interface Entry {
  sha256: string;
  answer: TrustAnswer;
  /** When it was answered (ms since the epoch): the oldest entries go first. */
  at: number;
}

const MAX_ENTRIES = 200;
const MAX_FILE_BYTES = 256 * 1024;
const MAX_PATH = 4096;
const FILE = "trusted-configs.json";

export function contentHash(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export class ConfigTrust {
  /** Answers given in this process, kept even when the file cannot be written. */
  private readonly session = new Map<string, Entry>();

  constructor(readonly dir: string) {}

  static fromEnv(env: NodeJS.ProcessEnv = process.env): ConfigTrust {
    return new ConfigTrust(stateDir(env));
  }

  get file(): string {
    return join(this.dir, FILE);
  }

  /** The remembered answer for this file with this content, or undefined (ask). */
  lookup(path: string, sha256: string): TrustAnswer | undefined {
    const e = this.session.get(path) ?? this.read()[path];
    return e && e.sha256 === sha256 ? e.answer : undefined;
  }

  /**
   * Remembers an answer (this process at once, then the file). Returns undefined when it was
   * written, else one line saying why it will be asked again next time.
   */
  remember(path: string, sha256: string, answer: TrustAnswer): string | undefined {
    const entry: Entry = { sha256, answer, at: Date.now() };
    this.session.set(path, entry);
    if (path.length > MAX_PATH) return `not remembered: the path is longer than ${MAX_PATH} characters`;
    const entries = { ...this.read(), [path]: entry };
    const kept = Object.entries(entries)
      .sort((a, b) => b[1].at - a[1].at)
      .slice(0, MAX_ENTRIES);
    const tmp = join(this.dir, `.${FILE}.${process.pid}.${Date.now()}.tmp`);
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(tmp, JSON.stringify({ version: 1, configs: Object.fromEntries(kept) }), { mode: 0o600 });
      renameSync(tmp, this.file);
      return undefined;
    } catch (e) {
      try {
        rmSync(tmp, { force: true });
      } catch {
        // nothing was created
      }
      return `not remembered: ${this.file} cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    }
  }

  private read(): Record<string, Entry> {
    const out: Record<string, Entry> = Object.create(null);
    let doc: unknown;
    try {
      const buf = readFileSync(this.file);
      if (buf.length > MAX_FILE_BYTES) return out;
      doc = JSON.parse(buf.toString("utf8"));
    } catch {
      return out; // none yet, unreadable or corrupt: nothing is trusted
    }
    const configs = (doc as { configs?: unknown } | null)?.configs;
    if (typeof configs !== "object" || configs === null || Array.isArray(configs)) return out;
    for (const [path, v] of Object.entries(configs as Record<string, unknown>)) {
      const e = v as Partial<Entry> | null;
      if (typeof e?.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(e.sha256)) continue;
      if (e.answer !== "trusted" && e.answer !== "declined") continue;
      out[path] = { sha256: e.sha256, answer: e.answer, at: typeof e.at === "number" ? e.at : 0 };
    }
    return out;
  }
}
