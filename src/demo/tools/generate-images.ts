// generate_images: user/content carries the pixels; assistant/content only describes them.
import { defineTool, ToolError } from "../../server/index.js";
import { renderImage, type DrawnImage } from "../images.js";

interface Generated {
  prompt: string;
  images: DrawnImage[];
}

export const generateImagesTool = defineTool<{ prompt: string; count?: number; size?: string }, Generated>({
  name: "generate_images",
  title: "Generate images",
  description:
    "Draws images for a prompt (a sunrise over water, deterministic per prompt). The images go to the user; the assistant receives a short description.",
  inputSchema: {
    type: "object",
    properties: {
      prompt: { type: "string", minLength: 1 },
      count: { type: "integer", minimum: 1, maximum: 6, default: 2 },
      size: {
        type: "string",
        pattern: "^\\d{2,3}x\\d{2,3}$",
        default: "256x160",
        description: "WIDTHxHEIGHT, each 16..512",
      },
    },
    required: ["prompt"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  outputVariants: [
    {
      audience: "assistant",
      format: "content",
      // Only what this call did: whether the pixels were returned for the user depends on the
      // request; whether anyone saw them is the host's routing, outside the server's knowledge.
      project: (r, ctx) => {
        const kinds = r.images.map((i) => (i.mimeType === "image/png" ? "PNG" : "JPEG"));
        const { width, height } = r.images[0];
        const n = r.images.length;
        const where = ctx.selection.some((s) => s.audience === "user" && s.format === "content")
          ? `The image${n === 1 ? " was" : "s were"} returned in this call's user output.`
          : `The image${n === 1 ? " itself was" : "s themselves were"} not returned by this call (only this description was requested).`;
        return [
          {
            type: "text",
            text: `Generated ${n} image${n === 1 ? "" : "s"} (${width}×${height}; ${kinds.join(", ")}) for "${r.prompt}": a sunrise gradient over water with a sun disc and its reflection. ${where}`,
          },
        ];
      },
    },
    {
      audience: "user",
      format: "content",
      project: (r) =>
        r.images.map((i) => ({ type: "image" as const, data: i.data.toString("base64"), mimeType: i.mimeType })),
    },
  ],
  async run({ prompt, count, size }, ctx) {
    const [width, height] = (size ?? "256x160").split("x").map(Number);
    if (width < 16 || width > 512 || height < 16 || height > 512) {
      const message = `size ${size} is out of range (16..512 per side)`;
      return new ToolError(message, {
        "assistant/content": [{ type: "text", text: message }],
        "user/content": [{ type: "text", text: `Cannot draw ${size} images.` }],
      });
    }
    const n = count ?? 2;
    const images: DrawnImage[] = [];
    for (let i = 0; i < n; i++) {
      if (ctx.signal.aborted) break;
      images.push(renderImage(prompt, i, width, height));
      await ctx.progress(i + 1, n, `image ${i + 1} of ${n}`);
      await new Promise((r) => setImmediate(r)); // let a cancellation in
    }
    return { prompt, images };
  },
});
