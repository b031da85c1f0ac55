// wait: sleeps ms milliseconds reporting progress (and logs, when the request asks for them);
// honours cancellation (for timeout tests).
import { defineTool, ToolError } from "../../server/index.js";

export const waitTool = defineTool<{ ms: number }, { ms: number }>({
  name: "wait",
  title: "Wait",
  description:
    "Waits the given number of milliseconds (max 60000), reporting progress. For cancellation and timeout tests.",
  inputSchema: {
    type: "object",
    properties: { ms: { type: "integer", minimum: 0, maximum: 60000 } },
    required: ["ms"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
  outputVariants: [
    { audience: "assistant", format: "content", project: (r) => [{ type: "text", text: `Waited ${r.ms} ms.` }] },
  ],
  async run({ ms }, ctx) {
    const step = 100;
    for (let done = 0; done < ms; done += step) {
      if (ctx.signal.aborted) return new ToolError("cancelled", {});
      await new Promise((r) => setTimeout(r, Math.min(step, ms - done)));
      await ctx.progress(Math.min(done + step, ms), ms);
      await ctx.log("debug", `waited ${Math.min(done + step, ms)} of ${ms} ms`, "wait");
    }
    await ctx.log("info", `done after ${ms} ms`, "wait");
    return { ms };
  },
});
