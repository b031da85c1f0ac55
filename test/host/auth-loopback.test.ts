// The sign-in's redirect listener (src/host/auth/loopback.ts) over real HTTP on 127.0.0.1: only
// the callback with the expected state is taken, once; anything else is refused while the wait
// goes on; the wait is bounded in time and in requests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { listenLoopback } from "../../src/host/auth/loopback.js";
import { parseAuthConfig } from "../../src/host/auth/auth-config.js";

const get = async (url: string) => {
  const res = await fetch(url);
  await res.body?.cancel();
  return res.status;
};

test("the callback with the expected state is taken once; a wrong state or path is refused", async () => {
  const lb = await listenLoopback(undefined, 10_000);
  assert.match(lb.redirectUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  const waiting = lb.wait("s3cret");
  assert.equal(await get(`${lb.redirectUrl}?code=evil&state=wrong`), 400);
  assert.equal(await get(`${lb.redirectUrl}?code=evil`), 400);
  assert.equal(await get(lb.redirectUrl.replace("/callback", "/other")), 404);
  assert.equal(await get(`${lb.redirectUrl}?code=good&state=s3cret`), 200);
  const params = await waiting;
  assert.equal(params.get("code"), "good");
  // Single use: the listener is closed now.
  await assert.rejects(fetch(`${lb.redirectUrl}?code=again&state=s3cret`));
});

test("the wait ends after its time, and after too many requests without the callback", async () => {
  const slow = await listenLoopback(undefined, 300);
  await assert.rejects(slow.wait("x"), /no sign-in within/);
  const noisy = await listenLoopback(undefined, 10_000, 3);
  const waiting = noisy.wait("x");
  waiting.catch(() => {}); // asserted below, once the requests are made
  for (let i = 0; i < 3; i++) await get(`${noisy.redirectUrl}?state=no`).catch(() => 0);
  await assert.rejects(waiting, /3 requests without a valid callback/);
});

test("a taken preferred port falls back to an ephemeral one", async () => {
  const first = await listenLoopback(undefined, 10_000);
  const second = await listenLoopback(first.port, 10_000);
  assert.notEqual(second.port, first.port);
  first.close();
  second.close();
});

test("the config's auth block: each mistake is one line naming its key", () => {
  assert.deepEqual(
    parseAuthConfig(
      { clientId: "a", clientSecret: "b", scopes: ["x", "y:z"], clientMetadataUrl: "https://e.example/c.json" },
      "p",
    ),
    {
      clientId: "a",
      clientSecret: "b",
      scopes: ["x", "y:z"],
      clientMetadataUrl: "https://e.example/c.json",
    },
  );
  assert.deepEqual(parseAuthConfig({}, "p"), {});
  const cases: [unknown, string][] = [
    ["x", "p"],
    [{ clientID: "a" }, "p.clientID"],
    [{ clientId: "" }, "p.clientId"],
    [{ clientSecret: "b" }, "p.clientId"],
    [{ scopes: "a b" }, "p.scopes"],
    [{ scopes: ["a b"] }, "p.scopes"],
    [{ clientMetadataUrl: "http://e.example/c.json" }, "p.clientMetadataUrl"],
    [{ clientMetadataUrl: "https://e.example/" }, "p.clientMetadataUrl"],
  ];
  for (const [v, path] of cases) {
    const r = parseAuthConfig(v, "p");
    assert.ok(Array.isArray(r), JSON.stringify(v));
    assert.equal(r[0], path, JSON.stringify(v));
  }
});

test("configuredClientProblem: a configured client goes to auth.issuer, or without one only to the server's own origin", async () => {
  const { configuredClientProblem } = await import("../../src/host/auth/provider.js");
  const server = "https://mcp.example.com/mcp";
  assert.equal(
    configuredClientProblem({ clientId: "c", clientSecret: "s" }, "https://mcp.example.com/", server),
    undefined,
  );
  assert.match(
    configuredClientProblem({ clientId: "c", clientSecret: "s" }, "https://evil.example.net/", server) ?? "",
    /another origin than the server.*"issuer": "https:\/\/evil\.example\.net\/"\}; not sent/,
  );
  assert.equal(
    configuredClientProblem({ clientId: "c", issuer: "https://auth.example.org" }, "https://auth.example.org/", server),
    undefined,
  );
  assert.match(
    configuredClientProblem(
      { clientId: "c", issuer: "https://auth.example.org" },
      "https://auth2.example.org/",
      server,
    ) ?? "",
    /issued by "https:\/\/auth\.example\.org" \(auth\.issuer\), not by "https:\/\/auth2\.example\.org\/"/,
  );
  assert.match(configuredClientProblem({ clientId: "c" }, undefined, server) ?? "", /not known yet/);
});
