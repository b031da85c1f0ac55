// Ending a legacy Streamable HTTP session on close (Connection.close and a failed connect).
import type { RpcClient } from "./rpc-client.js";

/** How long a legacy HTTP session's DELETE may take on close (then the close aborts it). */
const END_SESSION_MS = 2000;

/**
 * Ends a legacy Streamable HTTP session with DELETE (the SDK transport's terminateSession; a 405,
 * "the server does not end sessions", counts as done), bounded in time, errors ignored. Other
 * transports have no session to end.
 */
export async function endSession(client: RpcClient): Promise<void> {
  const transport = client.transport as { terminateSession?: () => Promise<void> } | undefined;
  if (typeof transport?.terminateSession !== "function") return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((r) => (timer = setTimeout(r, END_SESSION_MS)));
  await Promise.race([transport.terminateSession().catch(() => {}), timeout]);
  clearTimeout(timer);
}
