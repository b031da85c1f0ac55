// What a View's resource may declare (`_meta.ui` of its resources/read contents, MCP Apps
// 2026-01-26): the CSP domains and the permissions. Built restrictive first and only widened as far
// as declared; a value that is not a plain origin is left out (never spliced into a header).
import { isObject } from "../protocol/is-object.js";

/** The MCP Apps default: inline script/style (Apps are single files), data: images, no fetch/XHR/WebSocket (WebRTC: no-webrtc.ts). */
const DEFAULT = {
  "default-src": ["'none'"],
  "script-src": ["'self'", "'unsafe-inline'"],
  "style-src": ["'self'", "'unsafe-inline'"],
  "img-src": ["'self'", "data:"],
  "font-src": ["'self'"],
  "media-src": ["'self'", "data:"],
  "connect-src": ["'none'"],
  "frame-src": ["'none'"],
  "object-src": ["'none'"],
  "base-uri": ["'none'"],
  "form-action": ["'none'"],
};

/** An origin (scheme://host[:port], `*.` wildcard allowed), nothing that could end a directive. */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/;
const MAX_DOMAINS = 64;

export interface ViewPolicy {
  /** The Content-Security-Policy header value for the sandbox proxy page (its srcdoc inherits it). */
  csp: string;
  /** The iframe `allow` attribute for the permissions declared (camera, microphone, geolocation, clipboard-write). */
  allow: string;
  /** The declared domains and permissions that were left out, one line each. */
  dropped: string[];
  /** The declared `ui` entry, as the sandbox-resource-ready notification passes it on (checked parts only). */
  declared: { csp?: Record<string, string[]>; permissions?: Record<string, Record<string, never>> };
}

function domains(raw: unknown, key: string, dropped: string[]): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    dropped.push(`csp.${key} is not an array`);
    return [];
  }
  const ok: string[] = [];
  for (const d of raw.slice(0, MAX_DOMAINS)) {
    if (typeof d === "string" && d.length <= 255 && ORIGIN.test(d)) ok.push(d);
    else dropped.push(`csp.${key}: ${JSON.stringify(d).slice(0, 80)} is not an origin`);
  }
  if (raw.length > MAX_DOMAINS) dropped.push(`csp.${key}: ${raw.length - MAX_DOMAINS} past the first ${MAX_DOMAINS}`);
  return ok;
}

const PERMISSIONS: Record<string, string> = {
  camera: "camera",
  microphone: "microphone",
  geolocation: "geolocation",
  clipboardWrite: "clipboard-write",
};

/** The policy of one View from the resource contents' `_meta.ui` (absent: the default). */
export function viewPolicy(ui: unknown, frameAncestor: string): ViewPolicy {
  const dropped: string[] = [];
  const d: Record<string, string[]> = Object.fromEntries(Object.entries(DEFAULT).map(([k, v]) => [k, [...v]]));
  const declared: ViewPolicy["declared"] = {};
  const csp = isObject(ui) ? ui.csp : undefined;
  if (csp !== undefined && !isObject(csp)) dropped.push("csp is not an object");
  if (isObject(csp)) {
    const connect = domains(csp.connectDomains, "connectDomains", dropped);
    const resource = domains(csp.resourceDomains, "resourceDomains", dropped);
    const frame = domains(csp.frameDomains, "frameDomains", dropped);
    const base = domains(csp.baseUriDomains, "baseUriDomains", dropped);
    if (connect.length) d["connect-src"] = ["'self'", ...connect];
    for (const k of ["script-src", "style-src", "img-src", "font-src", "media-src"]) d[k].push(...resource);
    if (frame.length) d["frame-src"] = frame;
    if (base.length) d["base-uri"] = base;
    declared.csp = { connectDomains: connect, resourceDomains: resource, frameDomains: frame, baseUriDomains: base };
  }
  d["frame-ancestors"] = [frameAncestor];
  const perms = isObject(ui) ? ui.permissions : undefined;
  const allow: string[] = [];
  if (isObject(perms)) {
    declared.permissions = {};
    for (const key of Object.keys(perms)) {
      if (PERMISSIONS[key] === undefined) dropped.push(`permissions.${key.slice(0, 40)} is not one the host knows`);
      else {
        allow.push(PERMISSIONS[key]);
        declared.permissions[key] = {};
      }
    }
  }
  return {
    csp: Object.entries(d)
      .map(([k, v]) => `${k} ${v.join(" ")}`)
      .join("; "),
    allow: allow.join("; "),
    dropped,
    declared,
  };
}
