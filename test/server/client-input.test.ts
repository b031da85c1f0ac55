// Input from the client (elicitation, sampling, roots) over REAL stdio and REAL Streamable HTTP
// against the built demo server, in every era where it differs:
// - 2026-12-01 and 2026-07-28: an input_required result (SEP-2322), retried with inputResponses
//   and the signed requestState echoed; a changed or foreign state is refused (-32602).
// - 2025-11-25: real elicitation/create, sampling/createMessage and roots/list requests, answered
//   by the TypeScript SDK 1.32.2 client's handlers (stdio, and the POST's SSE stream over HTTP).
// - A client that declared none of these capabilities gets a clear tool error, in every era.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CLI, REPO_ROOT } from "../helpers/raw-stdio.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/raw-http.js";
import { httpWire, stdioWire, type Wire } from "./wire.js";

const ASKING = { elicitation: { form: {} }, sampling: {}, roots: {} };
const text = (r: any): string =>
  JSON.stringify(
    r.outputs ? r.outputs.filter((o: any) => o.format === "content").flatMap((o: any) => o.content) : r.content,
  );

function mrtrCases(name: string, open: () => Promise<Wire>) {
  describe(`MRTR over ${name}`, () => {
    let w: Wire;
    before(async () => {
      w = await open();
    });
    after(() => w.close());
    const call = (version: string, tool: string, args: object, extra: object = {}, caps: object = ASKING) =>
      w.modern(
        "tools/call",
        { name: tool, arguments: args, ...extra },
        { version, caps: caps as Record<string, unknown> },
      );

    for (const version of ["2026-12-01", "2026-07-28"]) {
      it(`${version}: draft_email asks through input_required, then completes with the answer`, async () => {
        const first = (await call(version, "draft_email", { customerId: "cust_1005" })).result;
        assert.equal(first.resultType, "input_required");
        assert.deepEqual(Object.keys(first.inputRequests), ["email"]);
        assert.equal(first.inputRequests.email.method, "elicitation/create");
        assert.deepEqual(first.inputRequests.email.params.requestedSchema.required, ["subject"]);
        assert.equal(typeof first.requestState, "string");
        assert.ok(!("outputs" in first) && !("content" in first), "no result content before the answer");
        const answer = { email: { action: "accept", content: { subject: "Renewal terms", tone: "formal" } } };
        const done = (
          await call(
            version,
            "draft_email",
            { customerId: "cust_1005" },
            { inputResponses: answer, requestState: first.requestState },
          )
        ).result;
        assert.equal(done.resultType, "complete");
        assert.match(text(done), /Renewal terms/);
        assert.equal(done.isError, undefined);
      });
      it(`${version}: a declined form completes with nothing drafted`, async () => {
        const first = (await call(version, "draft_email", { customerId: "cust_1005" })).result;
        const done = (
          await call(
            version,
            "draft_email",
            { customerId: "cust_1005" },
            { inputResponses: { email: { action: "decline" } }, requestState: first.requestState },
          )
        ).result;
        assert.match(text(done), /chose decline; nothing was drafted/);
      });
      it(`${version}: an altered requestState, or one from other arguments, is -32602`, async () => {
        const first = (await call(version, "draft_email", { customerId: "cust_1005" })).result;
        const answer = { email: { action: "accept", content: { subject: "x" } } };
        const [body, mac] = first.requestState.split(".");
        const forged = `${Buffer.from(Buffer.from(body, "base64url").toString().replace('"r":2', '"r":3')).toString("base64url")}.${mac}`;
        const tampered = await call(
          version,
          "draft_email",
          { customerId: "cust_1005" },
          { inputResponses: answer, requestState: forged },
        );
        assert.equal(tampered.error?.code, -32602);
        assert.match(tampered.error!.message, /integrity/);
        const moved = await call(
          version,
          "draft_email",
          { customerId: "cust_1007" },
          { inputResponses: answer, requestState: first.requestState },
        );
        assert.equal(moved.error?.code, -32602);
        assert.match(moved.error!.message, /another request/);
      });
      it(`${version}: an answer that is not an ElicitResult is -32602 naming its key`, async () => {
        const first = (await call(version, "draft_email", { customerId: "cust_1005" })).result;
        const r = await call(
          version,
          "draft_email",
          { customerId: "cust_1005" },
          { inputResponses: { email: { action: "maybe" } }, requestState: first.requestState },
        );
        assert.equal(r.error?.code, -32602);
        assert.match(r.error!.message, /"email" has no action/);
      });
      it(`${version}: account_brief samples, list_roots lists roots`, async () => {
        const first = (await call(version, "account_brief", { customerId: "cust_1005" })).result;
        assert.equal(first.inputRequests.brief.method, "sampling/createMessage");
        assert.equal(first.inputRequests.brief.params.maxTokens, 200);
        const sampled = {
          brief: {
            role: "assistant",
            content: { type: "text", text: "Monarch Hotels is a small LATAM account." },
            model: "test-model",
          },
        };
        const brief = (
          await call(
            version,
            "account_brief",
            { customerId: "cust_1005" },
            { inputResponses: sampled, requestState: first.requestState },
          )
        ).result;
        assert.match(text(brief), /by test-model\): Monarch Hotels is a small LATAM account/);
        const roots1 = (await call(version, "list_roots", {})).result;
        assert.equal(roots1.inputRequests.roots.method, "roots/list");
        const roots = { roots: { roots: [{ uri: "file:///work/project", name: "project" }] } };
        const listed = (
          await call(version, "list_roots", {}, { inputResponses: roots, requestState: roots1.requestState })
        ).result;
        assert.match(text(listed), /project: file:\/\/\/work\/project/);
      });
      it(`${version}: without the client capability, a clear tool error (no input_required)`, async () => {
        for (const [tool, cap] of [
          ["draft_email", "elicitation"],
          ["account_brief", "sampling"],
          ["list_roots", "roots"],
        ] as const) {
          const r = (await call(version, tool, tool === "list_roots" ? {} : { customerId: "cust_1005" }, {}, {}))
            .result;
          assert.equal(r.resultType, "complete", tool);
          assert.equal(r.isError, true, tool);
          assert.match(text(r), new RegExp(`did not declare the ${cap} capability`), tool);
        }
      });
    }
  });
}

