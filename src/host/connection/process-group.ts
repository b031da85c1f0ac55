// Every stdio server runs in a process group of its own (spawned detached: setsid on POSIX), so
// what a wrapper started (`bash -c`, npx, a script, a server's own children) ends with it:
// - stopGroup: stdin closed, a grace for the server to exit, SIGTERM to the whole group, a grace,
//   SIGKILL to the group (the MCP stdio shutdown, applied to the group, not only the direct child);
// - a leader that exits by itself (a crash) takes what is left of its group with it;
// - a host that exits any other way (process.exit, an uncaught exception) SIGKILLs every group it
//   still has, synchronously, on 'exit';
// - exitOnSignals: for the one-shot commands, SIGINT/SIGTERM/SIGHUP stop the groups and exit.
// Detached children do not get the terminal's ^C: the host decides when they stop.
// Loads only node:fs (for /proc) besides what child_process hands it.
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** Process groups exist (not on Windows, where children are killed one by one). */
export const GROUPS = process.platform !== "win32";

export interface StopTimes {
  /** After stdin is closed, how long the server gets to exit by itself. */
  stdinGraceMs: number;
  /** After SIGTERM, how long the group gets before SIGKILL. */
  termGraceMs: number;
}

/** After the group is gone, how long its pipes get to close before they are destroyed. */
const PIPE_GRACE_MS = 500;
const POLL_MS = 25;

interface Group {
  child: ChildProcess;
  pgid: number;
  exited: Promise<void>;
  /** Its pipes closed (the 'close' event). */
  closed: Promise<void>;
  stopping?: Promise<void>;
}

// One registry per process.
interface Registry {
  groups: Map<number, Group>;
  byChild: WeakMap<ChildProcess, Group>;
  exitHook: boolean;
  signalHandlers: boolean;
  /** Run (bounded by their own timeouts) before the groups stop on a signal: tasks.ts cancels running tasks. */
  beforeSignalExit?: Set<() => Promise<unknown>>;
}
const registry: Registry = {
  groups: new Map(),
  byChild: new WeakMap(),
  exitHook: false,
  signalHandlers: false,
};

/** `fn` runs when a signal ends the process, before the servers' groups are stopped. */
export function beforeSignalExit(fn: () => Promise<unknown>): void {
  (registry.beforeSignalExit ??= new Set()).add(fn);
}

/** Registers a child spawned with `detached: GROUPS` as the leader of its own group. */
export function trackGroup(child: ChildProcess): void {
  const pgid = child.pid;
  if (pgid === undefined || registry.byChild.has(child)) return;
  const group: Group = {
    child,
    pgid,
    exited:
      child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise((r) => child.once("exit", () => r())),
    closed: new Promise((r) => child.once("close", () => r())),
  };
  registry.byChild.set(child, group);
  if (!GROUPS) return;
  registry.groups.set(pgid, group);
  if (!registry.exitHook) {
    registry.exitHook = true;
    process.on("exit", killAllGroups);
  }
  // A leader that exits by itself (a crash, a wrapper killed) leaves no member of its group behind.
  void group.exited.then(() => stopGroup(child, { stdinGraceMs: 0, termGraceMs: 1000 }));
}

/**
 * Stops a server's process and its group: stdin closed, `stdinGraceMs` for the leader to exit,
 * SIGTERM to the group if anything in it is left, `termGraceMs`, SIGKILL. Then its pipes are
 * destroyed if a process that left the group still holds them, so nothing keeps the host alive.
 * Concurrent calls share one stop.
 */
export function stopGroup(child: ChildProcess, times: StopTimes): Promise<void> {
  trackGroup(child);
  const group = registry.byChild.get(child);
  if (!group) return Promise.resolve(); // never spawned
  return (group.stopping ??= runStop(group, times));
}

async function runStop(group: Group, times: StopTimes): Promise<void> {
  const { child } = group;
  try {
    child.stdin?.end();
  } catch {
    // already gone
  }
  await within(group.exited, times.stdinGraceMs);
  if (alive(group)) {
    signal(group, "SIGTERM");
    await until(() => !alive(group), times.termGraceMs);
  }
  if (alive(group)) signal(group, "SIGKILL");
  registry.groups.delete(group.pgid);
  await within(group.exited, times.termGraceMs);
  // A process that left the group (a new session of its own) may still hold the pipes.
  let closed = false;
  await within(
    group.closed.then(() => (closed = true)),
    PIPE_GRACE_MS,
  );
  if (!closed) for (const s of [child.stdin, child.stdout, child.stderr]) s?.destroy();
}

/** The leader or any other live member of its group. */
function alive(group: Group): boolean {
  const { child } = group;
  if (child.exitCode === null && child.signalCode === null) return true;
  return GROUPS && groupHasLiveMember(group.pgid);
}

function signal(group: Group, sig: NodeJS.Signals): void {
  try {
    if (GROUPS) process.kill(-group.pgid, sig);
    else group.child.kill(sig);
  } catch {
    // already gone (ESRCH)
  }
}

/** kill(-pgid, 0), where a zombie (dead, not yet reaped by init) is not counted as live. */
export function groupHasLiveMember(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
  if (process.platform !== "linux") return true;
  let pids: string[];
  try {
    pids = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") return true;
  }
  return false;
}

function within(p: Promise<unknown>, ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<void>((r) => (timer = setTimeout(r, ms)))]).then(() => clearTimeout(timer));
}

async function until(done: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, POLL_MS));
}

/** Synchronous, for 'exit': every group still registered gets SIGKILL. */
export function killAllGroups(): void {
  for (const group of registry.groups.values()) signal(group, "SIGKILL");
  registry.groups.clear();
}

/** Every group still registered: SIGTERM, up to `graceMs` for them to go, SIGKILL. */
export async function stopAllGroups(graceMs = 1000): Promise<void> {
  const groups = [...registry.groups.values()];
  for (const g of groups) signal(g, "SIGTERM");
  await until(() => groups.every((g) => !alive(g)), graceMs);
  killAllGroups();
}

const EXIT_SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

/**
 * For a command without a UI: SIGINT, SIGTERM or SIGHUP stop every server group (SIGTERM, a grace,
 * SIGKILL) and exit with 128 + the signal number. A signal some other listener handles (the -p
 * turn's ^C cancels it; the command then closes its host) is left to it. A second signal exits at
 * once (the 'exit' hook SIGKILLs what is left).
 */
export function exitOnSignals(): void {
  if (registry.signalHandlers) return;
  registry.signalHandlers = true;
  let exiting = false;
  for (const [sig, n] of Object.entries(EXIT_SIGNALS)) {
    const handler = () => {
      if (exiting) process.exit(128 + n);
      if (process.listenerCount(sig) > 1) return;
      exiting = true;
      // Running tasks get tasks/cancel first (bounded), while their servers can still hear it.
      void Promise.all([...(registry.beforeSignalExit ?? [])].map((fn) => fn().catch(() => {})))
        .then(() => stopAllGroups())
        .finally(() => process.exit(128 + n));
    };
    process.on(sig, handler);
  }
}
