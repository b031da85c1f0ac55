// 27.5(b) across runs of the BUILT CLI: the protected resource's `authorization_servers` moves to
// a second authorization server on another origin (SEP-2352) between two runs. The second run
// registers afresh at the new issuer and presents it only the client id it issued there — never the
// one registered at the first — and a third run reuses that registration. Both registrations are
// kept in the token store, each under its issuer.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startOAuthFixture, type OAuthFixture } from "../helpers/oauth-fixture.js";

let f: OAuthFixture;
before(async () => {
  f = await startOAuthFixture();
});
after(() => f?.close());

const storeText = () =>
  f
    .tokenFiles()
    .map((n) => readFileSync(join(f.authDir, n), "utf8"))
    .join("\n");

test("a changed authorization_servers: a new registration at the new issuer, the old client id never sent there", async () => {
  const first = await f.cli(["call", "whoami"]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal((await f.stats()).registrations, 1);
  const firstIds = [...storeText().matchAll(/"client_id":\s*"([^"]+)"/g)].map((m) => m[1]);
  assert.ok(firstIds.length > 0, "the first registration is stored");

  await f.control("migrate");
  await f.control("revoke");
  const second = await f.cli(["call", "whoami"]);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /hello, signed-in client/);
  const moved = await f.second();
  assert.equal(moved.stats.registrations, 1, "registered at the new issuer");
  assert.equal(moved.stats.codeExchanges, 1);
  assert.ok(moved.seen.length > 0);
  for (const id of moved.seen) assert.ok(moved.registered.includes(id), `the new issuer was sent client id ${id}`);
  for (const id of firstIds) assert.ok(!moved.seen.includes(id), "the first issuer's client id went to the second");
  assert.equal((await f.stats()).registrations, 1, "no new registration at the first issuer");

  await f.control("revoke");
  const third = await f.cli(["call", "whoami"]);
  assert.equal(third.code, 0, third.stderr);
  const after = await f.second();
  assert.equal(after.stats.registrations, 1, "the third run reuses the new issuer's registration");
  assert.equal(after.stats.codeExchanges, 2);
  const text = storeText();
  for (const id of [...firstIds, ...after.registered]) assert.ok(text.includes(id), `registration ${id} kept`);
});
