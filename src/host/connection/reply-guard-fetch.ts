// reply-guard.ts for the SDK's legacy Streamable HTTP client transport, which parses replies itself
// (a JSON body or SSE stream per POST) and drops what fails its schema: a request then waited for
// its timeout. Wrapped around the fetch it is given, this rewrites each POSTed request's reply
// before the SDK reads it — a malformed reply becomes the request's refusal error, a BOM is
// dropped, lone-CR SSE line ends become LF, and a stream that ends without the response (and
// without an event id to resume from) gets the refusal as its last event.
import { stripBom, type RpcId } from "../../protocol/reply-check.js";
import { splitSseLines, sseField } from "../../protocol/sse-lines.js";
import { guardIncoming, refusalError } from "./reply-guard.js";

export function guardRepliesFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    const id = init?.method === "POST" ? requestId(init.body) : undefined;
    if (id === undefined || !res.ok || res.status === 202 || !res.body) return res;
    const type = (res.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    headers.delete("content-encoding");
    const reply = (body: string | ReadableStream<Uint8Array>) =>
      new Response(body, { status: res.status, statusText: res.statusText, headers });
    if (type === "application/json") return reply(JSON.stringify(guardJsonBody(await res.text(), id)));
    if (type === "text/event-stream") {
      return reply(
        res.body.pipeThrough(new TextDecoderStream()).pipeThrough(sseGuard(id)).pipeThrough(new TextEncoderStream()),
      );
    }
    return res;
  };
}

/** The id of a single JSON-RPC request in a POST body (a notification or response has none). */
function requestId(body: unknown): RpcId | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const m = JSON.parse(body) as { id?: unknown; method?: unknown };
    return typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number") ? m.id : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON body as what the SDK should deliver: the reply, or the request's refusal. */
function guardJsonBody(text: string, id: RpcId): unknown {
  let value: unknown;
  try {
    value = JSON.parse(stripBom(text));
  } catch {
    return refusalError(id, "the reply body is not JSON");
  }
  const { deliver } = guardIncoming(value, { pending: [id], exchange: id });
  const answers = deliver.some((m) => "id" in m && m.id === id && !("method" in m));
  return answers
    ? deliver.length === 1
      ? deliver[0]
      : deliver
    : refusalError(id, "the reply body is no response to the request");
}

/** Rewrites an SSE stream event by event (see the top of the file). */
function sseGuard(id: RpcId): TransformStream<string, string> {
  let buffer = "";
  let fields: string[] = [];
  let data: string[] | undefined;
  let answered = false;
  let resumable = false;
  const event = (out: TransformStreamDefaultController<string>) => {
    let text = data?.join("\n");
    if (text !== undefined && !answered) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined; // not JSON: passed on as it is (the SDK reports it)
      }
      const deliver = value === undefined ? [] : guardIncoming(value, { pending: [id], exchange: id }).deliver;
      if (deliver.length > 0) {
        if (deliver.some((m) => "id" in m && m.id === id && !("method" in m))) answered = true;
        text = JSON.stringify(deliver.length === 1 ? deliver[0] : deliver);
      }
    }
    const dataLines = text === undefined ? "" : `data: ${text.replace(/\n/g, "\ndata: ")}\n`;
    if (fields.length > 0 || dataLines) out.enqueue(`${fields.map((f) => `${f}\n`).join("")}${dataLines}\n`);
    fields = [];
    data = undefined;
  };
  const lines = (final: boolean, out: TransformStreamDefaultController<string>) => {
    const split = splitSseLines(buffer, final);
    buffer = split.rest;
    for (const line of split.lines) {
      if (line === "") {
        event(out);
        continue;
      }
      const field = sseField(line);
      if (field?.[0] === "data") (data ??= []).push(field[1]);
      else if (field) {
        if (field[0] === "id" && field[1] !== "") resumable = true;
        fields.push(line);
      }
    }
  };
  return new TransformStream({
    transform(chunk, out) {
      buffer += chunk;
      lines(false, out);
    },
    flush(out) {
      lines(true, out);
      event(out);
      // An event id lets the SDK resume the stream with GET: the response may still come there.
      if (!answered && !resumable)
        out.enqueue(
          `data: ${JSON.stringify(refusalError(id, "the SSE stream ended without a response to the request"))}\n\n`,
        );
    },
  });
}
