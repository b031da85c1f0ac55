// Spawning a stdio server's process, and spawning it early. The chat app starts its servers'
// processes before it loads the host code (MCP SDK, zod, Ajv), so a server boots on another core
// meanwhile; when the host connects, its stdio transport adopts the process already running
// instead of spawning a second one. Each server is the leader of its own process group
// (process-group.ts), so stopping it stops whatever its command started. Nothing here loads more
// than node:child_process and node:fs.
import { spawn, type ChildProcess } from "node:child_process";
import { GROUPS, trackGroup } from "./process-group.js";

export interface StdioParams {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** Like the SDK: the child inherits only these variables (plus the configured env). */
const INHERITED_ENV = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/**
 * The environment a server process starts with: only INHERITED_ENV from ours (never an API key
 * or a token the user exported), then the configured variables. The checker uses it too.
 */
export function serverEnv(
  extra: Record<string, string> = {},
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of INHERITED_ENV) {
    const v = from[k];
    if (v !== undefined && !v.startsWith("()")) env[k] = v;
  }
  return { ...env, ...extra };
}

export function spawnServer(params: StdioParams): ChildProcess {
  const child = spawn(params.command, params.args, {
    env: serverEnv(params.env),
    cwd: params.cwd,
    stdio: ["pipe", "pipe", "pipe"],
    shell: false,
    // Its own process group (and session): a wrapper's children are signalled with it, and the
    // terminal's ^C reaches only the host, which decides when servers stop.
    detached: GROUPS,
  });
  trackGroup(child);
  return child;
}

/** A process spawned early, and what it did before anyone adopted it. */
export interface EarlyServer {
  child: ChildProcess;
  /** The spawn failed (ENOENT, EACCES, …). */
  error?: Error;
  spawned: boolean;
  /** Exited with its pipes closed (nothing left to read). */
  closed: boolean;
  /**
   * What it wrote on stderr before adoption (node discards an unread pipe when the process exits,
   * and a server that dies at start says why there): the first and the last bytes, bounded.
   */
  stderr: Buffer[];
  /** Stops collecting stderr (the adopter reads it from then on). */
  stopCollecting(): void;
}

const EARLY_HEAD = 8 * 1024;
const EARLY_TAIL = 56 * 1024;

/** Collects a pipe's chunks: the first EARLY_HEAD bytes whole, then the last EARLY_TAIL (a newline marks a gap). */
function collect(early: EarlyServer): void {
  const head: Buffer[] = [];
  const tail: Buffer[] = [];
  let headBytes = 0;
  let tailBytes = 0;
  let dropped = false;
  const onData = (c: Buffer) => {
    if (headBytes < EARLY_HEAD) {
      head.push(c);
      headBytes += c.length;
      return;
    }
    tail.push(c);
    tailBytes += c.length;
    while (tailBytes > EARLY_TAIL && tail.length > 1) {
      tailBytes -= tail.shift()!.length;
      dropped = true;
    }
  };
  early.child.stderr?.on("data", onData);
  early.stopCollecting = () => {
    early.child.stderr?.off("data", onData);
    early.stderr = [...head, ...(dropped ? [Buffer.from("\n")] : []), ...tail];
  };
}

/** The servers spawned early, waiting for their transport. */
const waiting = new Map<string, EarlyServer>();
const keyOf = (p: StdioParams) => JSON.stringify([p.command, p.args, p.env ?? null, p.cwd ?? null]);

/** Spawns the server now, to be adopted by the first transport started with the same params. */
export function spawnEarly(params: StdioParams): void {
  const key = keyOf(params);
  if (waiting.has(key)) return;
  const early: EarlyServer = {
    child: spawnServer(params),
    spawned: false,
    closed: false,
    stderr: [],
    stopCollecting: () => {},
  };
  collect(early);
  // Listening also keeps a failed spawn from being an unhandled 'error' before adoption.
  early.child.once("error", (e) => (early.error = e));
  early.child.once("spawn", () => (early.spawned = true));
  early.child.once("close", () => (early.closed = true));
  // One nobody adopted (the app exited before its host connected) is SIGKILLed with its group on
  // 'exit' like every other server group (process-group.ts).
  waiting.set(key, early);
}

/** The early process for these params (handed out once), or undefined: spawn one yourself. */
export function adoptEarly(params: StdioParams): EarlyServer | undefined {
  const key = keyOf(params);
  const early = waiting.get(key);
  waiting.delete(key);
  return early;
}
