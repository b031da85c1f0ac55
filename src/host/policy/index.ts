// Applies a mode policy to a tool's declared variants: one generic function, no per-mode branches.
import {
  isExtensionAudience,
  sameSelector,
  type ToolResultOutputSelector,
  type ToolResultVariant,
} from "../../protocol/index.js";
import type { Mode } from "../types.js";
import { app } from "./app.js";
import { chat } from "./chat.js";
import { code } from "./code.js";
import { minimal } from "./minimal.js";
import { structured } from "./structured.js";
import { addClientExtension, type ClientExtension } from "./extensions.js";
import type { ModePolicy } from "./types.js";

export type { ModePolicy, Preference } from "./types.js";
export type { ClientExtension } from "./extensions.js";

export const POLICIES: Record<Mode, ModePolicy> = { chat, structured, code, app, minimal };

/**
 * Registers a client extension for this process (before the host starts): the modes it names
 * advertise it and request its audiences (policy/extensions.ts).
 */
export function registerClientExtension(ext: ClientExtension): void {
  addClientExtension(POLICIES, ext);
}

export function policyFor(mode: Mode): ModePolicy {
  return POLICIES[mode];
}

/**
 * The requestedOutputs a mode asks for: only declared selectors, extension audiences only when
 * negotiated, none twice, never a declined variant (the host does not request a variant whose
 * schema it cannot compile; a required preference for one is skipped). undefined = send none
 * (the fallback).
 */
export function selectOutputs(
  policy: ModePolicy,
  variants: readonly ToolResultVariant[],
  negotiated: ReadonlySet<string>,
  declined: readonly ToolResultOutputSelector[] = [],
): ToolResultOutputSelector[] | undefined {
  if (!policy.sendRequestedOutputs) return undefined;
  const isDeclined = (s: ToolResultOutputSelector) => declined.some((d) => sameSelector(d, s));
  const usable = (s: ToolResultOutputSelector) =>
    !isDeclined(s) &&
    variants.some((v) => sameSelector(v, s)) &&
    (!isExtensionAudience(s.audience) || negotiated.has(s.audience));
  const out: ToolResultOutputSelector[] = [];
  const add = (s: ToolResultOutputSelector) => {
    if (!out.some((o) => sameSelector(o, s))) out.push({ audience: s.audience, format: s.format });
  };
  for (const p of policy.preferences) {
    if (usable(p.want)) add(p.want);
    else if (p.otherwise && usable(p.otherwise)) add(p.otherwise);
    else if (!p.ifDeclared && !p.otherwise && !isDeclined(p.want)) add(p.want); // required: checkSelection will refuse it locally
  }
  return out;
}
