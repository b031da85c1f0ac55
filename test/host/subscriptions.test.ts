// Resource subscriptions and list changes against the real demo server (built CLI), in every
// transport and era that carries them: legacy stdio (resources/subscribe, pushed list changes),
// 2026-07-28 and 2026-12-01 over stdio and Streamable HTTP (one long-lived subscriptions/listen).
// add_note changes a subscribed customer; toggle_extras adds a tool, a prompt and a resource:
// the host's lists follow, and the model's next request has the new tool.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { Host } from "../../src/host/host.js";
import type { ServerConfig } from "../../src/host/config/config.js";
import { config, demoStdio, startDemoHttp } from "../helpers/host-fixtures.js";

/** Resolves with the first event `name` whose payload `ok` accepts, or rejects after `ms`. */
function next<T>(host: Host, name: string, ok: (e: T) => boolean, ms = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${name} event within ${ms} ms`)), ms);
    const on = (e: T) => {
      if (!ok(e)) return;
      clearTimeout(timer);
      host.off(name, on);
      resolve(e);
    };
    host.on(name, on);
  });
}

describe("subscriptions and list changes", () => {
  let http: { url: string; child: ChildProcess };
  before(async () => void (http = await startDemoHttp()));
  after(() => void http?.child.kill());

  const cases: [string, () => ServerConfig, string | undefined][] = [
    ["legacy stdio", demoStdio, "2025-11-25"],
    ["2026-07-28 stdio", demoStdio, "2026-07-28"],
    ["2026-12-01 stdio", demoStdio, undefined],
    ["2026-07-28 HTTP", () => ({ kind: "http", url: http.url }), "2026-07-28"],
  ];
  for (const [name, server, protocol] of cases) {
    test(`${name}: a subscribed resource's change is told, an unsubscribed one's is not; toggled lists refresh`, async () => {
      const host = await Host.start({ config: config({ demo: server() }), protocol, eraCache: false });
      try {
        assert.equal(await host.subscriptions.subscribe("demo", "customers://cust_1005"), true);
        const updated = next<{ server: string; uri: string }>(host, "resource-updated", () => true);
        // Give a listen stream time to be acknowledged before the change.
        await new Promise((r) => setTimeout(r, 300));
        const other = await host.call("add_note", { customerId: "cust_1006", note: "not subscribed" });
        assert.ok(other.ok);
        const noted = await host.call("add_note", { customerId: "cust_1005", note: "CANARY-NOTE" });
        assert.ok(noted.ok && !noted.isError);
        assert.deepEqual(await updated, { server: "demo", uri: "customers://cust_1005" });
        const read = await host.readResource("customers://cust_1005", "demo");
        assert.ok(
          read.ok && "text" in read.contents[0] && read.contents[0].text.includes("CANARY-NOTE"),
          "a read after the change has the new content",
        );

        assert.ok(!host.modelTools().some((t) => t.name === "extra_echo"));
        const lists = new Set<string>();
        const all = next<{ list: string }>(host, "list-changed", (e) => (lists.add(e.list), lists.size === 3));
        await host.call("toggle_extras", {});
        await all;
        assert.ok(
          host.modelTools().some((t) => t.name === "extra_echo"),
          "the model's next request has the new tool",
        );
        assert.ok(
          host.prompts.known().some((p) => p.name === "extra_prompt"),
          "the new prompt is listed",
        );
        const [listing] = await host.resources("demo");
        assert.ok(listing.resources.some((r) => r.uri === "notes://extras"));
        const gone = next<{ list: string }>(host, "list-changed", (e) => e.list === "prompts");
        await host.call("toggle_extras", {});
        await gone;
        assert.ok(!host.prompts.known().some((p) => p.name === "extra_prompt"), "a removed prompt goes");

        await host.subscriptions.unsubscribe("demo", "customers://cust_1005");
        await new Promise((r) => setTimeout(r, 300));
        let told = false;
        host.on("resource-updated", () => (told = true));
        await host.call("add_note", { customerId: "cust_1005", note: "after" });
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(told, false, "no notice after unsubscribing");
      } finally {
        await host.close();
      }
    });
  }
});
