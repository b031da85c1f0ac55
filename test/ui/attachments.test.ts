// `@URI` attachment, end to end below the terminal: a real Host on the in-memory resources
// server (test/fixtures/resource-server.ts, both eras), the real ChatSession, runTurn and
// context builder, and a model adapter that records every request. Canary: a resource's text
// reaches the model only when the user attached it — never from /read, /resources or /open.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Host } from "../../src/host/host.js";
import type { ModelAdapter, ModelRequest } from "../../src/model/adapter.js";
import { ANTHROPIC_CAPABILITIES } from "../../src/model/context.js";
import { Conversation } from "../../src/model/conversation.js";
import { OfflineModel } from "../../src/model/offline.js";
import { runTurn } from "../../src/model/turn.js";
import { attachmentRefs } from "../../src/ui/attachments.js";
import { dispatch } from "../../src/ui/commands/index.js";
import { ChatSession, type TurnRunner } from "../../src/ui/session.js";
import { SessionStore } from "../../src/ui/state.js";
import { config } from "../helpers/host-fixtures.js";
import { memoryServers } from "../helpers/in-memory.js";
import { CANARY, resourceServer } from "../fixtures/resource-server.js";
import { okOutcome } from "./harness.js";

/** The offline model, with every request it was given kept as JSON. */
function recording(): { adapter: ModelAdapter; seen: string[] } {
  const offline = new OfflineModel({ chunkDelayMs: 0 });
  const seen: string[] = [];
  return {
    seen,
    adapter: {
      id: "recording",
      capabilities: ANTHROPIC_CAPABILITIES,
      respond: (req: ModelRequest) => (seen.push(JSON.stringify(req)), offline.respond(req)),
    },
  };
}

const notices = (store: SessionStore) =>
  [...store.getState().finished.flatMap((t) => t.items), ...(store.getState().live?.items ?? [])]
    .filter((i) => i.kind === "notice" || i.kind === "assistant")
    .map((i) => ("text" in i ? i.text : ""));

test("attachmentRefs: @ at a word start, then a URI with a scheme", () => {
  assert.deepEqual(attachmentRefs("see @file:///a.txt and @secret://canary, twice @file:///a.txt"), [
    "file:///a.txt",
    "secret://canary,",
  ]);
  assert.deepEqual(attachmentRefs("mail me@example.com or @alice"), []);
});

