// Request-time selection rules (SEP-3279 "Request-time selection").
import {
  isExtensionAudience,
  type Capabilities,
  type ToolResultOutputSelector,
  type ToolResultVariant,
} from "./schemas.js";
import { ASSISTANT_CONTENT, sameSelector, selectorKey } from "./selectors.js";

export type SelectionRule = "undeclared-selector" | "duplicate-selector" | "unnegotiated-selector" | "empty-selection";

export interface SelectionIssue {
  rule: SelectionRule;
  selector?: ToolResultOutputSelector;
  message: string;
}

export class SelectionError extends Error {
  constructor(readonly issue: SelectionIssue) {
    super(issue.message);
    this.name = "SelectionError";
  }
  get rule(): SelectionRule {
    return this.issue.rule;
  }
}

/** Extensions advertised by both sides: the only extension audiences usable on a request. */
export function negotiatedExtensions(client: Capabilities | undefined, server: Capabilities | undefined): Set<string> {
  const c = Object.keys(client?.extensions ?? {});
  const s = new Set(Object.keys(server?.extensions ?? {}));
  return new Set(c.filter((id) => s.has(id)));
}

/**
 * Checks a `requestedOutputs` list against the tool's variants: only declared selectors,
 * extension audiences only when negotiated. The client side (the host's own requests) also
 * refuses an empty list and a selector twice: the SEP binds the client there ("MUST NOT include
 * the same selector more than once"), not the server, so a server (`side: "server"`) answers an
 * empty list with no outputs and a repeated selector with one output. Returns the first issue.
 */
export function checkSelection(
  requested: readonly ToolResultOutputSelector[] | undefined,
  variants: readonly ToolResultVariant[],
  negotiated: ReadonlySet<string> | ((audience: string) => boolean),
  side: "client" | "server" = "client",
): SelectionIssue | undefined {
  if (requested === undefined) return undefined;
  if (requested.length === 0 && side === "client")
    return {
      rule: "empty-selection",
      message: "requestedOutputs is empty (omit it for the assistant/content fallback)",
    };
  const usable = typeof negotiated === "function" ? negotiated : (a: string) => negotiated.has(a);
  const seen: ToolResultOutputSelector[] = [];
  for (const sel of requested) {
    const key = selectorKey(sel);
    if (seen.some((s) => sameSelector(s, sel))) {
      if (side === "server") continue;
      return { rule: "duplicate-selector", selector: sel, message: `${key} is requested more than once` };
    }
    seen.push(sel);
    if (isExtensionAudience(sel.audience) && !usable(sel.audience)) {
      return {
        rule: "unnegotiated-selector",
        selector: sel,
        message: `${key} needs extension ${sel.audience}, which was not negotiated`,
      };
    }
    if (!variants.some((v) => sameSelector(v, sel))) {
      return { rule: "undeclared-selector", selector: sel, message: `${key} is not declared by the tool` };
    }
  }
  return undefined;
}

/** What the server must return: the request's selectors, or the fixed assistant/content fallback. */
export function effectiveSelection(
  requested: readonly ToolResultOutputSelector[] | undefined,
): ToolResultOutputSelector[] {
  if (requested === undefined) return [{ ...ASSISTANT_CONTENT }];
  const out: ToolResultOutputSelector[] = [];
  for (const s of requested)
    if (!out.some((o) => sameSelector(o, s))) out.push({ audience: s.audience, format: s.format });
  return out;
}
