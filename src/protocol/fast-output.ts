// The host validates every output of every call; zod's general parser dominates that cost for
// the shapes nearly every result has. This accepts exactly those shapes — a core audience with
// structuredContent, or with content made only of plain text blocks — and returns what the zod
// schemas return for them. Anything else (extension audiences, other block types, annotations,
// `_meta`, anything malformed) returns undefined and goes through zod, which also words every
// error. Soundness (accepted ⇒ zod accepts, same value) is property-tested against zod.
import type { TextContent, ToolResultOutput } from "./schemas.js";

function isPlainTextBlock(b: unknown): boolean {
  if (typeof b !== "object" || b === null || Array.isArray(b)) return false;
  const r = b as Record<string, unknown>;
  return r.type === "text" && typeof r.text === "string" && !("annotations" in r) && !("_meta" in r);
}

export function fastParseOutput(o: unknown): ToolResultOutput | undefined {
  if (typeof o !== "object" || o === null || Array.isArray(o)) return undefined;
  const r = o as Record<string, unknown>;
  const audience = r.audience;
  if (audience !== "assistant" && audience !== "user" && audience !== "programmatic") return undefined;
  if (r.format === "structured") {
    // zod strips unknown keys from an output object: so does this.
    return r.structuredContent === undefined
      ? undefined
      : { audience, format: "structured", structuredContent: r.structuredContent };
  }
  if (r.format !== "content") return undefined;
  const content = r.content;
  if (!Array.isArray(content)) return undefined;
  for (let i = 0; i < content.length; i++) if (!isPlainTextBlock(content[i])) return undefined;
  // Text blocks are loose objects (unknown keys kept): zod returns equal copies; the blocks
  // themselves are returned here (nothing downstream writes to an output).
  return { audience, format: "content", content: content as TextContent[] };
}
