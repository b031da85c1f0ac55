// goose: blocks are filtered by their annotations.audience hint — user-only blocks to the user,
// everything else (assistant-only, both, unannotated) to the model. structuredContent is ignored.
import type { ContentBlock, ToolResultOutput } from "../../protocol/index.js";
import type { ValidatedLegacyResult } from "../../host/result/validate.js";

function userOnly(b: ContentBlock): boolean {
  const aud = b.annotations?.audience;
  return aud !== undefined && aud.length > 0 && aud.every((a) => a === "user");
}

export function annotationAudience(r: ValidatedLegacyResult): ToolResultOutput[] {
  const forUser = r.content.filter(userOnly);
  const forModel = r.content.filter((b) => !userOnly(b));
  const out: ToolResultOutput[] = [{ audience: "assistant", format: "content", content: forModel }];
  if (forUser.length > 0) out.push({ audience: "user", format: "content", content: forUser });
  return out;
}