for (const era of ["modern", "legacy"] as const) {
  describe(`@ attachment, ${era} era`, () => {
    const memory = memoryServers({ res: resourceServer(era) });
    let host: Host;
    const { adapter, seen } = recording();
    const conversation = new Conversation();
    const store = new SessionStore();
    let session: ChatSession;
    before(async () => {
      host = await Host.start({ config: config(memory.servers), transport: memory.transport, eraCache: false });
      const runner: TurnRunner = async (prompt, opts) => {
        const r = await runTurn({
          adapter,
          executor: opts.executor,
          conversation,
          prompt,
          attachments: opts.attachments,
          mode: opts.mode,
          signal: opts.signal,
          events: (e) => e.type === "text" && opts.onText(e.delta),
        });
        return r.error ? { error: r.error.message } : {};
      };
      session = new ChatSession({ store, executor: host, host, runTurn: runner, autoApprove: true });
    });
    after(() => host.close());

    test("/resources and /read show the canary resource to the user; the model never gets it", async () => {
      await dispatch("/resources", session.commandContext());
      await dispatch("/read secret://canary", session.commandContext());
      assert.ok(
        notices(store).some((t) => t.includes(`the canary is ${CANARY}`)),
        "the user sees the resource",
      );
      assert.ok(
        notices(store).some((t) => /secret:\/\/canary {2}canary \(text\/plain\)/.test(t)),
        "listed",
      );
      // A tool's user output links the canary resource and embeds another: /open shows each here.
      const id = store.toolStart("res", "linker", {});
      const link = { type: "resource_link", uri: "secret://canary", name: "canary", mimeType: "text/plain" };
      const embedded = {
        type: "resource",
        resource: { uri: "mem://embedded", mimeType: "text/plain", text: `embedded ${CANARY}` },
      };
      store.toolEnd(
        id,
        okOutcome(
          { user: [{ audience: "user", format: "content", content: [link, embedded] as never }] },
          { server: "res", tool: "linker" },
        ),
      );
      const [a, b] = store
        .getState()
        .saveables.slice(-2)
        .map((x) => x.n);
      await dispatch(`/open ${a}`, session.commandContext());
      await dispatch(`/open ${b}`, session.commandContext());
      const shown = notices(store);
      assert.ok(
        shown.some((t) => t.startsWith("res · secret://canary\n") && t.includes(`the canary is ${CANARY}`)),
        shown.join("\n"),
      );
      assert.ok(
        shown.some((t) => t.startsWith("res · mem://embedded\n") && t.includes(`[${b}] mem://embedded · text/plain`)),
        "the embedded resource keeps its number",
      );
      await session.submit("hello there");
      assert.equal(seen.length, 1);
      assert.ok(!seen.join("").includes(CANARY), "an unattached resource never reaches the model");
    });

    test("a resource_link in model-bound (legacy) content is numbered and /open reads it here, not for the model", async () => {
      const id = store.toolStart("res", "legacy_linker", {});
      const link = { type: "resource_link", uri: "secret://canary", name: "canary" };
      store.toolEnd(
        id,
        okOutcome(
          {
            model: [
              {
                audience: "assistant",
                format: "content",
                content: [{ type: "text", text: "see the link" }, link] as never,
              },
            ],
          },
          { server: "res", tool: "legacy_linker" },
        ),
      );
      const n = store.getState().saveables.at(-1)!.n;
      assert.ok(notices(store).includes(`[${n}] resource link secret://canary — /open ${n} shows it here`));
      const before = seen.length;
      await dispatch(`/open ${n}`, session.commandContext());
      assert.equal(seen.length, before, "opening sends nothing to the model");
      assert.ok(
        notices(store).filter((t) => t.startsWith("res · secret://canary\n") && t.includes(`the canary is ${CANARY}`))
          .length >= 1,
      );
    });

    test("an attached resource enters the model's context on the user's turn, shown there", async () => {
      await session.submit("summarise @secret://canary please");
      const request = JSON.parse(seen.at(-1)!) as ModelRequest;
      const last = request.messages.at(-1)!;
      assert.equal(last.role, "user");
      const texts = last.content.map((b) => (b.type === "text" ? b.text : ""));
      assert.match(
        texts[0],
        new RegExp(
          `^The user attached the resource secret://canary \\(from MCP server "res", text/plain\\):\\nthe canary is ${CANARY}$`,
        ),
      );
      assert.equal(texts.at(-1), "summarise @secret://canary please", "the prompt stays the last block");
      assert.ok(!JSON.stringify(request.system).includes(CANARY), "not in the system prompt");
      assert.ok(
        notices(store).some((t) => /^attached res · secret:\/\/canary \(\d+ B\)$/.test(t)),
        "shown on the user's turn",
      );
      assert.ok(
        notices(store).some((t) => t.startsWith("I was given the attached secret://canary")),
        "the model's reply says so",
      );
    });

    test("an attachment that cannot be read stops the turn with one line; nothing is sent", async () => {
      const before = seen.length;
      await session.submit("look at @nope://missing");
      await session.submit("look at @file:///dot.bin");
      assert.equal(seen.length, before, "no model request");
      const lines = notices(store);
      assert.ok(
        lines.some((t) =>
          /^@nope:\/\/missing: server res, resource nope:\/\/missing: error -32002: no resource nope:\/\/missing; not sent$/.test(
            t,
          ),
        ),
        lines.join("\n"),
      );
      assert.ok(lines.some((t) => t.startsWith("@file:///dot.bin: no text to attach (binary contents")));
    });
  });
}
