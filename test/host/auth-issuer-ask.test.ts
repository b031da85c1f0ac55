// Issue 27.5: a configured OAuth client (auth.clientId, auth.clientSecret) goes to an authorization
// server on another origin only when `auth.issuer` names it, or — its first use with that issuer —
// after the person says yes (remembered for that issuer and that client id in the 0600 store).
// An explicit auth.issuer that differs is refused without a question; nobody to ask: refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { StoredProvider, type FlowHooks } from "../../src/host/auth/provider.js";
import type { AuthRecord } from "../../src/host/auth/store.js";
import type { AuthConfig } from "../../src/host/auth/auth-config.js";
import { issuerQuestionText } from "../../src/host/auth/server-auth.js";

const SERVER = "https://mcp.example.com/mcp";
const ISSUER = "https://login.other-idp.example/";

function provider(record: AuthRecord, config: AuthConfig, ask?: (issuer: string) => Promise<boolean>) {
  const asked: string[] = [];
  let saves = 0;
  const flow: FlowHooks = {
    redirectUrl: "http://127.0.0.1:1/callback",
    state: "s",
    metadata: {},
    redirect: () => {},
    confirmIssuer: ask ? (issuer) => (asked.push(issuer), ask(issuer)) : undefined,
  };
  const p = new StoredProvider(record, () => void saves++, config, flow);
  p.issuer = ISSUER;
  return { p, asked, saves: () => saves };
}
const fresh = (): AuthRecord => ({ url: SERVER, issuers: Object.create(null) });
const CLIENT: AuthConfig = { clientId: "prism-app", clientSecret: "SECRET-CANARY" };

test("a new issuer on another origin: asked once; no keeps the credentials home, yes sends them and is remembered", async () => {
  const record = fresh();
  const no = provider(record, CLIENT, async () => false);
  await assert.rejects(
    no.p.clientInformation(),
    /another origin than the server: .*"issuer": "https:\/\/login\.other-idp\.example\/"\}; not sent/,
  );
  assert.deepEqual(no.asked, [ISSUER]);
  assert.equal(record.issuers[ISSUER]?.allowedClientId, undefined, "a no is not remembered as a yes");

  const yes = provider(record, CLIENT, async () => true);
  assert.deepEqual(await yes.p.clientInformation(), { client_id: "prism-app", client_secret: "SECRET-CANARY" });
  assert.deepEqual(yes.asked, [ISSUER]);
  assert.equal(record.issuers[ISSUER]?.allowedClientId, "prism-app");
  assert.equal(yes.saves(), 1, "the answer is written to the store");
  assert.ok(!JSON.stringify(record).includes("SECRET-CANARY"), "the secret itself is never stored");

  // The next run (same store record): not asked again, even with nobody to ask.
  const later = provider(record, CLIENT);
  assert.equal((await later.p.clientInformation())?.client_id, "prism-app");
  // Another configured client id for the same issuer is a new question.
  const other = provider(record, { clientId: "another-app" });
  await assert.rejects(other.p.clientInformation(), /not sent/);
});

test("nobody to ask (a pipe, -p): refused with the line naming auth.issuer", async () => {
  const { p } = provider(fresh(), CLIENT);
  await assert.rejects(p.clientInformation(), /sent there only with "auth": \{"issuer"/);
});

test("auth.issuer names another issuer: refused, never asked; the server's own origin: never asked", async () => {
  const bound = provider(fresh(), { ...CLIENT, issuer: "https://auth.mine.example" }, async () => true);
  await assert.rejects(
    bound.p.clientInformation(),
    /issued by "https:\/\/auth\.mine\.example" \(auth\.issuer\), not by/,
  );
  assert.deepEqual(bound.asked, []);
  const home = provider(fresh(), CLIENT, async () => true);
  home.p.issuer = "https://mcp.example.com/";
  assert.equal((await home.p.clientInformation())?.client_id, "prism-app");
  assert.deepEqual(home.asked, []);
});

test("the question names the server, the issuer, its host and what would be sent", () => {
  const text = issuerQuestionText({
    server: "acme",
    issuer: "https://xn--gthub-n4a.com/",
    host: "xn--gthub-n4a.com",
    clientId: "prism-app",
    secret: true,
  });
  assert.match(text, /server acme: its authorization server is https:\/\/xn--gthub-n4a\.com\//);
  assert.match(text, /host: xn--gthub-n4a\.com/);
  assert.match(text, /Send the configured client id and secret \(auth\.clientId prism-app\) there\?/);
});
