// End to end: the BUILT CLI (bin/mcp-prism.js) against a REAL OAuth-protected Streamable HTTP
// server (test/fixtures/oauth-server.ts: the SDK's server-side auth in front of the toolkit),
// $BROWSER set to a script that follows the authorization redirect as a browser would. The first
// call signs in (registration, PKCE, loopback redirect), the second uses the stored token, an
// expired token is refreshed (modern and legacy era), logout forgets it, login signs in again; the
// token file is 0600 in a 0700 directory; the server's token canary is nowhere but that file.
// Needs a build (npm test builds first).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/host-fixtures.js";
import { startOAuthFixture, type OAuthFixture } from "../helpers/oauth-fixture.js";
import { TOKEN_CANARY } from "../fixtures/oauth-server.js";

const CLI = join(ROOT, "bin", "mcp-prism.js");
let f: OAuthFixture;
let url: string;
let dir: string;

before(async () => {
  f = await startOAuthFixture();
  ({ url, dir } = f);
});
after(() => f?.close());

const cli = (args: string[], browser = true) => f.cli(args, { browser });
const stats = () => f.stats();
const browserOpened = () => f.browserOpened();
const authDir = () => f.authDir;
const tokenFiles = () => f.tokenFiles();

test("the first call signs in through the browser and succeeds; the URL is printed", async () => {
  const r = await cli(["call", "whoami"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /hello, signed-in client/);
  assert.match(r.stderr, /sign in to secure in your browser[^\n]*\n {2}http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
  assert.equal(browserOpened(), 1);
  assert.deepEqual(await stats(), {
    registrations: 1,
    authorizations: 1,
    codeExchanges: 1,
    refreshes: 0,
    revocations: 0,
  });
});

test("the token file is 0600 in a 0700 directory, and holds the tokens", () => {
  const files = tokenFiles();
  assert.equal(files.length, 1);
  assert.equal(statSync(authDir()).mode & 0o777, 0o700);
  const file = join(authDir(), files[0]);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.ok(readFileSync(file, "utf8").includes(TOKEN_CANARY));
});

test("the second call uses the stored token: no browser, no new authorization", async () => {
  const r = await cli(["call", "whoami"], false);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /hello, signed-in client/);
  assert.equal(browserOpened(), 1);
  assert.equal((await stats()).authorizations, 1);
});

test("an expired token is refreshed, on the modern and the legacy era", async () => {
  await f.control("expire");
  const modern = await cli(["call", "whoami"], false);
  assert.equal(modern.code, 0, modern.stderr);
  assert.deepEqual(await stats(), {
    registrations: 1,
    authorizations: 1,
    codeExchanges: 1,
    refreshes: 1,
    revocations: 0,
  });
  await f.control("expire");
  const legacy = await cli(["call", "whoami", "--protocol", "2025-11-25"], false);
  assert.equal(legacy.code, 0, legacy.stderr);
  assert.match(legacy.stdout, /hello, signed-in client/);
  assert.deepEqual(await stats(), {
    registrations: 1,
    authorizations: 1,
    codeExchanges: 1,
    refreshes: 2,
    revocations: 0,
  });
  assert.equal(browserOpened(), 1);
});

test("without a browser that answers, an expired sign-in is one clear line, not a hang", async () => {
  await f.control("expire");
  const file = join(authDir(), tokenFiles()[0]);
  // Drop the refresh token: only a new sign-in can help now.
  const record = JSON.parse(readFileSync(file, "utf8"));
  for (const e of Object.values(record.issuers) as { tokens?: { refresh_token?: string } }[])
    delete e.tokens?.refresh_token;
  writeFileSync(file, JSON.stringify(record), { mode: 0o600 });
  const short = f.writeConfig("short.json", { signInTimeoutMs: 1500 });
  const r = await cli(["tools", "--config", short], false);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /sign in to secure in your browser/);
  assert.match(r.stderr, /server secure: sign-in failed: no sign-in within 2 s/);
});

test("logout forgets the tokens; the next call signs in again; login signs in now", async () => {
  const out = await cli(["logout", "secure"]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /signed out of secure/);
  assert.deepEqual(tokenFiles(), []);
  const again = await cli(["logout", "secure"]);
  assert.match(again.stdout, /nothing was stored for secure/);
  const before = await stats();
  const r = await cli(["call", "whoami"]);
  assert.equal(r.code, 0, r.stderr);
  const after1 = await stats();
  assert.equal(after1.registrations, before.registrations + 1, "a new registration after logout");
  assert.equal(after1.authorizations, before.authorizations + 1);
  const login = await cli(["login", "secure"]);
  assert.equal(login.code, 0, login.stderr);
  assert.match(login.stdout, /signed in to secure \(2 tools\)/);
  assert.equal((await stats()).authorizations, after1.authorizations + 1);
});

test("the token canary is in no output and no state file but the token store (no transcript, log or model context)", async () => {
  const p = await cli(["-p", "call whoami", "--model", "offline", "--json"], false);
  assert.equal(p.code, 0, p.stderr);
  for (const o of f.outputs) assert.ok(!o.includes(TOKEN_CANARY), `a token in CLI output: ${o.slice(0, 300)}`);
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)],
    );
  for (const f of walk(join(dir, "state"))) {
    if (f.startsWith(authDir())) continue;
    assert.ok(!readFileSync(f, "utf8").includes(TOKEN_CANARY), `a token in ${f}`);
  }
});

test("a config auth block with a mistake is one line naming it", async () => {
  const bad = join(dir, "bad.json");
  writeFileSync(bad, JSON.stringify({ mcpServers: { secure: { url, auth: { clientSecret: "s" } } } }));
  const child = spawn(process.execPath, [CLI, "tools", "--config", bad], {
    env: { ...process.env, XDG_STATE_HOME: join(dir, "state") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  const code = await new Promise((r) => child.once("close", r));
  assert.notEqual(code, 0);
  assert.match(stderr, /mcpServers\.secure\.auth\.clientId: expected a clientId beside clientSecret/);
  assert.equal(stderr.trim().split("\n").length, 1);
});
