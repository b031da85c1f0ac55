// The legacy server→client requests `elicitation/create` and `sampling/createMessage` answered
// through the InputProvider (client-capabilities.ts advertises only what it answers). A refused request is a JSON-RPC error whose message is one sanitized line.
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { answerInput, type InputProvider } from "./input-provider.js";
import type { RpcClient } from "../connection/rpc-client.js";

export type { InputProvider };

const INVALID_PARAMS = -32602;
/** The spec's code for a sampling request the user rejected. */
const USER_REJECTED = -1;

const requestOf = <M extends string>(method: M) =>
  z.object({ method: z.literal(method), params: z.record(z.string(), z.unknown()).optional() });
const ElicitRequest = requestOf("elicitation/create");
const SampleRequest = requestOf("sampling/createMessage");

export function installInputHandlers(client: RpcClient, server: string, provider: InputProvider): void {
  const handle = async (method: string, params: unknown, signal: AbortSignal) => {
    const answer = await answerInput(server, method, params, provider, signal);
    if (answer.ok) return answer.result;
    throw new McpError(
      answer.rule === "sampling-declined" ? USER_REJECTED : INVALID_PARAMS,
      `${answer.detail} [${answer.rule}]`,
    );
  };
  if (provider.elicitation)
    client.setRequestHandler(ElicitRequest, (req, extra) => handle(req.method, req.params, extra.signal));
  if (provider.sampling)
    client.setRequestHandler(SampleRequest, (req, extra) => handle(req.method, req.params, extra.signal));
}
