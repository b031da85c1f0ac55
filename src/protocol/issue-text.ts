/** A zod error's first issue as one line: `path.to.field: message`, or the message alone at the root. */
export function firstIssueText(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const i = error.issues[0];
  const path = i.path.map(String).join(".");
  return path ? `${path}: ${i.message}` : i.message;
}
