// Where sign-in state lives: one file per server under $XDG_STATE_HOME/mcp-prism/auth/ (directory
// 0700, file 0600, written atomically), named by the server's config name and a hash of its URL
// so a server moved to another URL starts afresh. Inside, per authorization server (issuer): the
// client registration and the tokens; beside them the last discovery. Nothing here is ever
// logged, shown or given to a model: the store hands values only to the OAuth provider.
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { isObject } from "../../protocol/is-object.js";
import { stateDir } from "../config/paths.js";

export interface IssuerRecord {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the tokens were saved (ms since epoch): with `expires_in`, when they expire. */
  savedAt?: number;
  /** The configured client (auth.clientId) the person allowed to go to this issuer (no auth.issuer set). */
  allowedClientId?: string;
}

export interface AuthRecord {
  /** The server URL the record is for. */
  url: string;
  /** The authorization server the current tokens are from. */
  issuer?: string;
  discovery?: OAuthDiscoveryState;
  issuers: Record<string, IssuerRecord>;
}

/** A record file larger than this is not read (it was not written by us). */
const MAX_FILE_BYTES = 256 * 1024;

export class AuthStore {
  constructor(readonly dir: string = join(stateDir(), "auth")) {}

  static fromEnv(env: NodeJS.ProcessEnv = process.env): AuthStore {
    return new AuthStore(join(stateDir(env), "auth"));
  }

  /** The file of a server: `NAME-HASH.json`, the name cut to safe characters. */
  file(server: string, url: string): string {
    const safe = server.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 64);
    const hash = createHash("sha256").update(`${server}\n${url}`).digest("hex").slice(0, 16);
    return join(this.dir, `${safe}-${hash}.json`);
  }

  read(server: string, url: string): AuthRecord {
    const empty: AuthRecord = { url, issuers: Object.create(null) };
    let text: string;
    try {
      const buf = readFileSync(this.file(server, url));
      if (buf.length > MAX_FILE_BYTES) return empty;
      text = buf.toString("utf8");
    } catch {
      return empty;
    }
    try {
      const v: unknown = JSON.parse(text);
      if (!isObject(v) || v.url !== url || !isObject(v.issuers)) return empty;
      return { ...(v as unknown as AuthRecord), issuers: Object.assign(Object.create(null), v.issuers) };
    } catch {
      return empty; // a torn or foreign file: sign in afresh
    }
  }

  write(server: string, url: string, record: AuthRecord): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const target = this.file(server, url);
    const tmp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(record), { mode: 0o600, flag: "wx" });
      renameSync(tmp, target);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
  }

  /** Forgets everything about the server (tokens, registrations, discovery). True when there was a file. */
  remove(server: string, url: string): boolean {
    const target = this.file(server, url);
    try {
      readFileSync(target, { flag: "r" });
    } catch {
      return false;
    }
    rmSync(target, { force: true });
    return true;
  }
}
