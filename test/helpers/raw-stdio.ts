// Raw JSON-RPC over a real child process's stdio, for "exactly this JSON" assertions.
//
//   const s = spawnStdio();                       // node bin/mcp-prism.js demo-server (needs a build)
//   t.after(() => s.close());
//   const { msg, raw } = await s.request("tools/call", { name: "x", _meta: modernMeta() });
//   s.lines                                        // every stdout line, unparsed, in arrival order
//
// `request` assigns ids, writes one line, and resolves with the response carrying that id
// (a result or an error). Notifications and other lines stay available in `lines`/`messages()`.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = `${REPO_ROOT}bin/mcp-prism.js`;

export type JsonRpcMessage = {
  jsonrpc: "2.0";
  id?: string | number | null;
  method?: string;
  params?: any;
  result?: any;
  error?: { code: number; message: string; data?: any };
};

/** The modern per-request `_meta` envelope (2026-07-28 keys). */
export function modernMeta(
  version = "2026-12-01",
  capabilities: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  return {
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientInfo": { name: "raw-test", version: "0.0.0" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    ...extra,
  };
}
/** Client capabilities advertising the MCP Apps extension. */
export const APPS_CAPS = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };

export interface RawStdio {
  child: ChildProcessWithoutNullStreams;
  /** Every stdout line, unparsed, in arrival order. */
  lines: string[];
  /** Writes one message (an object is JSON-encoded; a string is written as is) plus a newline. */
  send(message: object | string): void;
  /** Sends a request with a fresh id; resolves with the response of that id and its raw line. */
  request(
    method: string,
    params?: unknown,
    opts?: { id?: string | number; timeoutMs?: number },
  ): Promise<{ msg: JsonRpcMessage; raw: string }>;
  /** Resolves with the first line (from index `fromLine`, default 0: already received or future) whose parsed message matches. */
  waitFor(
    match: (m: JsonRpcMessage) => boolean,
    timeoutMs?: number,
    fromLine?: number,
  ): Promise<{ msg: JsonRpcMessage; raw: string }>;
  /** Parsed messages received so far. */
  messages(): JsonRpcMessage[];
  stderr(): string;
  /** Ends stdin, waits for the exit (SIGKILL after 2 s). Safe to call twice. */
  close(): Promise<void>;
}

export function spawnStdio(args: string[] = ["demo-server"], command: string[] = [process.execPath, CLI]): RawStdio {
  const child = spawn(command[0], [...command.slice(1), ...args], { cwd: REPO_ROOT, stdio: ["pipe", "pipe", "pipe"] });
  const lines: string[] = [];
  let err = "";
  let pending = "";
  const waiters = new Set<() => void>();
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf("\n")) >= 0) {
      lines.push(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
    }
    for (const w of waiters) w();
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (c: string) => (err += c));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let nextId = 1;

  const parse = (raw: string): JsonRpcMessage | undefined => {
    try {
      return JSON.parse(raw) as JsonRpcMessage;
    } catch {
      return undefined;
    }
  };

  const waitFor: RawStdio["waitFor"] = (match, timeoutMs = 10_000, fromLine = 0) =>
    new Promise((resolve, reject) => {
      let seen = fromLine;
      const check = () => {
        for (; seen < lines.length; seen++) {
          const msg = parse(lines[seen]);
          if (msg && match(msg)) {
            cleanup();
            resolve({ msg, raw: lines[seen] });
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`raw-stdio: no matching message within ${timeoutMs} ms; stderr: ${err.slice(-500)}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  return {
    child,
    lines,
    send(message) {
      child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
    },
    request(method, params, opts = {}) {
      const id = opts.id ?? nextId++;
      const msg: JsonRpcMessage = { jsonrpc: "2.0", id, method };
      if (params !== undefined) msg.params = params;
      const from = lines.length; // only a response that arrives after this request counts
      this.send(msg);
      return waitFor((m) => m.id === id && (m.result !== undefined || m.error !== undefined), opts.timeoutMs, from);
    },
    waitFor,
    messages: () => lines.map(parse).filter((m): m is JsonRpcMessage => m !== undefined),
    stderr: () => err,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
