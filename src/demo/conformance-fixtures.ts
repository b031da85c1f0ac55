// The fixtures the official MCP conformance suite looks for by name (test://static-text,
// test_simple_prompt, test_input_required_result_elicitation, …), built on the same toolkit
// helpers as the demo. Served only by `demo-server --conformance-fixtures`, so the suite can run
// its resources-*, prompts-*, completion-complete, input-required-result-* and legacy
// elicitation/sampling/logging scenarios against the demo without the model ever seeing them.
import {
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  missingCapability,
  type DefinedTool,
  type InputRequest,
  type RunContext,
} from "../server/index.js";
import type { ToolkitServerOptions } from "../server/index.js";
import { renderImage } from "./images.js";

type Fixtures = Required<Pick<ToolkitServerOptions, "tools" | "resources" | "resourceTemplates" | "prompts">>;

const text = (t: string) => [{ type: "text" as const, text: t }];
const nameSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
const PNG = renderImage("conformance", 0, 8, 8).data.toString("base64");

/** A no-argument tool returning one text block (the suite reads `content` in every era). */
function fixtureTool(
  name: string,
  run: (args: Record<string, unknown>, ctx: RunContext) => Promise<string>,
  inputSchema?: Record<string, unknown>,
): DefinedTool<string> {
  return defineTool<Record<string, unknown>, string>({
    name,
    description: `Conformance suite fixture ${name}.`,
    inputSchema: { type: "object", ...(inputSchema ?? {}) },
    outputVariants: [{ audience: "assistant", format: "content", project: (t) => text(t) }],
    run,
  });
}

const elicitName = (message: string): InputRequest => ({
  method: "elicitation/create",
  params: { message, requestedSchema: nameSchema },
});
const contentOf = (a: { content?: unknown }) =>
  a.content && typeof a.content === "object" ? (a.content as Record<string, unknown>) : {};
const sampled = (a: Record<string, unknown>) => {
  const c = a.content as { text?: unknown } | undefined;
  return typeof c?.text === "string" ? c.text : JSON.stringify(a.content);
};

const tools: DefinedTool<string>[] = [
  // 2026-07-28 input-required-result-* (SEP-2322)
  fixtureTool("test_input_required_result_elicitation", async (_a, ctx) => {
    const r = await ctx.input({ user_name: elicitName("What is your name?") });
    return `Hello, ${String(contentOf(r.user_name).name ?? "stranger")}!`;
  }),
  fixtureTool("test_input_required_result_sampling", async (_a, ctx) => {
    const r = await ctx.sample("capital_question", {
      messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
      maxTokens: 100,
    });
    return `The model said: ${sampled(r)}`;
  }),
  fixtureTool("test_input_required_result_list_roots", async (_a, ctx) => {
    const roots = await ctx.listRoots("client_roots");
    return `Roots: ${roots.map((r) => r.uri).join(", ") || "none"}`;
  }),
  fixtureTool("test_input_required_result_request_state", async (_a, ctx) => {
    const r = await ctx.input({
      confirm: {
        method: "elicitation/create",
        params: {
          message: "Please confirm",
          requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
        },
      },
    });
    // Reaching here past round 1 means the toolkit verified the echoed, signed requestState.
    return `${ctx.round > 1 ? "state-ok" : "no state"}: confirmed=${String(contentOf(r.confirm).ok)}`;
  }),
  fixtureTool("test_input_required_result_multiple_inputs", async (_a, ctx) => {
    const r = await ctx.input({
      user_name: elicitName("What is your name?"),
      greeting: {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 },
      },
      client_roots: { method: "roots/list", params: {} },
    });
    return `${sampled(r.greeting)} ${String(contentOf(r.user_name).name)} (${(r.client_roots.roots as unknown[]).length} roots)`;
  }),
  fixtureTool("test_input_required_result_multi_round", async (_a, ctx) => {
    const name = contentOf(
      await ctx.elicit("step1", { message: "Step 1: What is your name?", requestedSchema: nameSchema }),
    ).name;
    const color = contentOf(
      await ctx.elicit("step2", {
        message: "Step 2: What is your favorite color?",
        requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
      }),
    ).color;
    return `${String(name)} likes ${String(color)}`;
  }),
  fixtureTool("test_input_required_result_tampered_state", async (_a, ctx) => {
    await ctx.input({ confirm: elicitName("Who is asking?") });
    return "state verified";
  }),
  fixtureTool("test_input_required_result_capabilities", async (_a, ctx) => {
    // Asks only for what the client declared on this request.
    const wanted: Record<string, InputRequest> = {
      user_name: elicitName("What is your name?"),
      greeting: {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 },
      },
    };
    const asked = Object.fromEntries(
      Object.entries(wanted).filter(([, r]) => !missingCapability(r, ctx.clientCapabilities)),
    );
    const r = await ctx.input(asked);
    return `answered: ${Object.keys(r).join(", ") || "nothing to ask"}`;
  }),
  // 2026-07-28 server-stateless diagnostics
  fixtureTool("test_missing_capability", async (_a, ctx) => {
    // No capability check here on purpose: the toolkit answers -32021 naming sampling.
    const r = await ctx.sample("probe", {
      messages: [{ role: "user", content: { type: "text", text: "ping" } }],
      maxTokens: 10,
    });
    return sampled(r);
  }),
  fixtureTool("test_streaming_elicitation", async (_a, ctx) => {
    await ctx.progress(1, 2);
    const r = await ctx.input({ user_name: elicitName("What is your name?") });
    return `Hello, ${String(contentOf(r.user_name).name)}!`;
  }),
  fixtureTool("test_logging_tool", async (_a, ctx) => {
    await ctx.log("info", "a log only a request with a logLevel receives", "fixture");
    return "logged";
  }),
  // 2025-11-25 (initialize sessions): real server→client requests and logging/setLevel
  fixtureTool(
    "test_elicitation",
    async (a, ctx) => {
      const r = await ctx.elicit("e", {
        message: String(a.message),
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return `User response: ${JSON.stringify(r)}`;
    },
    { properties: { message: { type: "string" } }, required: ["message"] },
  ),
  fixtureTool(
    "test_sampling",
    async (a, ctx) =>
      `LLM response: ${sampled(await ctx.sample("s", { messages: [{ role: "user", content: { type: "text", text: String(a.prompt) } }], maxTokens: 100 }))}`,
    { properties: { prompt: { type: "string" } }, required: ["prompt"] },
  ),
  fixtureTool("test_tool_with_logging", async (_a, ctx) => {
    const pause = () => new Promise((r) => setTimeout(r, 50));
    await ctx.log("info", "Tool execution started");
    await pause();
    await ctx.log("info", "Tool processing data");
    await pause();
    await ctx.log("info", "Tool execution completed");
    return "Tool with logging executed";
  }),
  fixtureTool("test_elicitation_sep1034_defaults", async (_a, ctx) => {
    const r = await ctx.elicit("d", {
      message: "Defaults for every primitive type",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", default: "John Doe" },
          age: { type: "integer", default: 30 },
          score: { type: "number", default: 95.5 },
          status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
          verified: { type: "boolean", default: true },
        },
      },
    });
    return `Elicitation completed: action=${String(r.action)}, content=${JSON.stringify(r.content ?? {})}`;
  }),
  fixtureTool("test_elicitation_sep1330_enums", async (_a, ctx) => {
    const opts = ["option1", "option2", "option3"];
    const r = await ctx.elicit("e", {
      message: "Every enum form",
      requestedSchema: {
        type: "object",
        properties: {
          untitledSingle: { type: "string", enum: opts },
          titledSingle: {
            type: "string",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
              { const: "value3", title: "Third Option" },
            ],
          },
          legacyEnum: {
            type: "string",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"],
          },
          untitledMulti: { type: "array", items: { type: "string", enum: opts } },
          titledMulti: {
            type: "array",
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
                { const: "value3", title: "Third Choice" },
              ],
            },
          },
        },
      },
    });
    return `Elicitation completed: action=${String(r.action)}, content=${JSON.stringify(r.content ?? {})}`;
  }),
];

