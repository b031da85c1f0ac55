// Runs a client command against each scenario, the official suite's way: the scenario server's
// URL appended to the command line (HTTP), and everything in the environment —
// MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION, MCP_CONFORMANCE_CONTEXT (JSON), the
// server as MCP_CONFORMANCE_SERVER_URL or MCP_CONFORMANCE_SERVER_COMMAND (a JSON argv), and the
// scripted model as MCP_CONFORMANCE_MODEL_URL, OPENAI_BASE_URL and ANTHROPIC_BASE_URL with dummy
// keys in place of the user's (a real key never goes to the fake endpoint).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveHttp } from "../../server/index.js";
import type { ScenarioRun, Transport } from "./checks.js";
import { FAKE_MODEL_ID, FakeModel } from "./fake-model.js";
import { CLIENT_PROTOCOL_VERSION, canaries, type ClientScenario, type Observation } from "./scenarios.js";

export const DUMMY_KEY = "conformance-dummy-key";
/** The client's output kept for the report (its tail). */
const OUTPUT_TAIL = 4000;
const MAX_LOG_BYTES = 16 * 1024 * 1024;
const MAX_OBSERVATIONS = 10_000;
/** Grace between SIGTERM and SIGKILL of a client that overran its time. */
const KILL_GRACE_MS = 3000;

export interface RunOptions {
  command: string[];
  timeoutMs: number;
  /** The argv that serves scenario NAME on stdio, writing what it sees to LOG as JSON Lines. */
  stdioServer(name: string, seed: string, log: string): string[];
}

/** The environment a client command runs with (its own, minus model keys, plus the scenario's). */
export function clientEnv(
  base: NodeJS.ProcessEnv,
  scenario: ClientScenario,
  transport: Transport,
  server: { url: string } | { command: string[] },
  modelUrl: string,
): NodeJS.ProcessEnv {
  const context = {
    name: scenario.name,
    transport,
    protocolVersion: CLIENT_PROTOCOL_VERSION,
    ...("url" in server ? { serverUrl: server.url } : { serverCommand: server.command }),
    modelBaseUrl: `${modelUrl}/v1`,
    anthropicBaseUrl: modelUrl,
    model: FAKE_MODEL_ID,
    prompt: scenario.prompt,
  };
  const env: NodeJS.ProcessEnv = { ...base };
  for (const k of Object.keys(env))
    if (/^(OPENAI|ANTHROPIC|OPENROUTER|AZURE_OPENAI)_/.test(k) || k === "MCP_CONFORMANCE_SERVER_URL") delete env[k];
  return {
    ...env,
    MCP_CONFORMANCE_SCENARIO: scenario.name,
    MCP_CONFORMANCE_PROTOCOL_VERSION: CLIENT_PROTOCOL_VERSION,
    MCP_CONFORMANCE_CONTEXT: JSON.stringify(context),
    ...("url" in server
      ? { MCP_CONFORMANCE_SERVER_URL: server.url }
      : { MCP_CONFORMANCE_SERVER_COMMAND: JSON.stringify(server.command) }),
    MCP_CONFORMANCE_MODEL_URL: `${modelUrl}/v1`,
    MCP_CONFORMANCE_PROMPT: scenario.prompt,
    OPENAI_BASE_URL: `${modelUrl}/v1`,
    OPENAI_API_KEY: DUMMY_KEY,
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: DUMMY_KEY,
  };
}

/** Reads a scenario server's JSON Lines log (bounded; a line that is not an observation is skipped). */
export function readObservations(file: string): Observation[] {
  let text: string;
  try {
    if (statSync(file).size > MAX_LOG_BYTES) return [];
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const out: Observation[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim() || out.length >= MAX_OBSERVATIONS) continue;
    try {
      const o = JSON.parse(line) as Observation;
      if (o && typeof o === "object" && typeof o.kind === "string") out.push(o);
    } catch {
      // a torn last line of a killed server
    }
  }
  return out;
}

/** One run: the scripted model and the scenario server up, the client command to its end (or time limit). */
export async function runScenario(scenario: ClientScenario, transport: Transport, o: RunOptions): Promise<ScenarioRun> {
  const seed = randomBytes(16).toString("hex");
  const c = canaries(seed);
  const observations: Observation[] = [];
  // The server in this process: for HTTP it serves; for stdio it only says what it advertises.
  const local = scenario.server(c, (ob) => {
    if (observations.length < MAX_OBSERVATIONS) observations.push(ob);
  });
  const serverExtensions = Object.keys(local.capabilities.extensions ?? {});
  const model = await new FakeModel({ tool: scenario.tool, args: scenario.args }).start();
  let dir: string | undefined;
  let http: Awaited<ReturnType<typeof serveHttp>> | undefined;
  try {
    let server: { url: string } | { command: string[] };
    let log: string | undefined;
    if (transport === "http") {
      http = await serveHttp(local, { port: 0 });
      server = { url: http.url };
    } else {
      dir = mkdtempSync(join(tmpdir(), "mcp-prism-check-client-"));
      log = join(dir, "observations.jsonl");
      server = { command: o.stdioServer(scenario.name, seed, log) };
    }
    const env = clientEnv(process.env, scenario, transport, server, model.url);
    const argv = [...o.command.slice(1), ...("url" in server ? [server.url] : [])];
    const exit = await runClient(o.command[0], argv, env, o.timeoutMs);
    if (log) observations.push(...readObservations(log));
    return { scenario, transport, canaries: c, serverExtensions, observations, model: model.requests, exit };
  } finally {
    await http?.close();
    await model.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

function runClient(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<ScenarioRun["exit"]> {
  return new Promise((resolve) => {
    let output = "";
    const keep = (b: Buffer) => {
      output = (output + b.toString("utf8")).slice(-OUTPUT_TAIL);
    };
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const group = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    // ^C or SIGTERM to check-client: the client's group (its own, detached) goes too.
    const onSignal = (signal: NodeJS.Signals) => {
      group("SIGKILL");
      process.exit(signal === "SIGINT" ? 130 : 143);
    };
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    let timedOut = false;
    let killer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      group("SIGTERM");
      killer = setTimeout(() => group("SIGKILL"), KILL_GRACE_MS);
    }, timeoutMs);
    const done = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      if (killer) clearTimeout(killer);
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      group("SIGKILL"); // whatever the client left behind in its group
      resolve({ code, signal, timedOut, output });
    };
    child.once("error", (e) => {
      output += `\n${e.message}`;
      done(null, null);
    });
    // "exit", not "close": a grandchild holding the pipes open must not hold the run.
    child.once("exit", done);
  });
}
