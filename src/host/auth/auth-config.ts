// A server's "auth" block in the config: how mcp-prism signs in to it with OAuth (all optional).
// clientId/clientSecret: a client registered with the authorization server beforehand (no
// dynamic registration then); scopes: asked for when the server names none; clientMetadataUrl:
// an https URL of a client ID metadata document, used as client_id where the server supports it;
// issuer: the authorization server clientId/clientSecret were issued by (they go nowhere else).
import { isObject } from "../../protocol/is-object.js";

export interface AuthConfig {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  clientMetadataUrl?: string;
  /** The issuer the configured client belongs to; without it, only an issuer on the server's own origin. */
  issuer?: string;
}

const KEYS = ["clientId", "clientSecret", "scopes", "clientMetadataUrl", "issuer"];
/** The longest string accepted for any field (a secret or URL longer than this is a mistake). */
const MAX_FIELD = 2048;

/** The parsed block, or the first mistake as `[path, expected]`. */
export function parseAuthConfig(v: unknown, path: string): AuthConfig | [string, string] {
  if (!isObject(v)) return [path, `object with any of ${KEYS.join(", ")}`];
  const out: AuthConfig = {};
  for (const key of Object.keys(v))
    if (!KEYS.includes(key)) return [`${path}.${key}`, `one of ${KEYS.join(", ")} (unknown key)`];
  for (const key of ["clientId", "clientSecret"] as const) {
    const s = v[key];
    if (s === undefined) continue;
    if (typeof s !== "string" || s === "" || s.length > MAX_FIELD)
      return [`${path}.${key}`, `non-empty string of at most ${MAX_FIELD} characters`];
    out[key] = s;
  }
  if (out.clientSecret !== undefined && out.clientId === undefined)
    return [`${path}.clientId`, "a clientId beside clientSecret"];
  if (v.scopes !== undefined) {
    const ok =
      Array.isArray(v.scopes) &&
      v.scopes.length <= 64 &&
      v.scopes.every((s) => typeof s === "string" && /^[\x21\x23-\x5B\x5D-\x7E]{1,256}$/.test(s));
    if (!ok) return [`${path}.scopes`, "array of at most 64 scope strings (no spaces, quotes or backslashes)"];
    out.scopes = v.scopes as string[];
  }
  if (v.issuer !== undefined) {
    let url: URL | undefined;
    try {
      url = typeof v.issuer === "string" && v.issuer.length <= MAX_FIELD ? new URL(v.issuer) : undefined;
    } catch {
      url = undefined;
    }
    if (
      !url ||
      !(
        url.protocol === "https:" ||
        (url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname))
      )
    )
      return [`${path}.issuer`, "the authorization server's issuer, an https URL"];
    if (out.clientId === undefined) return [`${path}.clientId`, "a clientId beside issuer"];
    out.issuer = v.issuer as string;
  }
  if (v.clientMetadataUrl !== undefined) {
    const u = v.clientMetadataUrl;
    let url: URL | undefined;
    try {
      url = typeof u === "string" && u.length <= MAX_FIELD ? new URL(u) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || url.protocol !== "https:" || url.pathname === "/")
      return [`${path}.clientMetadataUrl`, "https URL with a path (a client ID metadata document)"];
    out.clientMetadataUrl = u as string;
  }
  return out;
}
