// One HTTP server's sign-in, shared by its modern and legacy transports: the bearer header for
// each request (refreshing an expired token first), and what to do after a 401 or a 403
// `insufficient_scope` (the SDK's auth(): discovery, registration or a client ID metadata
// document, PKCE, the code exchange, refresh) before the transport sends the request once more.
// Flows are shared by concurrent requests; a step-up asks for the scopes already granted plus
// the challenged ones, and a challenge for scopes already granted is not authorized again.
import { randomBytes } from "node:crypto";
import { auth, discoverOAuthServerInfo, extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { AuthConfig } from "./auth-config.js";
import { CALLBACK_PATH, listenLoopback, SignInError, signInUrlProblem } from "./loopback.js";
import { sameIssuer, StoredProvider, type FlowHooks } from "./provider.js";
import type { AuthRecord, AuthStore } from "./store.js";

/** What an HTTP transport asks of a server's sign-in. */
export interface HttpAuth {
  headers(): Promise<Record<string, string>>;
  /** After a 401/403: send the request again (once), or why not. */
  challenged(status: number, wwwAuthenticate: string | undefined): Promise<{ retry: boolean; why?: string }>;
}

export interface SignInOptions {
  /** Run the browser sign-in when a server asks for it (the CLI); false: only `login` does (the app). */
  interactive: boolean;
  /** Shows the authorization URL to the user (always: it works over SSH). */
  showUrl: (server: string, url: string) => void;
  /** Opens the URL in a browser. */
  openBrowser: (url: string) => void;
  /** How long the redirect listener waits for the browser. */
  timeoutMs: number;
  /** Asks the person before the configured client first goes to an issuer on another origin (absent: refused). */
  confirmIssuer?: (q: IssuerQuestion) => Promise<boolean>;
}

/** The question before a configured client's first use with an issuer `auth.issuer` does not name. */
export interface IssuerQuestion {
  server: string;
  /** The issuer as configured discovery found it, and its host as the browser reads it (punycode). */
  issuer: string;
  host: string;
  clientId: string;
  /** A client secret would go too. */
  secret: boolean;
}

/** The question as one plain prompt (the CLI's confirm; the app draws it in its dialog). */
export function issuerQuestionText(q: IssuerQuestion): string {
  const what = q.secret ? "client id and secret" : "client id";
  return `server ${q.server}: its authorization server is ${printable(q.issuer)}\nhost: ${printable(q.host)}\nSend the configured ${what} (auth.clientId ${printable(q.clientId)}) there? (remembered for this issuer; "auth": {"issuer": …} in the config says it for good)`;
}

/** Step-ups per server per session: past this, a 403 is the answer. */
const MAX_STEP_UPS = 3;
/** Each OAuth HTTP request (metadata, registration, token) gets this long, and a reply this many bytes. */
const OAUTH_FETCH_MS = 30_000;
const MAX_OAUTH_REPLY = 1024 * 1024;
const NULL_BODY = new Set([101, 204, 205, 304]);

/** fetch for the SDK's OAuth requests, bounded in time and reply size (the servers are untrusted). */
const boundedFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(OAUTH_FETCH_MS) });
  if (!res.body) return res;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_OAUTH_REPLY)
      throw new SignInError(
        `an OAuth reply from ${new URL(String(input instanceof Request ? input.url : input)).origin} is over ${MAX_OAUTH_REPLY} bytes`,
      );
    chunks.push(chunk);
  }
  return new Response(NULL_BODY.has(res.status) ? null : Buffer.concat(chunks), {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
};

const NEEDED = "sign-in needed";
const REFRESH_BACKOFF_MS = 30_000;
const scopeSet = (s: string | undefined) => new Set((s ?? "").split(" ").filter(Boolean));

export class ServerAuth implements HttpAuth {
  private record: AuthRecord;
  private flow: Promise<void> | undefined;
  /** The last challenge not yet answered by a sign-in. */
  private pending: { resourceMetadataUrl?: URL; scope?: string; stepUp?: boolean } | undefined;
  private stepUps = 0;
  /** The scope of the last authorization asked for (a 403 for no more than this is final). */
  private asked: Set<string> | undefined;
  /** Authorizations completed in this process (login checks the server asked for one). */
  completed = 0;
  /** When a refresh before a request last failed (the next is tried only after REFRESH_BACKOFF_MS). */
  private refreshFailedAt = 0;
  /** Set by login: sign in even when the options say not to. */
  forceInteractive = false;
  /** Set by login: where the authorization URL is shown instead of options.showUrl. */
  urlShown: ((url: string) => void) | undefined;

  constructor(
    readonly server: string,
    readonly url: string,
    private readonly config: AuthConfig,
    private readonly store: AuthStore,
    readonly options: SignInOptions,
  ) {
    this.record = store.read(server, url);
  }

  private save = () => this.store.write(this.server, this.url, this.record);

  private current(): { tokens: OAuthTokens; savedAt?: number } | undefined {
    const e = this.record.issuer !== undefined ? this.record.issuers[this.record.issuer] : undefined;
    return e?.tokens ? { tokens: e.tokens, savedAt: e.savedAt } : undefined;
  }

  async headers(): Promise<Record<string, string>> {
    if (this.flow) await this.flow.catch(() => {});
    let now = this.current();
    if (
      now &&
      expired(now.tokens, now.savedAt) &&
      now.tokens.refresh_token &&
      Date.now() - this.refreshFailedAt > REFRESH_BACKOFF_MS
    ) {
      // A failed refresh keeps the tokens (an outage is no reason to forget them; a refused refresh
      // token was dropped by auth() itself): the server's 401 then says what is needed.
      await this.share(() => this.authorize({ interactive: false, refreshOnly: true })).catch(
        () => void (this.refreshFailedAt = Date.now()),
      );
      now = this.current();
    }
    return now ? { authorization: `Bearer ${now.tokens.access_token}` } : {};
  }

  /**
   * Answered inline only by a refresh (quick, no person involved). A browser sign-in — after a 401
   * without a usable refresh token, or a 403 `insufficient_scope` step-up — is left pending: the
   * host runs it (`signIn`, see sign-ins.ts) after the request failed, outside the request's
   * timeout (a person may take minutes; limits.signInTimeoutMs bounds them), then sends it again.
   */
  async challenged(status: number, wwwAuthenticate: string | undefined): Promise<{ retry: boolean; why?: string }> {
    const params = extractWWWAuthenticateParams(
      new Response(null, { headers: wwwAuthenticate ? { "www-authenticate": wwwAuthenticate } : {} }),
    );
    if (status === 403 && params.error !== "insufficient_scope") return this.final();
    const prior = scopeSet(this.current()?.tokens.scope);
    for (const s of this.asked ?? []) prior.add(s);
    for (const s of scopeSet(this.pending?.scope)) prior.add(s); // a step-up not signed in yet
    const wanted = new Set([...prior, ...scopeSet(params.scope)]);
    const pending = {
      resourceMetadataUrl: params.resourceMetadataUrl,
      scope: wanted.size > 0 ? [...wanted].join(" ") : undefined,
    };
    if (status === 403) {
      if ([...wanted].every((s) => this.asked?.has(s)))
        return this.final("the server refuses the scopes it was granted");
      if (++this.stepUps > MAX_STEP_UPS) return this.final(`no more than ${MAX_STEP_UPS} step-up sign-ins per session`);
      this.pending = { ...pending, stepUp: true }; // the tokens stay for what they allow meanwhile
      return { retry: false };
    }
    this.pending = pending;
    if (!this.current()?.tokens.refresh_token) return { retry: false };
    return this.attempt(() => this.authorize({ ...pending, interactive: false }));
  }

  /** A refusal no sign-in can pass: nothing pending. */
  private final(why?: string): { retry: false; why?: string } {
    this.pending = undefined;
    return { retry: false, why };
  }

  private get interactive(): boolean {
    return this.options.interactive || this.forceInteractive;
  }

  /** Whether the host should run `signIn` for a server whose connect ended in a 401/403. */
  canSignIn(): boolean {
    return this.interactive && this.pending !== undefined;
  }

  /** The browser sign-in for the last challenge (or plain discovery when there was none). */
  signIn(): Promise<void> {
    const { stepUp, ...pending } = this.pending ?? {};
    if (stepUp) this.forgetTokens(); // a refresh keeps the old scopes: a step-up is a new authorization
    return this.share(() => this.authorize({ ...pending, interactive: true })).then(
      () => void (this.pending = undefined),
      (e: unknown) => {
        throw new SignInError(this.redact(oneLine(e)));
      },
    );
  }

  /** A failure's text without any stored token or secret (a server's error body may echo one). */
  private redact(text: string): string {
    const secrets = Object.values(this.record.issuers).flatMap((e) => [
      e.tokens?.access_token,
      e.tokens?.refresh_token,
      e.client?.client_secret,
    ]);
    secrets.push(this.config.clientSecret);
    let out = text;
    for (const s of secrets) if (s && s.length >= 8) out = out.split(s).join("[redacted]");
    return out;
  }

  private async attempt(run: () => Promise<void>): Promise<{ retry: boolean; why?: string }> {
    try {
      await this.share(run);
      return { retry: true };
    } catch (e) {
      return {
        retry: false,
        why: e instanceof SignInError && e.message === NEEDED ? undefined : this.redact(oneLine(e)),
      };
    }
  }

  /** Forgets this server's tokens (the client registrations stay). */
  forgetTokens(): void {
    for (const e of Object.values(this.record.issuers)) {
      delete e.tokens;
      delete e.savedAt;
    }
    this.save();
  }

  /** Forgets everything stored for this server. */
  logout(): boolean {
    this.record = { url: this.url, issuers: Object.create(null) };
    this.asked = undefined;
    return this.store.remove(this.server, this.url);
  }

  private share(run: () => Promise<void>): Promise<void> {
    this.flow ??= run().finally(() => (this.flow = undefined));
    return this.flow;
  }

  private async authorize(opts: {
    resourceMetadataUrl?: URL;
    scope?: string;
    interactive: boolean;
    refreshOnly?: boolean;
  }): Promise<void> {
    const interactive = opts.interactive;
    if (!interactive && !this.current()?.tokens.refresh_token) throw new SignInError(NEEDED);
    const state = randomBytes(24).toString("base64url");
    const registered = this.storedRedirect();
    const listener = interactive ? await listenLoopback(registered?.port, this.options.timeoutMs) : undefined;
    let authorizationUrl: URL | undefined;
    const hooks: FlowHooks = {
      redirectUrl: listener?.redirectUrl ?? registered?.url ?? `http://127.0.0.1${CALLBACK_PATH}`,
      state,
      metadata: { application_type: "native" },
      confirmIssuer: this.options.confirmIssuer
        ? (issuer) => {
            let host = "?";
            try {
              host = new URL(issuer).host;
            } catch {}
            return (this.options.confirmIssuer as NonNullable<SignInOptions["confirmIssuer"]>)({
              server: this.server,
              issuer,
              host,
              clientId: this.config.clientId ?? "",
              secret: this.config.clientSecret !== undefined,
            });
          }
        : undefined,
      redirect: (url) => {
        if (!interactive) throw new SignInError(NEEDED);
        const problem = signInUrlProblem(url);
        if (problem) throw new SignInError(`${problem}: not opened`);
        authorizationUrl = url;
        if (this.urlShown) this.urlShown(url.href);
        else this.options.showUrl(this.server, url.href);
        this.options.openBrowser(url.href);
      },
    };
    const provider = new StoredProvider(this.record, this.save, this.config, hooks);
    try {
      let scope = opts.scope;
      if (!opts.refreshOnly) {
        // Discovery afresh after a challenge (the server may have moved to another authorization
        // server): the SDK's, checked by the provider, then auth() starts from it.
        const info = await discoverOAuthServerInfo(this.url, {
          resourceMetadataUrl: opts.resourceMetadataUrl,
          fetchFn: boundedFetch,
        });
        provider.saveDiscoveryState({ ...info, resourceMetadataUrl: opts.resourceMetadataUrl?.href });
        const meta = info.authorizationServerMetadata;
        scope ??= info.resourceMetadata?.scopes_supported?.join(" ") || this.config.scopes?.join(" ") || undefined;
        // A refresh token where the authorization server offers one (offline_access, SEP-2207).
        if (
          scope !== undefined &&
          meta?.scopes_supported?.includes("offline_access") &&
          !scopeSet(scope).has("offline_access")
        )
          scope += " offline_access";
        hooks.metadata = {
          ...hooks.metadata,
          token_endpoint_auth_method: authMethod(meta?.token_endpoint_auth_methods_supported, this.config),
          ...(scope ? { scope } : {}),
        };
        this.dropStaleRegistration(provider, hooks.redirectUrl);
        this.asked = scopeSet(scope);
      }
      const first = await auth(provider, {
        serverUrl: this.url,
        resourceMetadataUrl: opts.resourceMetadataUrl,
        scope,
        fetchFn: boundedFetch,
      });
      if (first === "AUTHORIZED") return void this.completed++;
      if (!listener || !authorizationUrl) throw new SignInError(NEEDED);
      const callback = await listener.wait(state);
      const code = this.checkCallback(callback);
      const second = await auth(provider, {
        serverUrl: this.url,
        resourceMetadataUrl: opts.resourceMetadataUrl,
        scope,
        authorizationCode: code,
        fetchFn: boundedFetch,
      });
      if (second !== "AUTHORIZED") throw new SignInError("the authorization server did not issue a token");
      this.completed++;
    } finally {
      listener?.close();
    }
  }

  /**
   * The authorization response's checks beyond `state` (the listener's): an `error`, and RFC 9207
   * `iss` — required when the server advertises it, compared by simple string comparison whenever
   * present.
   */
  private checkCallback(p: URLSearchParams): string {
    const error = p.get("error");
    if (error)
      throw new SignInError(
        `the authorization server refused: ${printable(error)}${p.get("error_description") ? ` (${printable(p.get("error_description")!)})` : ""}`,
      );
    const meta = this.record.discovery?.authorizationServerMetadata as
      | { issuer?: string; authorization_response_iss_parameter_supported?: unknown }
      | undefined;
    const iss = p.get("iss");
    if (meta?.authorization_response_iss_parameter_supported === true && iss === null)
      throw new SignInError("the authorization response has no iss, which its server promises (RFC 9207)");
    if (iss !== null && iss !== meta?.issuer)
      throw new SignInError(
        `the authorization response comes from issuer ${JSON.stringify(printable(iss))}, not ${JSON.stringify(printable(meta?.issuer ?? "(unknown)"))} (RFC 9207)`,
      );
    const code = p.get("code");
    if (!code) throw new SignInError("the authorization response has no code");
    return code;
  }

  /** The loopback redirect a stored registration has (to listen on its port again). */
  private storedRedirect(): { url: string; port: number } | undefined {
    const issuer = this.record.discovery?.authorizationServerUrl;
    const client = issuer ? this.record.issuers[issuer]?.client : undefined;
    const uris = client && "redirect_uris" in client ? (client.redirect_uris as string[] | undefined) : undefined;
    const uri = uris?.[0];
    const port = uri ? Number(new URL(uri).port) : NaN;
    return uri && port > 0 ? { url: uri, port } : undefined;
  }

  /** A registration for another redirect URL (its port was taken) is registered again. */
  private dropStaleRegistration(provider: StoredProvider, redirectUrl: string): void {
    if (this.config.clientId) return;
    const client = provider.storedClient();
    const uris = client && "redirect_uris" in client ? client.redirect_uris : undefined;
    if (uris && uris.length > 0 && !uris.includes(redirectUrl)) provider.invalidateCredentials("client");
  }
}

/** A token within 30 s (or a tenth of its life) of `expires_in` counts as expired. */
function expired(t: OAuthTokens, savedAt: number | undefined): boolean {
  if (t.expires_in === undefined || savedAt === undefined) return false;
  const life = t.expires_in * 1000;
  return Date.now() >= savedAt + life - Math.min(30_000, life / 10);
}

/** The registration's token endpoint auth method: a secret where the server takes one, else none. */
function authMethod(supported: string[] | undefined, config: AuthConfig): string {
  if (config.clientSecret)
    return supported?.includes("client_secret_post") && !supported.includes("client_secret_basic")
      ? "client_secret_post"
      : "client_secret_basic";
  if (!supported || supported.includes("none")) return "none";
  return supported.find((m) => m === "client_secret_basic" || m === "client_secret_post") ?? "none";
}

const printable = (s: string) => (s.length > 200 ? `${s.slice(0, 199)}…` : s).replace(/[^\x20-\x7E]/g, "?");
const oneLine = (e: unknown) => printable((e instanceof Error ? e.message : String(e)).replace(/\s+/g, " "));

export { sameIssuer };
