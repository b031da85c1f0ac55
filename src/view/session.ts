// One session's App Views: which View a call gets (its tool's `ui://` resource, read from the same
// server), what the page receives (the View sink alone, router.ts `toView`), and what a View may ask
// back: tools/call of the same server's App-visible tools through Host.call with the ui outputs
// requested, resources/read of that server's ui:// resources, ui/message and ui/open-link only after
// the user says yes, ui/update-model-context kept for the model's next request, logs and size
// changes as notes for the App pane.
import { readFileSync } from "node:fs";
import { UI_EXTENSION } from "../protocol/index.js";
import { appResourceUri, callableFromApp } from "../host/catalog/app-only.js";
import type { ReadOutcome } from "../host/catalog/resources.js";
import { toView } from "../host/result/router.js";
import type { CallOptions, CallOutcome, Mode, ToolEntry, ViewProjection } from "../host/types.js";
import { viewPolicy, type ViewPolicy } from "./csp.js";
import { CallGate } from "../host/call/gate.js";
import { CallLifecycle } from "../host/call/lifecycle.js";
import { ViewError, ViewServer } from "./server.js";

export const APP_MIME_TYPE = "text/html;profile=mcp-app";
/** The largest App HTML a View is built from. */
export const MAX_VIEW_HTML = 4 * 1024 * 1024;
/** The most Views one session keeps (the oldest is torn down first). */
export const MAX_VIEWS = 32;

/** The page's bundled bridge (scripts/bundle.js): from src|dist/view, or from dist/bundle. */
const PAGE_SCRIPTS = ["../../dist/view-assets/host-page.js", "../view-assets/host-page.js"].map(
  (p) => new URL(p, import.meta.url),
);

export interface ViewNote {
  view: string;
  kind: "shown" | "initialized" | "log" | "size" | "model-context" | "message" | "open-link" | "refused" | "teardown";
  text: string;
}

/** A yes/no question a View's request puts to the user: what the App asks, from which server. */
export interface ViewQuestion {
  kind: "message" | "open-link";
  view: string;
  server: string;
  tool: string;
  /** The message the App would send as the user, or the link it would open (normalised by `new URL()`). */
  text: string;
  /** open-link: the link's host as the browser will resolve it (punycode), shown on its own line. */
  host?: string;
}

/** An App's link as the browser will read it (`new URL()`: punycode host, escaped path), http(s) only. */
export function normaliseLink(raw: string): URL | undefined {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return undefined;
  }
  return u.protocol === "https:" || u.protocol === "http:" ? u : undefined;
}

/** The question as one plain prompt (the CLI's confirm). */
export function viewQuestionText(q: ViewQuestion): string {
  const who = `The App of ${q.tool} (server ${q.server})`;
  return q.kind === "message"
    ? `${who} asks to send this message as you:\n${q.text}\nSend it as your next turn?`
    : `${who} asks to open a link\nhost: ${q.host ?? "?"}\n${q.text}\nOpen it in the browser?`;
}

/** What Views need from the host (the Host satisfies it; so does the chat app's command host). */
export interface ViewHost {
  tools(mode: Mode, waitMs?: number): Promise<ToolEntry[]>;
  call(qualifiedName: string, args: Record<string, unknown>, opts?: CallOptions): Promise<CallOutcome>;
  readResource(uri: string, server?: string): Promise<ReadOutcome>;
}

export interface ViewSessionOptions {
  projection?: ViewProjection;
  /** How long a lookup waits for servers still connecting (default 5 s). */
  waitMs?: number;
  /** Asks the user in the terminal (ui/message, ui/open-link); no asker: refused. */
  confirm?: (question: ViewQuestion) => Promise<boolean>;
  /** A confirmed ui/message: the user's next turn. */
  onUserTurn?: (text: string) => void;
  /** Opens a confirmed link (`$BROWSER`/xdg-open); none: the link is only shown. */
  openLink?: (url: string) => void;
  /**
   * The call lifecycle a View's tools/call goes through (the gate: a tool not marked read-only is
   * asked, with the call's real arguments, or refused). None: such calls are refused.
   */
  calls?: CallLifecycle;
  /** Everything the App pane shows about the Views. */
  onNote?: (n: ViewNote) => void;
}

