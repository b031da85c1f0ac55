// The config every command runs with, asking first about a directory's ./mcp-prism.json the user
// has not answered for: before anything from it runs (no server spawned, no model request), on
// the terminal (stderr, a line read from stdin), before the chat app draws. Without a terminal the
// UntrustedConfigError stands: the command is refused with its one line. Small and builtin-only:
// the chat app's first-frame code runs it.
import { ConfigTrust } from "../host/config/config-trust.js";
import { loadConfig, UntrustedConfigError, type HostConfig, type ServerConfig } from "../host/config/config.js";
import { sanitizeInline, truncateChars } from "../protocol/sanitize.js";

export interface AskStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface ResolveOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  trust?: ConfigTrust;
  /** Where to ask (default stdin/stderr); asked only when both are terminals. */
  io?: AskStreams;
}

/** loadConfig, with the trust question asked when a terminal is there to answer it. Throws ConfigError. */
export async function resolveConfig(explicit: string | undefined, o: ResolveOptions = {}): Promise<HostConfig> {
  const env = o.env ?? process.env;
  const cwd = o.cwd ?? process.cwd();
  const trust = o.trust ?? ConfigTrust.fromEnv(env);
  try {
    return loadConfig(explicit, env, cwd, trust);
  } catch (e) {
    const io = o.io ?? { input: process.stdin, output: process.stderr };
    if (!(e instanceof UntrustedConfigError) || !io.input.isTTY || !io.output.isTTY) throw e;
    io.output.write(trustQuestion(e));
    const yes = /^\s*y(es)?\s*$/i.test(await readLine(io.input));
    const unsaved = trust.remember(e.file, e.sha256, yes ? "trusted" : "declined");
    // Declined: the lookup goes on past it (the user's own config, else the built-in default).
    const config = yes ? e.config : loadConfig(explicit, env, cwd, trust);
    const notices = [
      ...(yes ? [`using ${e.file} (trusted)`] : []),
      ...(config.notices ?? []),
      ...(unsaved ? [unsaved] : []),
    ];
    return { ...config, notices };
  }
}

const MAX_SHOWN_SERVERS = 20;
const MAX_LINE = 2000;

/** What trusting the file means: every command it runs and every endpoint it names, sanitized. */
export function trustQuestion(e: UntrustedConfigError): string {
  const c = e.config;
  const names = Object.keys(c.servers);
  const line = (s: string) => `  ${truncateChars(sanitizeInline(s), MAX_LINE)}\n`;
  let text = `mcp-prism: ${sanitizeInline(e.file)} is a config found in this directory. Trusting it runs:\n`;
  for (const name of names.slice(0, MAX_SHOWN_SERVERS)) text += line(`${name}: ${describeServer(c.servers[name])}`);
  if (names.length > MAX_SHOWN_SERVERS)
    text += `  … and ${names.length - MAX_SHOWN_SERVERS} more servers (read the file)\n`;
  const model = c.model;
  const baseURL =
    typeof model === "object" && model !== null && typeof model.baseURL === "string" ? model.baseURL : undefined;
  if (baseURL !== undefined) text += line(`model endpoint: ${baseURL} (it would receive ANTHROPIC_API_KEY)`);
  return text + "Trust this file? The answer is remembered until the file changes. [y/N] ";
}

function describeServer(s: ServerConfig): string {
  if (s.kind === "http") return s.url;
  const argv = [s.command, ...s.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
  const env = Object.keys(s.env ?? {});
  return argv + (s.cwd ? ` (in ${s.cwd})` : "") + (env.length ? ` with ${env.join(", ")} set` : "");
}

/** One line from a terminal in cooked mode (the terminal echoes and edits it); "" at end of input. */
function readLine(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let got = "";
    const done = (answer: string) => {
      input.off("data", onData);
      input.off("end", onEnd);
      input.pause(); // the app's Ink takes stdin over from here
      resolve(answer);
    };
    const onData = (chunk: Buffer | string) => {
      got += chunk.toString();
      const nl = got.indexOf("\n");
      if (nl !== -1 || got.length > 1000) done(nl === -1 ? got : got.slice(0, nl));
    };
    const onEnd = () => done(got);
    input.on("data", onData);
    input.once("end", onEnd);
    input.resume();
  });
}
