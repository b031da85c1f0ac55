// mcp-prism login SERVER: signs in to an HTTP server now (OAuth in the browser, the URL also on
// stderr), its tokens kept under $XDG_STATE_HOME/mcp-prism/auth/ for the next runs.
// mcp-prism logout SERVER: forgets that server's tokens, client registrations and discovery.
import { exitCode } from "../../protocol/rules.js";
import { parseCli, UsageError, withUsage } from "../args.js";
import { serverConfig } from "../../host/config/config.js";
import { SignIns } from "../../host/auth/sign-ins.js";
import { sanitizeName } from "../../protocol/sanitize.js";
import { commandConfig, openHost, StartError } from "../start-host.js";
import { err, out } from "../output/terminal.js";

async function serverNamed(argv: string[], command: string) {
  const cli = parseCli(argv, {}, { positionals: [0, 1] });
  const name = cli.positionals[0];
  if (!name) throw new UsageError("missing the server name");
  const config = await commandConfig(cli.common);
  const cfg = serverConfig(config, name);
  if (!cfg)
    throw new StartError(
      "unknown-server",
      `no server named ${JSON.stringify(name)} in ${config.source} (have: ${Object.keys(config.servers).join(", ")})`,
    );
  if (cfg.kind !== "http")
    throw new StartError(
      "not-http",
      `is not an HTTP server: there is nothing to ${command === "login" ? "sign in to" : "sign out of"}`,
      name,
    );
  return { cli, name, config };
}

export async function run(argv: string[]): Promise<number> {
  return withUsage("login", async () => {
    try {
      const { cli, name, config } = await serverNamed(argv, "login");
      const host = openHost({ ...cli.common, server: name }, { config, signIn: { interactive: false } });
      try {
        await host.settled(Number.POSITIVE_INFINITY); // the connect with what is stored, first
        const done = await host.login(name);
        const tools = (await host.tools()).length;
        out(
          done === "signed-in"
            ? `signed in to ${sanitizeName(name)} (${tools} tools)\n`
            : `${sanitizeName(name)} did not ask for sign-in (${tools} tools)\n`,
        );
        return 0;
      } finally {
        await host.close();
      }
    } catch (e) {
      if (!(e instanceof StartError) && !(e instanceof Error && e.name === "ConnectionError")) throw e;
      err(`mcp-prism login: ${e.message}\n`);
      return e instanceof StartError ? exitCode(e.rule) : 1;
    }
  });
}

export async function runLogout(argv: string[]): Promise<number> {
  return withUsage("logout", async () => {
    try {
      const { name, config } = await serverNamed(argv, "logout");
      const had = new SignIns(config, [name]).logout(name);
      out(
        had
          ? `signed out of ${sanitizeName(name)}: its tokens and registrations are forgotten\n`
          : `nothing was stored for ${sanitizeName(name)}\n`,
      );
      return 0;
    } catch (e) {
      if (!(e instanceof StartError)) throw e;
      err(`mcp-prism logout: ${e.message}\n`);
      return exitCode(e.rule);
    }
  });
}
