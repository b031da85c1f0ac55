// End to end: the BUILT CLI against the OAuth-protected fixture server (test/fixtures/
// oauth-server.ts), mid-session. A token revoked between the tool listing and the call (its
// refresh token refused too) makes the call's 401 run the browser sign-in and send the call once
// more, on the modern and the legacy era; without a browser that answers it is one clear line.
// A 403 insufficient_scope step-up signs in outside the request's timeout: a person slower than
// limits.callTimeoutMs still gets the call through. The server echoes a refused token back in its
// 401 (error_description): that text reaches no output. Clients registered beforehand (config
// "auth") sign in with client_secret_post or none, never registering. Needs a build.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { PRESET, TOKEN_CANARY } from "../fixtures/oauth-server.js";
import { startOAuthFixture, type OAuthFixture } from "../helpers/oauth-fixture.js";

let f: OAuthFixture;
before(async () => {
  f = await startOAuthFixture();
});
after(() => f?.close());

test("a token revoked mid-session: the call signs in again and is sent once more (modern, legacy)", async () => {
  const first = await f.cli(["call", "whoami"]);
  assert.equal(first.code, 0, first.stderr);
  for (const era of [[], ["--protocol", "2025-11-25"]]) {
    const before = await f.stats();
    await f.control("revoke-after-list");
    const r = await f.cli(["call", "whoami", ...era]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /hello, signed-in client/);
    assert.match(r.stderr, /sign in to secure in your browser[^\n]*\n {2}http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    const now = await f.stats();
    assert.equal(now.revocations, before.revocations + 1, "revoked after the listing, before the call");
    assert.equal(now.authorizations, before.authorizations + 1, "one new sign-in");
    assert.equal(now.refreshes, before.refreshes, "the revoked refresh token was refused");
  }
  assert.equal(f.browserOpened(), 3);
});

test("a token revoked mid-session without a browser that answers: one clear line, not a hang", async () => {
  await f.control("revoke-after-list");
  const short = f.writeConfig("short.json", { signInTimeoutMs: 1500 });
  const r = await f.cli(["call", "whoami", "--config", short], { browser: false });
  assert.equal(r.code, 1);
  assert.equal((await f.stats()).revocations, 3);
  assert.match(r.stderr, /sign in to secure in your browser/);
  assert.match(r.stdout, /server secure, tool whoami: sign-in failed: no sign-in within 2 s/);
});

test("a step-up sign-in slower than the call timeout: the browser time is not the request's", async () => {
  const signIn = await f.cli(["tools"]);
  assert.equal(signIn.code, 0, signIn.stderr);
  const before = await f.stats();
  // The person approves after 5 s; a request gets 2 s; sign-in gets the default 300 s.
  const slow = f.writeConfig("slow.json", { callTimeoutMs: 2000 });
  const r = await f.cli(["call", "admin", "--config", slow], { env: { OAUTH_BROWSER_DELAY_MS: "5000" } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /hello, admin/);
  assert.match(r.stderr, /sign in to secure in your browser/);
  assert.equal((await f.stats()).authorizations, before.authorizations + 1);
  // The token now has mcp:admin: no further sign-in.
  const again = await f.cli(["call", "admin"], { browser: false });
  assert.equal(again.code, 0, again.stderr);
  assert.equal((await f.stats()).authorizations, before.authorizations + 1);
});

test("a client registered beforehand (config auth: clientId and clientSecret, or clientId alone) signs in without registering", async () => {
  const before = await f.stats();
  const preset = f.writeConfig(
    "preset.json",
    {},
    {
      confidential: { auth: { clientId: PRESET.confidential, clientSecret: PRESET.secret } }, // client_secret_post
      public: { auth: { clientId: PRESET.public } }, // none
    },
  );
  for (const server of ["confidential", "public"]) {
    const r = await f.cli(["call", "whoami", "--server", server, "--config", preset]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /hello, signed-in client/);
    assert.match(r.stderr, new RegExp(`client_id=${server === "public" ? PRESET.public : PRESET.confidential}&`));
  }
  const now = await f.stats();
  assert.equal(now.registrations, before.registrations, "no dynamic registration");
  assert.equal(now.codeExchanges, before.codeExchanges + 2, "each client's token request was authenticated its way");
  // A wrong secret is refused by the token endpoint: one line, no secret in it.
  const wrong = f.writeConfig(
    "wrong.json",
    { signInTimeoutMs: 20_000 },
    { mistyped: { auth: { clientId: PRESET.confidential, clientSecret: "not-the-secret" } } },
  );
  const r = await f.cli(["call", "whoami", "--config", wrong]);
  assert.equal(r.code, 1);
  assert.match(r.stderr + r.stdout, /server mistyped: sign-in failed: /);
});

test("a configured client goes only to its issuer (auth.issuer): another issuer is refused before any request carries it", async () => {
  const before = await f.stats();
  const opened = f.browserOpened();
  const origin = new URL(f.url).origin;
  const cfg = f.writeConfig(
    "issuer.json",
    { signInTimeoutMs: 20_000 },
    {
      elsewhere: {
        auth: { clientId: PRESET.confidential, clientSecret: PRESET.secret, issuer: "https://auth.other.example" },
      },
      bound: { auth: { clientId: PRESET.confidential, clientSecret: PRESET.secret, issuer: origin } },
    },
  );
  const refused = await f.cli(["call", "whoami", "--server", "elsewhere", "--config", cfg]);
  assert.equal(refused.code, 1);
  assert.match(
    refused.stderr + refused.stdout,
    /server elsewhere: sign-in failed: .*issued by "https:\/\/auth\.other\.example" \(auth\.issuer\), not by "http:\/\/127\.0\.0\.1:\d+\/?": not sent/,
  );
  const after = await f.stats();
  assert.equal(after.codeExchanges, before.codeExchanges, "no token request");
  assert.equal(after.authorizations, before.authorizations, "no authorization");
  assert.equal(f.browserOpened(), opened, "no browser");
  // Bound to the issuer it belongs to: used.
  const ok = await f.cli(["call", "whoami", "--server", "bound", "--config", cfg]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /hello, signed-in client/);
});

test("no token or client secret reaches any output, though the server echoes refused tokens", () => {
  assert.ok(f.outputs.length >= 10);
  for (const o of f.outputs) {
    assert.ok(!o.includes(TOKEN_CANARY), `a token in CLI output: ${o.slice(0, 300)}`);
    assert.ok(!o.includes(PRESET.secret), `the client secret in CLI output: ${o.slice(0, 300)}`);
  }
});
