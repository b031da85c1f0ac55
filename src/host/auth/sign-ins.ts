// The host's sign-ins: one ServerAuth per HTTP server (given to its transports through the
// TransportContext), the connect or call that signs in when the server answered 401/403 and
// sign-in is interactive (outside any request's timeout: a person may take minutes), and the
// login / logout commands.
import { ConnectionError, type Connection } from "../connection/connection.js";
import type { HostConfig } from "../config/config.js";
import { HttpStatusError } from "../connection/http-transport.js";
import { defaultTransport, httpStatusOf, type TransportFactory } from "../connection/transport-factory.js";
import { openBrowser } from "../browser.js";
import { ServerAuth, type SignInOptions } from "./server-auth.js";
import { AuthStore } from "./store.js";

export interface SignInSettings extends Partial<SignInOptions> {
  /** Where tokens and registrations are kept (default: $XDG_STATE_HOME/mcp-prism/auth). */
  store?: AuthStore;
}

export class SignIns {
  private readonly auths = new Map<string, ServerAuth>();
  private active = 0;
  /** A browser sign-in is under way (a one-shot command waits for it beyond connectWaitMs). */
  get signingIn(): boolean {
    return this.active > 0;
  }

  constructor(config: HostConfig, names: string[], settings: SignInSettings = {}) {
    const store = settings.store ?? AuthStore.fromEnv();
    const options: SignInOptions = {
      interactive: settings.interactive ?? false,
      showUrl:
        settings.showUrl ??
        ((server, url) =>
          void process.stderr.write(
            `mcp-prism: sign in to ${server} in your browser; if it did not open, open:\n  ${url}\n`,
          )),
      openBrowser: settings.openBrowser ?? ((url) => void openBrowser(url)),
      timeoutMs: settings.timeoutMs ?? config.limits.signInTimeoutMs,
      confirmIssuer: settings.confirmIssuer,
    };
    for (const name of names) {
      const cfg = config.servers[name];
      if (cfg?.kind === "http") this.auths.set(name, new ServerAuth(name, cfg.url, cfg.auth ?? {}, store, options));
    }
  }

  /** The factory with each HTTP server's sign-in in its context. */
  transport(inner: TransportFactory = defaultTransport): TransportFactory {
    return (config, ctx) => inner(config, { ...ctx, auth: this.auths.get(ctx.name) });
  }

  /**
   * Runs `run` (a connect and listing, or a tool call), and once more after signing in when it
   * failed on the server's 401/403 and sign-in is interactive: outside any request's timeout, as a
   * person may take minutes in the browser (limits.signInTimeoutMs bounds the wait).
   */
  async withSignIn<T>(conn: Connection | undefined, name: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      const auth = this.auths.get(name);
      if (!isAuthFailure(e) || !auth?.canSignIn()) throw e;
      this.active++;
      try {
        await auth.signIn();
      } catch (s) {
        const failed = new ConnectionError("auth-required", name, `sign-in failed: ${line(s)}`);
        if (conn) conn.lastFailure = { rule: failed.rule, detail: failed.detail };
        throw failed;
      } finally {
        this.active--;
      }
      return run();
    }
  }

  /**
   * Signs in to the server now: its tokens forgotten, the connection opened again with sign-in
   * interactive. "not-needed" when the server let it in without asking.
   */
  async login(
    conn: Connection | undefined,
    name: string,
    showUrl: ((url: string) => void) | undefined,
    relist: () => Promise<unknown>,
  ): Promise<"signed-in" | "not-needed"> {
    if (!conn) throw new ConnectionError("unknown-server", "", `no server named ${JSON.stringify(name)}`);
    const auth = this.auths.get(name);
    if (!auth) throw new ConnectionError("not-http", name, "is not an HTTP server: there is nothing to sign in to");
    auth.forgetTokens();
    await conn.close();
    const before = auth.completed;
    auth.forceInteractive = true;
    auth.urlShown = showUrl;
    try {
      await relist(); // connects through withSignIn (the host's listing), signing in
    } finally {
      auth.forceInteractive = false;
      auth.urlShown = undefined;
    }
    return auth.completed > before ? "signed-in" : "not-needed";
  }

  /** Forgets the server's tokens, registrations and discovery. True when something was stored. */
  logout(name: string): boolean {
    const auth = this.auths.get(name);
    if (!auth) throw new ConnectionError("not-http", name, "is not an HTTP server: there is nothing to sign out of");
    return auth.logout();
  }
}

/** A connect refused with 401/403, or a request answered so. */
const isAuthFailure = (e: unknown) => {
  if (e instanceof ConnectionError) return e.rule === "auth-required";
  const status = e instanceof HttpStatusError ? e.status : httpStatusOf(e); // modern, legacy
  return status === 401 || status === 403;
};
const line = (e: unknown) => (e instanceof Error ? e.message : String(e)).replace(/\s+/g, " ").slice(0, 300);
