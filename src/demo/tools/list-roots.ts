// list_roots: reads the client's roots (roots/list). 2026-07-28+: an input_required round; the
// initialize era: a real roots/list request.
import { defineTool, type Root } from "../../server/index.js";
import { unsupported } from "./client-input.js";

const MAX_ROOTS = 100;

export const rootsSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    roots: {
      type: "array",
      items: {
        type: "object",
        properties: { uri: { type: "string" }, name: { type: "string" } },
        required: ["uri"],
        additionalProperties: false,
      },
    },
  },
  required: ["roots"],
  additionalProperties: false,
};

const line = (r: Root) => (r.name ? `${r.name}: ${r.uri}` : r.uri);

export const listRootsTool = defineTool<Record<string, never>, Root[]>({
  name: "list_roots",
  title: "List roots",
  description: "Shows the directories the client shares with servers (its roots, through roots/list).",
  inputSchema: { type: "object", additionalProperties: false },
  annotations: { readOnlyHint: true, openWorldHint: false },
  outputVariants: [
    {
      audience: "assistant",
      format: "content",
      project: (rs) => [
        {
          type: "text",
          text:
            rs.length === 0
              ? "The client shares no roots."
              : `The client shares ${rs.length} root${rs.length === 1 ? "" : "s"}:\n${rs.map(line).join("\n")}`,
        },
      ],
    },
    { audience: "programmatic", format: "structured", schema: rootsSchema, project: (rs) => ({ roots: rs }) },
  ],
  async run(_args, ctx) {
    const refused = unsupported("list_roots", { method: "roots/list", params: {} }, ctx, "list its roots");
    if (refused) return refused;
    const roots = await ctx.listRoots();
    // From outside: keep uri and name only, bounded.
    return roots.slice(0, MAX_ROOTS).map((r) => ({
      uri: String(r.uri).slice(0, 2000),
      ...(typeof r.name === "string" ? { name: r.name.slice(0, 200) } : {}),
    }));
  },
});
