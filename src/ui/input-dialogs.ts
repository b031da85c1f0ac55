// The chat app's InputProvider: a server's elicitation (form or URL) or sampling request becomes a
// dialog above the prompt (components/InputDialog.tsx), one at a time. An approved sampling
// request is answered by the active model as its own request; its text goes to the server only
// (the transcript notes its size, never its text). Each question and its answer is a transcript
// record (`elicitation`, `sampling`): sanitized by the parse (input-provider.ts) and bounded here;
// records never enter the model's context.
import type {
  ElicitAnswer,
  ElicitRequest,
  InputProvider,
  SampleAnswer,
  SampleRequest,
} from "../host/input/input-provider.js";
import type { ModelAdapter } from "../model/adapter.js";
import { ModelError } from "../model/adapter.js";
import { sampledModelName, sampleWith } from "../model/sampling.js";
import type { SessionStore } from "./state.js";
import type { ViewQuestion } from "../view/session.js";
import type { IssuerQuestion } from "../host/auth/server-auth.js";
import { truncateChars } from "../protocol/sanitize.js";

/** Characters of one answered value, and of a sampling request's texts, the transcript keeps. */
const RECORD_CHARS = 500;
const cut = (s: string) => truncateChars(s, RECORD_CHARS);

/** A form answer as the transcript keeps it: each value's JSON, bounded. */
function recordedContent(content: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (!content) return undefined;
  return Object.fromEntries(
    Object.entries(content)
      .slice(0, 64)
      .map(([k, v]) => [cut(k), cut(JSON.stringify(v) ?? "null")]),
  );
}

export type PendingInput =
  | { kind: "elicit"; req: ElicitRequest; resolve: (a: ElicitAnswer) => void }
  | { kind: "sample"; req: SampleRequest; resolve: (approved: boolean) => void }
  | { kind: "view"; req: ViewQuestion; resolve: (yes: boolean) => void }
  | { kind: "issuer"; req: IssuerQuestion; resolve: (yes: boolean) => void };

export class UiInput implements InputProvider {
  readonly elicitation = { form: true, url: true };
  readonly sampling = true;
  private store: SessionStore | undefined;

  /** `modelOf`: the active model (a function when /model can switch it: sampling follows). */
  constructor(private readonly modelOf: ModelAdapter | (() => ModelAdapter)) {}
  private get model(): ModelAdapter {
    return typeof this.modelOf === "function" ? this.modelOf() : this.modelOf;
  }

  attach(store: SessionStore): void {
    this.store = store;
  }

  /** One dialog at a time, in the store's queue shared with tool approvals. */
  private ask<T>(make: (resolve: (v: T) => void) => PendingInput, aborted: T, signal?: AbortSignal): Promise<T> {
    if (!this.store) return Promise.resolve(aborted);
    return this.store.dialogs.run(
      () =>
        new Promise<T>((resolve) => {
          const store = this.store;
          if (!store || signal?.aborted) return resolve(aborted);
          const done = (v: T) => {
            signal?.removeEventListener("abort", onAbort);
            if (store.getState().input === pending) store.update({ input: undefined });
            resolve(v);
          };
          const onAbort = () => done(aborted); // the server gave up: the dialog goes away
          const pending = make(done);
          signal?.addEventListener("abort", onAbort);
          store.update({ input: pending });
        }),
    );
  }

  async elicit(req: ElicitRequest, signal?: AbortSignal): Promise<ElicitAnswer> {
    const answer = await this.ask<ElicitAnswer>(
      (resolve) => ({ kind: "elicit", req, resolve }),
      { action: "cancel" },
      signal,
    );
    const asked =
      req.mode === "url" ? { url: cut(req.url) } : { fields: req.fields.slice(0, 64).map((f) => cut(f.key)) };
    const content = answer.action === "accept" ? recordedContent(answer.content) : undefined;
    this.store?.record({
      kind: "elicitation",
      server: req.server,
      mode: req.mode,
      message: cut(req.message),
      ...asked,
      action: answer.action,
      ...(content ? { content } : {}),
    });
    return answer;
  }

  /** The host's question before a configured OAuth client first goes to a new issuer (/login). */
  confirmIssuer(req: IssuerQuestion): Promise<boolean> {
    return this.ask<boolean>((resolve) => ({ kind: "issuer", req, resolve }), false);
  }

  /** An App View's ui/message or ui/open-link, asked in its own dialog (in turn with the servers' questions). */
  async askView(req: ViewQuestion): Promise<boolean> {
    const yes = await this.ask<boolean>((resolve) => ({ kind: "view", req, resolve }), false);
    this.store?.record({
      kind: "view-question",
      server: req.server,
      tool: req.tool,
      asks: req.kind,
      text: cut(req.text),
      action: yes ? "accept" : "decline",
    });
    return yes;
  }

  async sample(req: SampleRequest, signal?: AbortSignal): Promise<SampleAnswer> {
    const approved = await this.ask<boolean>((resolve) => ({ kind: "sample", req, resolve }), false, signal);
    const asked = {
      server: req.server,
      messages: req.messages.slice(-8).map((m) => ({ role: m.role, text: cut(m.text) })),
      ...(req.systemPrompt !== undefined ? { systemPrompt: cut(req.systemPrompt) } : {}),
      maxTokens: req.maxTokens,
      ...(req.ignored ? { ignored: req.ignored } : {}),
    };
    if (!approved) {
      this.store?.record({ kind: "sampling", ...asked, action: "decline" });
      return { action: "decline", detail: "the user declined the sampling request" };
    }
    try {
      const text = await sampleWith(this.model, req, signal);
      this.store?.record({
        kind: "sampling",
        ...asked,
        action: "accept",
        model: sampledModelName(this.model),
        sampledChars: text.length,
      });
      this.store?.notice(`sampled ${text.length} characters for server ${req.server} (sent to the server only)`);
      return { action: "accept", text, model: sampledModelName(this.model) };
    } catch (e) {
      const detail = e instanceof ModelError ? e.message : String(e);
      this.store?.record({ kind: "sampling", ...asked, action: "failed", detail: cut(detail) });
      this.store?.notice(`sampling for server ${req.server} failed: ${detail}`, "error");
      return { action: "decline", detail: `the model failed: ${detail}` };
    }
  }
}
