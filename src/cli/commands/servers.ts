// mcp-prism servers list | add NAME -- COMMAND [ARGS...] | add NAME --url URL | remove NAME [--config FILE]
// Edits the user config file ($XDG_CONFIG_HOME/mcp-prism/config.json, or --config FILE) in place:
// only `mcpServers` changes; every other key, and the order of all of them, stays as it was. The
// edited text is parsed as a config before it replaces the file (a write that would break it is
// refused), and it is written whole: a temporary file renamed over the old one, mode 0600.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ConfigError, parseConfig, userConfigPath } from "../../host/config/config.js";
import { isObject } from "../../protocol/is-object.js";
import { didYouMean } from "../../protocol/suggest.js";
import { parseOptions, UsageError, withUsage } from "../args.js";
import { err, out } from "../output/terminal.js";

type Json = Record<string, unknown>;

/** The file's JSON object ({} when it does not exist yet). */
function readRaw(path: string): Json {
  if (!existsSync(path)) return {};
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new ConfigError(`${path}: not valid JSON (${(e as Error).message.split("\n")[0]})`);
  }
  if (!isObject(value)) throw new ConfigError(`${path}: expected a JSON object`);
  return value;
}

function servers(raw: Json, path: string): Json {
  const s = raw.mcpServers ?? {};
  if (!isObject(s)) throw new ConfigError(`${path}: mcpServers: expected an object`);
  return s;
}

function writeRaw(path: string, raw: Json): void {
  const text = JSON.stringify(raw, null, 2) + "\n";
  parseConfig(text, path); // throws ConfigError naming the key: nothing is written then
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const mode = existsSync(path) ? statSync(path).mode & 0o777 : 0o600;
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  renameSync(tmp, path);
}

function describe(entry: unknown): string {
  if (!isObject(entry)) return "(not an object)";
  if (typeof entry.url === "string") return entry.url;
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  return [String(entry.command ?? "?"), ...args].join(" ");
}

/** `--env KEY=VALUE` (repeatable) as the entry's `env`; a malformed one is a usage error. */
function envOf(values: unknown): Record<string, string> | undefined {
  if (values === undefined) return undefined;
  const env: Record<string, string> = Object.create(null);
  for (const v of values as string[]) {
    const eq = v.indexOf("=");
    if (eq <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v.slice(0, eq)))
      throw new UsageError(`--env takes KEY=VALUE with KEY a variable name (got ${JSON.stringify(v.slice(0, 60))})`);
    env[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return { ...env };
}

export async function run(argv: string[]): Promise<number> {
  return withUsage("servers", async () => {
    const dash = argv.indexOf("--");
    const own = dash < 0 ? argv : argv.slice(0, dash);
    const command = dash < 0 ? [] : argv.slice(dash + 1);
    const { values, positionals } = parseOptions(own, {
      config: { type: "string" },
      url: { type: "string" },
      json: { type: "boolean" },
      env: { type: "string", multiple: true },
    });
    const env = envOf(values.env);
    const path = typeof values.config === "string" ? values.config : userConfigPath();
    const [action, name, ...extra] = positionals;
    if (extra.length) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    const actions = ["list", "add", "remove"];
    if (!actions.includes(action ?? "")) {
      throw new UsageError(
        action === undefined
          ? "expected list, add or remove"
          : `unknown action ${JSON.stringify(action)}${didYouMean(action, actions)}`,
      );
    }
    try {
      const raw = readRaw(path);
      const list = servers(raw, path);
      if (action === "list") {
        if (values.json === true) out(JSON.stringify({ file: path, mcpServers: list }) + "\n");
        else if (Object.keys(list).length === 0) out(`no servers in ${path}\n`);
        else for (const [n, entry] of Object.entries(list)) out(`${n}  ${describe(entry)}\n`);
        return 0;
      }
      if (!name) throw new UsageError(`${action} needs a server NAME`);
      if (action === "remove") {
        if (!Object.hasOwn(list, name))
          throw new UsageError(
            `no server named ${JSON.stringify(name)} in ${path}${didYouMean(name, Object.keys(list))}`,
          );
        delete list[name];
        writeRaw(path, { ...raw, mcpServers: list });
        out(`removed ${name} from ${path}\n`);
        return 0;
      }
      // Own properties only: `constructor`, `toString`, `__proto__` are names like any other.
      if (Object.hasOwn(list, name))
        throw new UsageError(`a server named ${JSON.stringify(name)} is in ${path} already (remove it first)`);
      const url = typeof values.url === "string" ? values.url : undefined;
      if ((url === undefined) === (command.length === 0))
        throw new UsageError("add NAME needs either -- COMMAND [ARGS...] or --url URL");
      if (env && url !== undefined)
        throw new UsageError("--env sets a stdio server's environment: it goes with -- COMMAND, not --url");
      // defineProperty: a plain assignment to `__proto__` would set the prototype, not add a server.
      Object.defineProperty(list, name, {
        value: url !== undefined ? { url } : { command: command[0], args: command.slice(1), ...(env ? { env } : {}) },
        enumerable: true,
        writable: true,
        configurable: true,
      });
      // mcpServers keeps its place in the file; a new file starts with it.
      writeRaw(path, Object.hasOwn(raw, "mcpServers") ? { ...raw, mcpServers: list } : { mcpServers: list, ...raw });
      out(`added ${name} to ${path}: ${describe(list[name])}\n`);
      return 0;
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      err(`mcp-prism servers: ${e.message}\n`);
      return 1;
    }
  });
}
