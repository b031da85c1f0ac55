// The audience vocabulary without zod, for code on the app's start-up path (the UI's command
// parsing): importing schemas.ts means evaluating zod, ~60 ms before the first frame. schemas.ts
// defines the same names; test/protocol/audience.test.ts keeps the two in step.

export const CORE_AUDIENCES = ["assistant", "user", "programmatic"] as const;
export type CoreAudience = (typeof CORE_AUDIENCES)[number];

/** A reverse-DNS prefixed identifier, the `_meta` key naming rule the extensions follow. */
export const EXTENSION_ID_PATTERN =
  /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

export function isCoreAudience(a: string): a is CoreAudience {
  return (CORE_AUDIENCES as readonly string[]).includes(a);
}
export function isExtensionAudience(a: string): boolean {
  return !isCoreAudience(a) && EXTENSION_ID_PATTERN.test(a);
}
