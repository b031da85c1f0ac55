// An opt-in request log for reviewers: every request the server handles (method and params as
// received, `requestedOutputs` and `_meta` included) and what it answered, one JSON object per line.
// It sits on ToolkitServer.handle, so it sees the same thing over stdio and over HTTP.
import { appendFileSync } from "node:fs";
import type { ToolkitServer } from "./engine.js";

export function logRequests(server: ToolkitServer, file: string): void {
  const handle = server.handle.bind(server);
  const write = (entry: Record<string, unknown>) =>
    appendFileSync(file, JSON.stringify({ at: new Date().toISOString(), ...entry }) + "\n");
  server.handle = async (method, params, ctx) => {
    write({ dir: "request", method, params });
    try {
      const result = await handle(method, params, ctx);
      write({ dir: "result", method, result });
      return result;
    } catch (e) {
      const err = e as { code?: number; message?: string };
      write({ dir: "error", method, code: err.code, message: err.message });
      throw e;
    }
  };
}
