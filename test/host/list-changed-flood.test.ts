// Hostile input: a server floods tools/prompts/resources list_changed during one call. The host
// re-lists each at most once in flight and once pending (not once per notification), and the
// app's notices come per re-list, not per notification.
import { it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import { config, ROOT } from "../helpers/host-fixtures.js";
import { FLOOD } from "../fixtures/list-flood-server.js";

it(`${FLOOD} list_changed of each kind during one call: at most one re-list in flight and one pending`, async () => {
  const fixture = {
    kind: "stdio" as const,
    command: process.execPath,
    args: ["--import", "tsx", join(ROOT, "test", "fixtures", "list-flood-server.ts")],
    cwd: ROOT,
  };
  const host = await Host.start({ config: config({ flood: fixture }), eraCache: false });
  try {
    await host.prompts.all(); // listed once, so a change re-lists them
    const events: Record<string, number> = { tools: 0, prompts: 0, resources: 0 };
    const seenAll = new Promise<void>((resolve) =>
      host.on("list-changed", ({ list }: { list: string }) => {
        events[list]++;
        // With coalescing the second re-list of each is the last one; without, these come at once.
        if (events.tools >= 2 && events.prompts >= 2 && events.resources >= 1) resolve();
      }),
    );
    const flood = await host.call("flood", {});
    assert.ok(flood.ok, flood.ok ? "" : flood.error.message);
    await seenAll;
    const counted = await host.call("count", {});
    assert.ok(counted.ok, counted.ok ? "" : counted.error.message);
    const seen = JSON.parse(
      JSON.stringify(counted.routed.model)
        .match(/\{\\"toolsList.*?\}/)![0]
        .replace(/\\"/g, '"'),
    );
    // 1 for the first listing, then at most 2 for the flood (not 2,001).
    assert.ok(seen.toolsList <= 3, `tools/list requests: ${seen.toolsList}`);
    assert.ok(seen.promptsList <= 3, `prompts/list requests: ${seen.promptsList}`);
    assert.ok(events.tools <= 2 && events.prompts <= 2, JSON.stringify(events));
    // Resources are not re-listed (no request): their line is said at most 4 times a second.
    assert.ok(events.resources < 50, `resources list-changed events: ${events.resources}`);
    assert.deepEqual((await host.tools()).map((t) => t.name).sort(), ["count", "flood"], "the listing is intact");
  } finally {
    await host.close();
  }
});
