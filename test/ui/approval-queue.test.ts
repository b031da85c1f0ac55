// The app's dialogs take turns: an approval asked while another approval or a server's/View's
// question is open waits (it used to replace the open one, whose promise then never settled).
import { test } from "node:test";
import assert from "node:assert/strict";
import { SessionStore } from "../../src/ui/state.js";
import { UiInput } from "../../src/ui/input-dialogs.js";
import { OfflineModel } from "../../src/model/offline.js";
import { appCalls } from "../../src/ui/calls.js";
import type { ToolEntry } from "../../src/host/types.js";

/** Resolves when the store's state satisfies `ok` (checked on every update). */
function when(store: SessionStore, ok: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (ok()) return resolve();
    const off = store.subscribe(() => ok() && (off(), resolve()));
  });
}

test("a View's approval asked while a turn's approval is open waits its turn; both settle", async () => {
  const store = new SessionStore();
  const calls = appCalls(
    store,
    false,
    async (name, args) =>
      ({
        ok: true,
        plan: { server: "s", tool: name, args, requested: undefined, era: "legacy", protocolVersion: "", mode: "chat" },
        isError: false,
        durationMs: 0,
        routed: { assistant: [], user: [], programmatic: [], app: [] },
      }) as never,
  );
  const wipe = {
    server: "s",
    name: "wipe",
    qualifiedName: "wipe",
    inputSchema: { type: "object" },
    era: "legacy",
    variants: [],
  } as unknown as ToolEntry;
  const turn = calls.run({ source: "model", name: "wipe", args: { path: "/turn" }, entry: wipe });
  await when(store, () => store.getState().approval !== undefined);
  const view = calls.run({ source: "view", name: "wipe", args: { path: "/view", recursive: true }, entry: wipe });
  const first = store.getState().approval!;
  assert.deepEqual(first.args, { path: "/turn" });
  first.resolve("no");
  await when(store, () => store.getState().approval !== undefined && store.getState().approval !== first);
  // 27.4: the View's approval shows the arguments the server would get.
  assert.deepEqual(store.getState().approval!.args, { path: "/view", recursive: true });
  store.getState().approval!.resolve("yes");
  const [a, b] = await Promise.all([turn, view]);
  assert.equal(a.ok ? "" : a.error.rule, "not-approved");
  assert.equal(b.ok, true);
});

test("approvals and the servers' questions share one queue: a question waits for an open approval", async () => {
  const store = new SessionStore();
  const input = new UiInput(new OfflineModel());
  input.attach(store);
  const approval = store.askApproval("s", "wipe", { path: "/" });
  const question = input.askView({ kind: "message", view: "v1", server: "s", tool: "t", text: "hi" });
  await when(store, () => store.getState().approval !== undefined);
  assert.equal(store.getState().input, undefined, "the View's question waits");
  store.getState().approval!.resolve("yes");
  assert.equal(await approval, "yes");
  await when(store, () => store.getState().input !== undefined);
  const pending = store.getState().input!;
  assert.equal(pending.kind, "view");
  (pending.resolve as (v: boolean) => void)(true);
  assert.equal(await question, true);
});
