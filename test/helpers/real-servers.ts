// The real third-party MCP servers the tests drive (devDependencies, exact versions): their
// configs, a temporary directory for server-filesystem (a text file and a PNG) and a memory
// file for server-memory, and server-everything's Streamable HTTP mode on a free loopback port.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerConfig } from "../../src/host/config/config.js";
import { encodePng } from "../../src/protocol/png.js";
import { ROOT } from "./host-fixtures.js";

const pkg = (name: string) => join(ROOT, "node_modules", "@modelcontextprotocol", name, "dist", "index.js");
export const EVERYTHING = pkg("server-everything");
export const FILESYSTEM = pkg("server-filesystem");
export const MEMORY = pkg("server-memory");
export const SEQUENTIAL_THINKING = pkg("server-sequential-thinking");

export const TEXT = "hello from a real file\nline two\n";
export const PNG = encodePng(
  2,
  2,
  new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]),
);

/** Every file the real servers need, under one temporary directory (removed by `remove`). */
export function realServerFiles() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "mcp-prism-real-")));
  const files = join(dir, "files");
  mkdirSync(files);
  writeFileSync(join(files, "notes.txt"), TEXT);
  writeFileSync(join(files, "dot.png"), PNG);
  return {
    dir,
    files,
    memoryFile: join(dir, "memory.jsonl"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const everythingStdio = (): ServerConfig => ({
  kind: "stdio",
  command: process.execPath,
  args: [EVERYTHING, "stdio"],
});
export const filesystemStdio = (dir: string): ServerConfig => ({
  kind: "stdio",
  command: process.execPath,
  args: [FILESYSTEM, dir],
});
export const memoryStdio = (file: string): ServerConfig => ({
  kind: "stdio",
  command: process.execPath,
  args: [MEMORY],
  env: { MEMORY_FILE_PATH: file },
});
export const sequentialThinkingStdio = (): ServerConfig => ({
  kind: "stdio",
  command: process.execPath,
  args: [SEQUENTIAL_THINKING],
  env: { DISABLE_THOUGHT_LOGGING: "true" },
});

/** A port the kernel just handed out on 127.0.0.1 (server-everything takes a PORT, not port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** server-everything in its streamableHttp mode; resolves once it listens. */
export async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything did not listen within 20 s: ${err}`)), 20_000);
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (c: string) => {
      err += c;
      if (/listening on port/.test(err)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited (${code}): ${err}`));
    });
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { url: `http://127.0.0.1:${port}/mcp`, child, stop };
}

export const GIT_SERVER = join(ROOT, "node_modules", "@cyanheads", "git-mcp-server", "dist", "index.js");
export const SQLITE_SERVER = join(ROOT, "node_modules", "mcp-server-sqlite-npx", "dist", "index.js");
/** @cyanheads/git-mcp-server confined to `baseDir` (its GIT_BASE_DIR), logging only errors. */
export const gitServer = (baseDir: string) => ({
  command: process.execPath,
  args: [GIT_SERVER],
  env: { MCP_LOG_LEVEL: "error", GIT_BASE_DIR: baseDir, MCP_TRANSPORT_TYPE: "stdio" },
});
/** mcp-server-sqlite-npx on the database file `db` (created when missing). */
export const sqliteServer = (db: string) => ({ command: process.execPath, args: [SQLITE_SERVER, db] });

/** A git repository at `dir` with one commit per subject (author `Author <n>` by index mod 3). */
export function gitRepo(dir: string, subjects: string[]): void {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) => {
    const r = spawnSync("git", args, { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  };
  git("init", "-q", "-b", "main");
  subjects.forEach((s, i) => {
    writeFileSync(join(dir, "file.txt"), `${i}\n`);
    git("add", "file.txt");
    git("-c", `user.name=Author ${i % 3}`, "-c", `user.email=a${i % 3}@example.com`, "commit", "-q", "-m", s);
  });
}