export function conformanceFixtures(): Fixtures {
  return {
    tools,
    resources: [
      defineResource({
        uri: "test://static-text",
        name: "static-text",
        mimeType: "text/plain",
        read: () => "This is the content of the static text resource.",
      }),
      defineResource({
        uri: "test://static-binary",
        name: "static-binary",
        mimeType: "image/png",
        read: () => ({ blob: PNG }),
      }),
    ],
    resourceTemplates: [
      defineResourceTemplate({
        uriTemplate: "test://template/{id}/data",
        name: "template-data",
        mimeType: "application/json",
        read: ({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        complete: { id: (v) => ["123", "456"].filter((x) => x.startsWith(v)) },
      }),
    ],
    prompts: [
      definePrompt({
        name: "test_simple_prompt",
        description: "A simple prompt",
        get: () => ({
          messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
        }),
      }),
      definePrompt({
        name: "test_prompt_with_arguments",
        description: "A prompt with two arguments",
        arguments: [
          { name: "arg1", description: "First test argument", required: true },
          { name: "arg2", description: "Second test argument", required: true },
        ],
        complete: { arg1: (v) => ["test", "testValue1", "other"].filter((x) => x.startsWith(v)) },
        get: ({ arg1, arg2 }) => ({
          messages: [
            { role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } },
          ],
        }),
      }),
      definePrompt({
        name: "test_prompt_with_embedded_resource",
        description: "A prompt embedding a resource",
        arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
        get: ({ resourceUri }) => ({
          messages: [
            {
              role: "user",
              content: {
                type: "resource",
                resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
              },
            },
            { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
          ],
        }),
      }),
      definePrompt({
        name: "test_prompt_with_image",
        description: "A prompt with an image",
        get: () => ({
          messages: [
            { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
            { role: "user", content: { type: "text", text: "Please analyze the image above." } },
          ],
        }),
      }),
      definePrompt({
        name: "test_input_required_result_prompt",
        description: "A prompt that asks for context first",
        get: async (_args, ctx) => {
          const r = await ctx.input({
            user_context: {
              method: "elicitation/create",
              params: {
                message: "What context should the prompt use?",
                requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
              },
            },
          });
          return {
            messages: [
              {
                role: "user",
                content: { type: "text", text: `Use this context: ${String(contentOf(r.user_context).context)}` },
              },
            ],
          };
        },
      }),
    ],
  };
}
