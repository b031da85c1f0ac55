// Validates JSON-RPC messages against the published MCP schema of the era they are sent in
// (test/fixtures/spec/). 2026-12-01 is 2026-07-28 plus SEP-3279: Tool gains the required
// `outputVariants` (and loses `outputSchema`), CallToolResult carries `outputs` instead of
// `content`/`structuredContent`. Not a test file.
import { readFileSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { REPO_ROOT } from "../helpers/raw-stdio.js";
import type { JsonRpcMessage } from "../helpers/raw-stdio.js";

export type SchemaEra = "2026-12-01" | "2026-07-28" | "2025-11-25";

const load = (name: string) =>
  JSON.parse(readFileSync(`${REPO_ROOT}test/fixtures/spec/${name}`, "utf8")) as { $defs: Record<string, any> };

function sep3279(): { $defs: Record<string, any> } {
  const s = load("schema-2026-07-28.json");
  const d = s.$defs;
  const selector = { audience: { type: "string", minLength: 1 }, format: { enum: ["content", "structured"] } };
  d.ToolResultVariant = {
    type: "object",
    properties: { ...selector, schema: { type: "object" } },
    required: ["audience", "format"],
  };
  d.ToolResultOutput = {
    oneOf: [
      {
        type: "object",
        properties: {
          ...selector,
          format: { const: "content" },
          content: { type: "array", items: { $ref: "#/$defs/ContentBlock" } },
        },
        required: ["audience", "format", "content"],
      },
      {
        type: "object",
        properties: { ...selector, format: { const: "structured" }, structuredContent: {} },
        required: ["audience", "format", "structuredContent"],
      },
    ],
  };
  const tool = structuredClone(d.Tool);
  delete tool.properties.outputSchema;
  tool.properties.outputVariants = { type: "array", items: { $ref: "#/$defs/ToolResultVariant" } };
  tool.required = [...tool.required, "outputVariants"];
  tool.not = { required: ["outputSchema"] };
  d.Tool = tool;
  d.CallToolResult = {
    type: "object",
    properties: {
      _meta: { $ref: "#/$defs/ResultMetaObject" },
      resultType: { type: "string" },
      outputs: { type: "array", items: { $ref: "#/$defs/ToolResultOutput" } },
      isError: { type: "boolean" },
    },
    required: ["outputs", "resultType"],
    not: { anyOf: [{ required: ["content"] }, { required: ["structuredContent"] }] },
  };
  return s;
}

const RESULT_DEF: Record<string, string> = {
  initialize: "InitializeResult",
  ping: "EmptyResult",
  "server/discover": "DiscoverResult",
  "tools/list": "ListToolsResult",
  "tools/call": "CallToolResult",
  "resources/list": "ListResourcesResult",
  "resources/templates/list": "ListResourceTemplatesResult",
  "resources/read": "ReadResourceResult",
  "prompts/list": "ListPromptsResult",
  "prompts/get": "GetPromptResult",
  "completion/complete": "CompleteResult",
  "logging/setLevel": "EmptyResult",
};
/** Methods whose modern result may be an InputRequiredResult (SEP-2322). */
const MAY_REQUIRE_INPUT = new Set(["tools/call", "prompts/get", "resources/read"]);
const NOTIFICATION_DEF: Record<string, string> = {
  "notifications/progress": "ProgressNotification",
  "notifications/message": "LoggingMessageNotification",
};

export class WireSchema {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv.addSchema(load("schema-2026-07-28.json"), "2026-07-28");
    this.ajv.addSchema(load("schema-2025-11-25.json"), "2025-11-25");
    this.ajv.addSchema(sep3279(), "2026-12-01");
  }

  private validator(era: SchemaEra, def: string): ValidateFunction {
    const key = `${era}#/$defs/${def}`;
    let v = this.cache.get(key);
    if (!v) {
      v = this.ajv.getSchema(key);
      if (!v) throw new Error(`no schema ${key}`);
      this.cache.set(key, v);
    }
    return v;
  }

  /**
   * The violations of one message the server sent: a response to `method` (a result or an error)
   * or a notification. [] when valid.
   */
  check(era: SchemaEra, message: JsonRpcMessage, method?: string): string[] {
    const errs: string[] = [];
    const run = (def: string, value: unknown) => {
      const v = this.validator(era, def);
      if (!v(value)) errs.push(...(v.errors ?? []).map((e) => `${def}${e.instancePath} ${e.message}`));
    };
    if (message.method !== undefined) {
      const def = NOTIFICATION_DEF[message.method];
      if (!def) return [`the server sent ${message.method}, which this test does not expect`];
      run(def, message);
    } else if (message.error !== undefined) {
      run("JSONRPCErrorResponse", message);
    } else {
      run("JSONRPCResultResponse", message);
      const inputRequired = (message.result as { resultType?: unknown } | undefined)?.resultType === "input_required";
      if (inputRequired && (era === "2025-11-25" || !MAY_REQUIRE_INPUT.has(method ?? "")))
        return [`an input_required result to ${method}, which may not have one`];
      const def = inputRequired ? "InputRequiredResult" : method && RESULT_DEF[method];
      if (!def) return [`a result to ${method ?? "an unknown request"}, which this test does not map`];
      run(def, message.result);
    }
    return errs;
  }
}