interface View {
  id: string;
  server: string;
  tool: string;
  html: string;
  policy: ViewPolicy;
  input: Record<string, unknown>;
  result?: Record<string, unknown>;
  cancelled?: string;
  torn?: () => void;
}

export type PresentOutcome = { ok: true; id: string } | { ok: false; rule: string; detail: string };

const textOf = (content: unknown): string =>
  Array.isArray(content)
    ? content
        .map((b) =>
          b && typeof b === "object" && (b as { type?: unknown }).type === "text"
            ? String((b as { text?: unknown }).text ?? "")
            : "",
        )
        .join("\n")
        .slice(0, 20_000)
    : "";

export class ViewSession {
  readonly server: ViewServer;
  private readonly views = new Map<string, View>();
  private next = 1;
  /** ui/update-model-context, per View: what the model gets on its next request (the latest replaces the earlier). */
  private readonly modelContext = new Map<string, { server: string; tool: string; text: string }>();
  private readonly projection: ViewProjection;

  private readonly calls: CallLifecycle;
  private readonly path = (n: string, a: Record<string, unknown>, o: CallOptions) => this.host.call(n, a, o);

  constructor(
    private readonly host: ViewHost,
    private readonly opts: ViewSessionOptions = {},
  ) {
    this.calls = opts.calls ?? new CallLifecycle(new CallGate());
    this.projection = opts.projection ?? "result";
    this.server = new ViewServer({
      pageScript: () => pageScript(),
      proxyOf: (id) => {
        const v = this.views.get(id);
        return v && { csp: v.policy.csp, allow: v.policy.allow };
      },
      onRequest: (id, method, params) => this.request(id, method, params),
      replay: () => [...this.views.values()].flatMap((v) => this.eventsOf(v)),
    });
  }

  start(): Promise<void> {
    return this.server.start();
  }
  get url(): string {
    return this.server.url;
  }

  private note(view: string, kind: ViewNote["kind"], text: string): void {
    this.opts.onNote?.({ view, kind, text });
  }

  private eventsOf(v: View): unknown[] {
    const doc = {
      id: v.id,
      server: v.server,
      tool: v.tool,
      html: v.html,
      proxyUrl: this.server.proxyUrl(v.id),
      allow: v.policy.allow,
      declared: v.policy.declared,
      input: v.input,
    };
    const out: unknown[] = [{ type: "view", view: doc }];
    if (v.result) out.push({ type: "result", id: v.id, payload: v.result });
    else if (v.cancelled !== undefined) out.push({ type: "cancelled", id: v.id, reason: v.cancelled });
    return out;
  }

  /** Opens a View for a call of `entry` (before or after its result): reads the tool's ui:// resource from its server. */
  async open(entry: ToolEntry, input: Record<string, unknown>): Promise<PresentOutcome> {
    const uri = appResourceUri(entry);
    if (!uri)
      return {
        ok: false,
        rule: "no-app",
        detail: `tool ${entry.name} declares no ui:// resource (_meta.ui.resourceUri)`,
      };
    const read = await this.host.readResource(uri, entry.server);
    if (!read.ok) return { ok: false, rule: read.error.rule, detail: read.error.message };
    const c = read.contents.find((x) => x.uri === uri) ?? read.contents[0];
    if (!c || !("text" in c)) return { ok: false, rule: "no-app-html", detail: `${uri}: no text contents` };
    if (c.mimeType !== undefined && c.mimeType !== APP_MIME_TYPE)
      return { ok: false, rule: "not-an-app", detail: `${uri} is ${c.mimeType}, not ${APP_MIME_TYPE}` };
    if (c.text.length > MAX_VIEW_HTML)
      return {
        ok: false,
        rule: "app-too-large",
        detail: `${uri}: ${c.text.length} characters (at most ${MAX_VIEW_HTML})`,
      };
    const policy = viewPolicy(c._meta?.ui, this.server.hostOrigin);
    const id = `v${this.next++}`;
    const view: View = { id, server: entry.server, tool: entry.name, html: c.text, policy, input };
    this.views.set(id, view);
    for (const d of policy.dropped) this.note(id, "refused", `${uri}: ${d}`);
    if (this.views.size > MAX_VIEWS) await this.teardown([...this.views.keys()][0]);
    this.server.broadcast(this.eventsOf(view)[0]);
    this.note(id, "shown", `${entry.server} · ${entry.name}: ${this.server.url}`);
    return { ok: true, id };
  }

