// Code mode in the app: run_code for the model, and the runs /run makes for you. Inner calls go
// through the turn's instrumented executor (or the command's card runner), so each one asks
// approval as a direct call does, gets its own card (requestedOutputs, where each output went)
// and files its programmatic output in the Programmatic pane. The code layer loads on first use.
import type { HostTool } from "../model/host-tool.js";
import type { ToolExecutor } from "../host/types.js";
import type { SessionStore } from "./state.js";
import { GATED_DOWNSTREAM } from "../host/call/gate.js";

/** run_code for one turn: the script's card, its inner calls' cards, then what the model received. */
export async function appRunCode(store: SessionStore, executor: ToolExecutor): Promise<HostTool> {
  const { runCodeTool } = await import("../code/run-code.js");
  // Approval is the executor's (it asks, or --yes): the bridge passes every call on to it.
  const tool = runCodeTool(executor, {
    gate: GATED_DOWNSTREAM,
    onDisplay: (routed) => store.userImages("run_code", routed),
  });
  return {
    name: tool.name,
    get description() {
      return tool.description;
    },
    inputSchema: tool.inputSchema,
    covers: (t) => tool.covers(t),
    async run(args, ctx) {
      store.codeStart(typeof args.code === "string" ? args.code : JSON.stringify(args));
      const r = await tool.run(args, ctx);
      store.codeEnd({ text: r.text, isError: r.isError, forModel: true });
      return r;
    },
  };
}
