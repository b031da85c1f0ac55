// /login SERVER: signs in to an HTTP server now (OAuth in the browser; the URL shown here too, for
// a session over SSH). It runs beside the conversation: prompts go on with the other servers, and
// a notice says when the sign-in ended; the status bar shows the server connected (or why not).
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { CommandError, type SlashCommand } from "./types.js";

export const login: SlashCommand = {
  name: "login",
  usage: "/login SERVER",
  description: "sign in to an HTTP server (OAuth in the browser); the other servers keep working meanwhile",
  run(args, ctx) {
    const server = args.trim();
    if (!server) throw new CommandError("/login: name the server to sign in to (/servers lists them)");
    if (!ctx.host.servers().some((s) => s.name === server))
      throw new CommandError(`/login: no server named ${sanitizeName(server)}`);
    if (!ctx.host.login) throw new CommandError("/login: this host has no sign-in");
    const name = sanitizeName(server);
    ctx.store.notice(`signing in to ${name}: a browser opens; prompts keep working with the other servers`);
    ctx.host
      .login(server, (url) =>
        ctx.store.notice(`sign in to ${name} in your browser; if it did not open, open:\n  ${sanitizeInline(url)}`),
      )
      .then(
        (done) => ctx.store.notice(done === "signed-in" ? `signed in to ${name}` : `${name} did not ask for sign-in`),
        (e: unknown) =>
          ctx.store.notice(
            `/login ${name}: ${sanitizeInline(e instanceof Error ? e.message : String(e)).slice(0, 400)}`,
            "error",
          ),
      );
  },
};