  /** The call's result for its View: the View sink of the ui audience, or tool-cancelled when the call failed. */
  deliver(id: string, outcome: CallOutcome): void {
    const v = this.views.get(id);
    if (!v) return;
    if (outcome.ok) {
      v.result = { ...toView(outcome.routed, UI_EXTENSION, this.projection, outcome.isError).payload };
      this.server.broadcast({ type: "result", id, payload: v.result });
    } else {
      v.cancelled = outcome.error.message;
      this.server.broadcast({ type: "cancelled", id, reason: v.cancelled });
    }
  }

  /** Calls `name` in app mode and shows its View with the result (the CLI's `view` and the app's App calls). */
  async present(name: string, args: Record<string, unknown>): Promise<{ outcome?: CallOutcome; view: PresentOutcome }> {
    const entry = (await this.host.tools("app", this.opts.waitMs ?? 5000)).find((t) => t.qualifiedName === name);
    if (!entry) return { view: { ok: false, rule: "unknown-tool", detail: `no tool named ${JSON.stringify(name)}` } };
    const view = await this.open(entry, args);
    // The person named this call (`mcp-prism view TOOL`, /view): their own approval.
    const outcome = await this.calls.run({ source: "user", name, args, entry, opts: { mode: "app" }, via: this.path });
    if (view.ok) this.deliver(view.id, outcome);
    return { outcome, view };
  }

  /** What the Views asked the model to know (ui/update-model-context), taken once for the model's next request. */
  takeModelContext(): { server: string; tool: string; text: string }[] {
    const out = [...this.modelContext.values()];
    this.modelContext.clear();
    return out;
  }

  private async request(id: string, method: string, params: Record<string, unknown>): Promise<unknown> {
    const v = this.views.get(id);
    if (!v) throw new ViewError(-32602, "no such View");
    switch (method) {
      case "tools/call":
        return this.callBack(v, params);
      case "resources/read":
        return this.readBack(v, params);
      case "ui/message": {
        const text = textOf(params.content);
        const yes =
          text !== "" && (await this.ask({ kind: "message", view: id, server: v.server, tool: v.tool, text }));
        this.note(id, "message", yes ? `sent as your turn: ${text.slice(0, 200)}` : "message declined");
        if (yes) this.opts.onUserTurn?.(text);
        return yes ? {} : { isError: true };
      }
      case "ui/update-model-context": {
        const text = [
          textOf(params.content),
          params.structuredContent === undefined ? "" : JSON.stringify(params.structuredContent).slice(0, 20_000),
        ]
          .filter(Boolean)
          .join("\n");
        this.modelContext.set(id, { server: v.server, tool: v.tool, text });
        this.note(id, "model-context", `kept for the model's next request: ${text.slice(0, 200)}`);
        return {};
      }
      case "ui/open-link": {
        // Shown and opened as the browser reads it: the App's raw string can look like another host.
        const raw = typeof params.url === "string" ? params.url.slice(0, 2048) : "";
        const link = normaliseLink(raw);
        const url = link?.href ?? raw;
        const ok =
          link !== undefined &&
          (await this.ask({
            kind: "open-link",
            view: id,
            server: v.server,
            tool: v.tool,
            text: link.href,
            host: link.hostname,
          }));
        this.note(id, "open-link", ok ? `opened ${url} (host ${link.hostname})` : `not opened: ${url}`);
        if (ok) this.opts.openLink?.(link.href);
        return ok ? {} : { isError: true };
      }
      case "notifications/message":
        this.note(id, "log", `${String(params.level ?? "info")}: ${JSON.stringify(params.data ?? "").slice(0, 500)}`);
        return {};
      case "ui/notifications/size-changed":
        this.note(id, "size", `${Number(params.width) || "?"}×${Number(params.height) || "?"}`);
        return {};
      case "ui/notifications/initialized":
        this.note(id, "initialized", `${v.server} · ${v.tool} initialized`);
        return {};
      case "ui/notifications/request-teardown":
        await this.teardown(id);
        return {};
      case "teardown-done":
        v.torn?.();
        return {};
      default:
        throw new ViewError(-32601, `method not offered to Views: ${method.slice(0, 80)}`);
    }
  }

