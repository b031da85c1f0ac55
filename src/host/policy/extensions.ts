// Client extensions beyond the Apps one (SEP-3279 "Extension audiences"): an embedder registers an
// extension it supports, with the settings it advertises (an optional audience is negotiated by
// listing it there, protocol/extension-audiences.ts) and the audiences its modes request. The
// modes it names then advertise it on every modern request, request those audiences when a tool
// declares them and both sides negotiated them, and the router sends their outputs to the App sink
// (the extension's consumer), with the extension's namespaced result `_meta`.
import { EXTENSION_ID_PATTERN } from "../../protocol/audience.js";
import { sameSelector, type ToolResultOutputSelector } from "../../protocol/index.js";
import type { Mode } from "../types.js";
import type { ModePolicy } from "./types.js";

export interface ClientExtension {
  /** The extension identifier (namespaced, as in capabilities.extensions). */
  id: string;
  /** What the client advertises for it, e.g. {"audiences": ["com.example/chart-thumbnail"]}. */
  settings: Record<string, unknown>;
  /** The modes that advertise it (default: app, the mode whose App pane shows extension outputs). */
  modes?: readonly Mode[];
  /** Selectors those modes request when the tool declares them and they were negotiated. */
  request?: readonly ToolResultOutputSelector[];
}

/**
 * Folds a registered extension into the mode policies (new policy objects, so the per-policy
 * caches keyed by object identity start afresh). Refused: an identifier that is not namespaced,
 * and one a mode already advertises (the Apps extension is the app mode's own).
 */
export function addClientExtension(policies: Record<Mode, ModePolicy>, ext: ClientExtension): void {
  if (!EXTENSION_ID_PATTERN.test(ext.id))
    throw new Error(`extension id ${JSON.stringify(ext.id)} is not a namespaced identifier`);
  const modes = ext.modes ?? ["app"];
  for (const mode of modes)
    if (Object.hasOwn(policies[mode].advertiseExtensions, ext.id))
      throw new Error(`mode ${mode} already advertises extension ${ext.id}`);
  for (const mode of modes) {
    const p = policies[mode];
    const wanted = (ext.request ?? []).filter((s) => !p.preferences.some((q) => sameSelector(q.want, s)));
    policies[mode] = {
      ...p,
      advertiseExtensions: { ...p.advertiseExtensions, [ext.id]: structuredClone(ext.settings) },
      preferences: [...p.preferences, ...wanted.map((want) => ({ want: { ...want }, ifDeclared: true }))],
    };
  }
}
