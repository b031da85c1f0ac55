// The OAuth-protected fixture server (test/fixtures/oauth-server.ts) and the BUILT CLI run against
// it, for the sign-in tests: a private state directory and config, $BROWSER set to the test
// "browser" (test/fixtures/oauth-browser.mjs, which logs each URL it is given) or to one that does
// nothing, every output kept for the canary checks.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./host-fixtures.js";
import { waitForListeningUrl } from "./listening.js";

const CLI = join(ROOT, "bin", "mcp-prism.js");

export interface OAuthStats {
  registrations: number;
  authorizations: number;
  codeExchanges: number;
  refreshes: number;
  revocations: number;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface OAuthFixture {
  url: string;
  dir: string;
  /** The config `{"mcpServers": {"secure": {url}}}` with `limits` added. */
  config: string;
  /** Writes another config beside it (the same server, by default as "secure") and returns its path. */
  writeConfig(name: string, limits: Record<string, number>, servers?: Record<string, Record<string, unknown>>): string;
  /** Runs the CLI (`--config` the default one unless given); browser: a test browser that approves, or one that does nothing. */
  cli(args: string[], opts?: { browser?: boolean; env?: NodeJS.ProcessEnv }): Promise<CliRun>;
  stats(): Promise<OAuthStats>;
  control(path: "expire" | "revoke" | "revoke-after-list" | "migrate"): Promise<void>;
  /** The second authorization server: its counts, the client ids it issued, every one presented to it. */
  second(): Promise<{ stats: OAuthStats; registered: string[]; seen: string[] }>;
  /** How many URLs the test browser was given. */
  browserOpened(): number;
  authDir: string;
  tokenFiles(): string[];
  /** Every CLI stdout and stderr so far. */
  outputs: string[];
  close(): void;
}

export async function startOAuthFixture(
  limits: Record<string, number> = { connectWaitMs: 60_000 },
): Promise<OAuthFixture> {
  const server: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", join(ROOT, "test", "fixtures", "oauth-server.ts")],
    { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] },
  );
  const url = (await waitForListeningUrl(server, "oauth fixture", 60_000)).url;
  const dir = mkdtempSync(join(tmpdir(), "prism-oauth-"));
  const browserLog = join(dir, "browser.log");
  const authDir = join(dir, "state", "mcp-prism", "auth");
  const outputs: string[] = [];
  const writeConfig = (name: string, l: Record<string, number>, servers?: Record<string, Record<string, unknown>>) => {
    const file = join(dir, name);
    const mcpServers = servers
      ? Object.fromEntries(Object.entries(servers).map(([k, v]) => [k, { url, ...v }]))
      : { secure: { url } };
    writeFileSync(file, JSON.stringify({ mcpServers, limits: l }));
    return file;
  };
  const config = writeConfig("config.json", limits);
  return {
    url,
    dir,
    config,
    writeConfig,
    authDir,
    outputs,
    cli(args, opts = {}) {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        XDG_STATE_HOME: join(dir, "state"),
        OAUTH_BROWSER_LOG: browserLog,
        NO_COLOR: "1",
        MCP_PRISM_ERA_CACHE: "0",
        ...opts.env,
      };
      env.BROWSER =
        opts.browser === false ? "false" : `${process.execPath} ${join(ROOT, "test", "fixtures", "oauth-browser.mjs")}`;
      const child = spawn(
        process.execPath,
        [CLI, ...args, ...(args.includes("--config") ? [] : ["--config", config])],
        { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
      child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
      return new Promise((resolve) =>
        child.once("close", (code) => {
          outputs.push(stdout, stderr);
          resolve({ code, stdout, stderr });
        }),
      );
    },
    stats: async () => (await (await fetch(new URL("/control/stats", url))).json()) as OAuthStats,
    second: async () => (await (await fetch(new URL("/control/second", url))).json()) as never,
    control: async (path) =>
      void (await (await fetch(new URL(`/control/${path}`, url), { method: "POST" })).body?.cancel()),
    browserOpened: () =>
      existsSync(browserLog) ? readFileSync(browserLog, "utf8").split("\n").filter(Boolean).length : 0,
    tokenFiles: () => (existsSync(authDir) ? readdirSync(authDir).filter((f) => f.endsWith(".json")) : []),
    close() {
      server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