  private async ask(question: ViewQuestion): Promise<boolean> {
    return this.opts.confirm ? this.opts.confirm(question).catch(() => false) : false;
  }

  private refuse(v: View, code: number, why: string): never {
    this.note(v.id, "refused", why);
    throw new ViewError(code, why);
  }

  private async callBack(v: View, params: Record<string, unknown>): Promise<unknown> {
    const name = typeof params.name === "string" ? params.name : "";
    const args = params.arguments === undefined ? {} : params.arguments;
    if (typeof args !== "object" || args === null || Array.isArray(args))
      this.refuse(v, -32602, "tools/call: arguments must be an object");
    const tools = await this.host.tools("app", this.opts.waitMs ?? 5000);
    const entry = tools.find((t) => t.server === v.server && t.name === name);
    if (!entry) this.refuse(v, -32602, `tools/call ${name.slice(0, 80)}: no such tool on server ${v.server}`);
    if (!callableFromApp(entry))
      this.refuse(v, -32602, `tools/call ${name}: not visible to Apps (_meta.ui.visibility has no "app")`);
    const ui = entry.variants
      .filter((x) => x.audience === UI_EXTENSION)
      .map((x) => ({ audience: x.audience, format: x.format }));
    const select = entry.era === "2026-12-01" && ui.length > 0 ? ui : undefined;
    const outcome = await this.calls.run({
      source: "view",
      name: entry.qualifiedName,
      args: args as Record<string, unknown>,
      entry,
      opts: { mode: "app", select },
      via: this.path,
    });
    // Refused by the gate: one line back to the App as the request's error.
    if (!outcome.ok && outcome.error.rule === "not-approved")
      this.refuse(v, -32603, `tools/call ${name}: not approved: ${outcome.error.detail}`);
    this.note(
      v.id,
      "log",
      `tools/call ${name} from the View: ${outcome.ok ? (outcome.isError ? "isError" : "ok") : outcome.error.message}`,
    );
    if (!outcome.ok) return { content: [{ type: "text", text: outcome.error.message }], isError: true };
    return toView(outcome.routed, UI_EXTENSION, "result", outcome.isError).payload;
  }

  private async readBack(v: View, params: Record<string, unknown>): Promise<unknown> {
    const uri = typeof params.uri === "string" ? params.uri : "";
    if (!uri.startsWith("ui://")) this.refuse(v, -32602, `resources/read ${uri.slice(0, 80)}: only ui:// resources`);
    const read = await this.host.readResource(uri, v.server);
    if (!read.ok) this.refuse(v, -32603, read.error.message);
    return { contents: read.contents };
  }

  /** Tears one View down: ui/resource-teardown first (the page waits for the App, at most 2 s), then removed. */
  async teardown(id: string): Promise<void> {
    const v = this.views.get(id);
    if (!v) return;
    const done = new Promise<void>((r) => {
      v.torn = r;
      setTimeout(r, this.server.pages > 0 ? 3000 : 0).unref();
    });
    this.server.broadcast({ type: "teardown", id });
    await done;
    this.views.delete(id);
    this.modelContext.delete(id);
    this.note(id, "teardown", `${v.server} · ${v.tool} torn down`);
  }

  async close(): Promise<void> {
    await Promise.all([...this.views.keys()].map((id) => this.teardown(id)));
    await this.server.close();
  }
}

let cachedScript: string | undefined;
function pageScript(): string {
  for (const u of PAGE_SCRIPTS) {
    if (cachedScript !== undefined) break;
    try {
      cachedScript = readFileSync(u, "utf8");
    } catch {
      // the next place, else the note below
    }
  }
  return (
    cachedScript ?? `document.getElementById("status").textContent = "the View page is not built (npm run build)";`
  );
}
