// `mcp-prism view …` (the built CLI) as a child process: its first stdout line (`view: URL`), its
// stderr so far, and its exit code; kill() ends it (SIGKILL unless a signal is named).
import { spawn } from "node:child_process";
import { BIN, tempDir } from "./host-fixtures.js";

export interface ViewCli {
  /** The first stdout line, once there is one (at most 30 s), else what stdout holds. */
  firstLine(): Promise<string>;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): void;
}

export function startViewCli(args: string[], env: Record<string, string> = {}): ViewCli {
  const dir = tempDir();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, XDG_CONFIG_HOME: dir, XDG_STATE_HOME: dir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return {
    async firstLine() {
      const deadline = Date.now() + 30_000;
      while (!out.includes("\n") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return out.split("\n")[0];
    },
    stdout: () => out,
    stderr: () => err,
    exited,
    kill: (signal = "SIGKILL") => void child.kill(signal),
  };
}
