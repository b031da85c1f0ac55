// Extension-defined audiences (SEP-3279 "Extension audiences"). An extension with one audience
// uses its identifier as the audience (the default for any extension not registered here); an
// extension MAY define more namespaced audiences, optional ones negotiated through its settings.
// "Negotiated audiences" is then the one set every check reads: the audiences of the extensions
// both sides advertised on a request. No zod (the router imports this on the first-frame path).
import { EXTENSION_ID_PATTERN, isCoreAudience } from "./audience.js";

export interface ExtensionAudienceDefinition {
  id: string;
  /**
   * Optional within the extension: negotiated only when both sides list it in the extension's
   * settings, `{"audiences": ["…"]}` (the rule this registry applies for every extension it knows).
   */
  optional?: boolean;
}

export interface ExtensionDefinition {
  id: string;
  audiences: readonly ExtensionAudienceDefinition[];
}

const definitions = new Map<string, ExtensionDefinition>();
/** audience → its defining extension id (the additional ones; an id's own audience maps to itself). */
const owners = new Map<string, string>();

/**
 * Registers an extension's audiences. Refused: a core audience (extensions must not redefine
 * them), an identifier outside the `_meta` prefix rules, or an audience another extension owns.
 */
export function defineExtensionAudiences(def: ExtensionDefinition): void {
  if (!EXTENSION_ID_PATTERN.test(def.id))
    throw new Error(`extension id ${JSON.stringify(def.id)} is not a namespaced identifier`);
  for (const a of def.audiences) {
    if (isCoreAudience(a.id)) throw new Error(`extension ${def.id} cannot redefine the core audience ${a.id}`);
    if (!EXTENSION_ID_PATTERN.test(a.id))
      throw new Error(`audience ${JSON.stringify(a.id)} of ${def.id} is not a namespaced identifier`);
    const owner = owners.get(a.id) ?? (definitions.has(a.id) && a.id !== def.id ? a.id : undefined);
    if (owner !== undefined && owner !== def.id) throw new Error(`audience ${a.id} is already defined by ${owner}`);
  }
  definitions.set(def.id, def);
  for (const a of def.audiences) owners.set(a.id, def.id);
}

/** The extension that defines an audience: a registered owner, else the audience itself (one-audience extensions). */
export function extensionOfAudience(audience: string): string {
  return owners.get(audience) ?? audience;
}

function listed(settings: unknown, audience: string): boolean {
  const list =
    typeof settings === "object" && settings !== null ? (settings as { audiences?: unknown }).audiences : undefined;
  return Array.isArray(list) && list.includes(audience);
}

/**
 * The audiences negotiated on a request: for each extension both sides advertised, its own id
 * and the audiences it defines (an optional one only when both sides' settings list it).
 */
export function negotiatedAudiences(
  client: Readonly<Record<string, unknown>>,
  server: Readonly<Record<string, unknown>>,
): Set<string> {
  const out = new Set<string>();
  for (const id of Object.keys(client)) {
    if (!Object.hasOwn(server, id)) continue;
    const def = definitions.get(id);
    if (!def) {
      out.add(id);
      continue;
    }
    for (const a of def.audiences)
      if (!a.optional || (listed(client[id], a.id) && listed(server[id], a.id))) out.add(a.id);
  }
  return out;
}
