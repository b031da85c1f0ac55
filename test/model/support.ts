// Test support for the model layer (not a test file): an in-memory ToolExecutor whose outcomes
// carry a distinct canary per sink, so a test can see which sink reached a model.
// The real router mints branded entries; here they are cast, which is exactly what production
// code cannot do without an explicit cast.
import type { Rule } from "../../src/protocol/rules.js";
import type {
  AppSinkEntry,
  CallOptions,
  CallOutcome,
  HostReceipt,
  ModelSinkEntry,
  ProgrammaticSinkEntry,
  Routed,
  ToolEntry,
  ToolExecutor,
  UserSinkEntry,
} from "../../src/host/types.js";
import { failedOutcome } from "../../src/host/host-error.js";

export const CANARY = {
  assistant: "CANARY-ASSISTANT-7f3a",
  user: "CANARY-USER-91c2",
  programmatic: "CANARY-PROGRAMMATIC-5d08",
  app: "CANARY-APP-2b6e",
  meta: "CANARY-META-c4d1",
};
// Distinct bytes (both valid base64): a red 1x1 PNG for the assistant, a blue one for the user.
export const ASSISTANT_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
export const USER_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC";

export function tool(name: string, extra: Partial<ToolEntry> = {}): ToolEntry {
  return {
    server: "test",
    name,
    qualifiedName: name,
    inputSchema: { type: "object", properties: {} },
    era: "2026-12-01",
    variants: [{ audience: "assistant", format: "content" }],
    ...extra,
  };
}

export function canaryRouted(): Routed {
  return {
    model: [
      {
        audience: "assistant",
        format: "content",
        content: [
          { type: "text", text: `model text ${CANARY.assistant}` },
          { type: "image", data: ASSISTANT_PNG, mimeType: "image/png" },
        ],
      } as ModelSinkEntry,
    ],
    user: [
      {
        audience: "user",
        format: "content",
        content: [
          { type: "text", text: `user text ${CANARY.user}` },
          { type: "image", data: USER_PNG, mimeType: "image/png" },
        ],
      } as UserSinkEntry,
    ],
    programmatic: [
      {
        audience: "programmatic",
        format: "structured",
        structuredContent: { id: CANARY.programmatic },
      } as ProgrammaticSinkEntry,
    ],
    app: [
      {
        audience: "io.modelcontextprotocol/ui",
        format: "structured",
        structuredContent: { v: CANARY.app },
      } as unknown as AppSinkEntry,
    ],
    appMeta: { "io.modelcontextprotocol/ui": { m: CANARY.meta } },
  };
}

/** Code mode: the model sink is empty, the host writes a receipt. */
export function codeModeRouted(): { routed: Routed; receipt: HostReceipt } {
  const r = canaryRouted();
  return {
    routed: { ...r, model: [] },
    receipt: {
      kind: "receipt",
      text: "search_customers: programmatic/structured 1 kB went to program logic, not to you.",
    },
  };
}

export interface RecordedCall {
  name: string;
  args: Record<string, unknown>;
  opts?: CallOptions;
}

export class FakeExecutor implements ToolExecutor {
  readonly calls: RecordedCall[] = [];
  constructor(
    private readonly tools: ToolEntry[],
    private readonly outcome: (
      name: string,
      args: Record<string, unknown>,
    ) => Partial<Extract<CallOutcome, { ok: true }>> | { error: { rule: Rule; detail: string } } = () => ({
      routed: canaryRouted(),
    }),
    private readonly instr: { server: string; text: string }[] = [],
  ) {}
  modelTools(): ToolEntry[] {
    return this.tools;
  }
  instructions() {
    return this.instr;
  }
  async call(name: string, args: Record<string, unknown>, opts?: CallOptions): Promise<CallOutcome> {
    this.calls.push({ name, args, opts });
    const entry = this.tools.find((t) => t.qualifiedName === name)!;
    const plan = {
      server: entry.server,
      tool: entry.name,
      args,
      requested: undefined,
      era: entry.era,
      protocolVersion: "2026-12-01",
      mode: opts?.mode ?? "chat",
    };
    const o = this.outcome(name, args);
    if ("error" in o) return failedOutcome(plan, o.error.rule, o.error.detail, 1);
    return {
      ok: true,
      plan,
      isError: false,
      routed: canaryRouted(),
      bytes: { model: 0, user: 0, programmatic: 0, app: 0 },
      durationMs: 1,
      ...o,
    };
  }
}