mrtrCases("stdio", stdioWire);
mrtrCases("Streamable HTTP", () => httpWire());

/** A real SDK 1.32.2 client that answers every kind of input request and records what it was asked. */
async function answeringClient(transport: Transport, caps: Record<string, unknown> = ASKING) {
  const asked: string[] = [];
  const client = new Client({ name: "sdk-legacy-input", version: "0" }, { capabilities: caps });
  // The SDK refuses a handler for a capability the client did not declare.
  if (caps.elicitation)
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(`elicit:${req.params.message}`);
      return { action: "accept", content: { subject: "Quarterly check-in", tone: "brief" } };
    });
  if (caps.sampling)
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      asked.push(`sample:${req.params.maxTokens}`);
      return { role: "assistant", content: { type: "text", text: "A steady starter account." }, model: "sdk-model" };
    });
  if (caps.roots)
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked.push("roots");
      return { roots: [{ uri: "file:///srv/data", name: "data" }] };
    });
  await client.connect(transport);
  return { client, asked };
}

function legacyCases(name: string, transport: () => Transport) {
  describe(`2025-11-25 server→client requests over ${name} (SDK 1.32.2 client)`, () => {
    it("draft_email, account_brief and list_roots ask the client in place", async () => {
      const { client, asked } = await answeringClient(transport());
      try {
        const draft = await client.callTool({ name: "draft_email", arguments: { customerId: "cust_1005" } });
        assert.match(JSON.stringify(draft.content), /Quarterly check-in/);
        const brief = await client.callTool({ name: "account_brief", arguments: { customerId: "cust_1005" } });
        assert.match(JSON.stringify(brief.content), /by sdk-model\): A steady starter account/);
        const roots = await client.callTool({ name: "list_roots", arguments: {} });
        assert.match(JSON.stringify(roots.content), /data: file:\/\/\/srv\/data/);
        assert.deepEqual(asked, [
          "elicit:Draft an email to Monarch Hotels: what subject and tone?",
          "sample:200",
          "roots",
        ]);
      } finally {
        await client.close();
      }
    });
    it("a client without those capabilities gets a tool error and is never asked", async () => {
      const { client, asked } = await answeringClient(transport(), {});
      try {
        const r = await client.callTool({ name: "draft_email", arguments: { customerId: "cust_1005" } });
        assert.equal(r.isError, true);
        assert.match(JSON.stringify(r.content), /did not declare the elicitation capability/);
        assert.deepEqual(asked, []);
      } finally {
        await client.close();
      }
    });
  });
}

legacyCases(
  "stdio",
  () =>
    new StdioClientTransport({ command: process.execPath, args: [CLI, "demo-server"], cwd: REPO_ROOT, stderr: "pipe" }),
);

describe("(HTTP server)", () => {
  let srv: HttpServerProcess;
  before(async () => {
    srv = await startHttpServer();
  });
  after(() => srv.close());
  legacyCases("Streamable HTTP", () => new StreamableHTTPClientTransport(new URL(srv.url)));
});
