// The SDK's OAuthClientProvider over one server's AuthRecord: what auth() reads and saves goes to
// the record (and so to the 0600 file), per authorization server. Two checks the SDK leaves to
// the client are made here: the authorization server metadata's `issuer` must be the server it
// was fetched for (RFC 8414 §3.3; else the metadata is not used), and a pre-registered client
// from the config is never replaced by a registration.
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { AuthConfig } from "./auth-config.js";
import { SignInError } from "./loopback.js";
import type { AuthRecord, IssuerRecord } from "./store.js";

/** What a provider needs of its flow: the redirect URL, the state, and where the browser goes. */
export interface FlowHooks {
  redirectUrl: string;
  state: string;
  /** The authorization URL (the user's browser is sent there). */
  redirect(url: URL): Promise<void> | void;
  /** Extra client metadata fields for a registration (scope, auth method). */
  metadata: Partial<OAuthClientMetadata> & { application_type?: string };
  /**
   * Asks the person whether the configured client may go to an issuer on another origin that
   * `auth.issuer` does not name (its first use); absent: refused.
   */
  confirmIssuer?: (issuer: string) => Promise<boolean>;
}

/** An issuer compared as written, but for one trailing slash (String(new URL(x)) adds it). */
export const sameIssuer = (a: string, b: string) => a.replace(/\/$/, "") === b.replace(/\/$/, "");

/**
 * Why a configured client (clientId, clientSecret) may not go to this authorization server: it
 * goes only to `auth.issuer`, or, without one, to an issuer on the MCP server's own origin.
 */
export function configuredClientProblem(
  config: AuthConfig,
  issuer: string | undefined,
  serverUrl: string,
): string | undefined {
  return clientBinding(config, issuer, serverUrl)?.detail;
}

/**
 * Why not, as data: `askable` only for an issuer on another origin while `auth.issuer` is unset —
 * the one case the person may allow (once, remembered for that issuer in the 0600 store).
 */
export function clientBinding(
  config: AuthConfig,
  issuer: string | undefined,
  serverUrl: string,
): { askable: boolean; detail: string } | undefined {
  const shown = (s: string) => JSON.stringify(s.slice(0, 200).replace(/[^\x20-\x7E]/g, "?"));
  if (issuer === undefined)
    return {
      askable: false,
      detail: "the authorization server is not known yet: the configured client (auth.clientId) is not sent",
    };
  if (config.issuer !== undefined) {
    return sameIssuer(config.issuer, issuer)
      ? undefined
      : {
          askable: false,
          detail: `the configured client (auth.clientId) was issued by ${shown(config.issuer)} (auth.issuer), not by ${shown(issuer)}: not sent`,
        };
  }
  let same = false;
  try {
    same = new URL(issuer).origin === new URL(serverUrl).origin;
  } catch {
    same = false;
  }
  return same
    ? undefined
    : {
        askable: true,
        detail: `the authorization server ${shown(issuer)} is on another origin than the server: the configured client (auth.clientId, auth.clientSecret) is sent there only with "auth": {"issuer": ${shown(issuer)}}; not sent`,
      };
}

export class StoredProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  /** The authorization server of the current discovery (the key of everything stored). */
  issuer: string | undefined;

  constructor(
    private readonly record: AuthRecord,
    private readonly save: () => void,
    private readonly config: AuthConfig,
    private readonly flow: FlowHooks,
  ) {
    this.issuer = record.discovery?.authorizationServerUrl ?? record.issuer;
  }

  get redirectUrl(): string {
    return this.flow.redirectUrl;
  }
  get clientMetadataUrl(): string | undefined {
    return this.config.clientMetadataUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "mcp-prism",
      redirect_uris: [this.flow.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...this.flow.metadata,
    } as OAuthClientMetadata;
  }
  state(): string {
    return this.flow.state;
  }

  private entry(issuer = this.issuer): IssuerRecord | undefined {
    if (issuer === undefined) return undefined;
    return (this.record.issuers[issuer] ??= {});
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const clientId = this.config.clientId;
    if (!clientId) return this.storedClient();
    const unbound = clientBinding(this.config, this.issuer, this.record.url);
    if (unbound) {
      const e = this.entry();
      // Allowed once by the person for this issuer: remembered beside its registration, by client id.
      if (!(unbound.askable && e && e.allowedClientId === clientId)) {
        if (
          !unbound.askable ||
          !this.flow.confirmIssuer ||
          !e ||
          !(await this.flow.confirmIssuer(this.issuer as string))
        )
          throw new SignInError(unbound.detail);
        e.allowedClientId = clientId;
        this.save();
      }
    }
    return { client_id: clientId, ...(this.config.clientSecret ? { client_secret: this.config.clientSecret } : {}) };
  }
  /** The registration stored for the current issuer (never the configured client). */
  storedClient(): OAuthClientInformationMixed | undefined {
    return this.entry()?.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed & { issuer?: string }): void {
    if (this.config.clientId) return; // the configured client stays the one presented
    const e = this.entry(info.issuer ?? this.issuer);
    if (!e) return;
    e.client = info;
    this.save();
  }
  tokens(): OAuthTokens | undefined {
    return this.entry()?.tokens;
  }
  saveTokens(tokens: OAuthTokens): void {
    const issuer = tokens.issuer ?? this.issuer;
    const e = this.entry(issuer);
    if (!e) return;
    e.tokens = tokens;
    e.savedAt = Date.now();
    this.record.issuer = issuer;
    this.save();
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    await this.flow.redirect(url);
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier; // in memory only: it lives for one sign-in
  }
  codeVerifier(): string {
    if (!this.verifier) throw new SignInError("no PKCE code verifier for this sign-in");
    return this.verifier;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    const e = this.entry();
    if ((scope === "all" || scope === "tokens") && e) delete e.tokens;
    if ((scope === "all" || scope === "client") && e) delete e.client;
    if (scope === "all" || scope === "discovery") delete this.record.discovery;
    if (scope === "all" || scope === "verifier") this.verifier = undefined;
    this.save();
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    const issuer = state.authorizationServerMetadata?.issuer;
    if (issuer !== undefined && !sameIssuer(issuer, String(state.authorizationServerUrl))) {
      throw new SignInError(
        `the authorization server metadata names issuer ${JSON.stringify(issuer.slice(0, 200))}, not ${String(state.authorizationServerUrl).slice(0, 200)}: not used`,
      );
    }
    this.issuer = String(state.authorizationServerUrl);
    this.record.discovery = state;
    this.save();
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discovery;
  }
}
