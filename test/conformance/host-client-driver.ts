// The client the official conformance suite's client scenarios run: the mcp-prism host as the CLI
// uses it. The suite starts a scenario server and runs `COMMAND URL` with MCP_CONFORMANCE_SCENARIO
// and, for scenarios that name their calls, MCP_CONFORMANCE_CONTEXT ({toolCalls: [{name,
// arguments}]}). The driver writes the config file a user would (`{"mcpServers": {NAME: {url}}}`),
// starts the Host on it (era detection as always: no forced version), lists the tools, and calls
// the context's tools, or else every usable tool with arguments generated from its inputSchema.
// One line per step goes to stderr (the suite keeps it with the scenario's results). A server's
// elicitation is accepted as `--answer '{}'` would (the schema's defaults filled in by the host),
// sampling approved as `--yes` would, answered by the offline model. Sign-in is interactive, as in
// the CLI: the suite's authorization servers approve at once, and $BROWSER (the test sets it to
// test/fixtures/oauth-browser.mjs) follows the redirect to the host's loopback listener. The
// config's "auth" block holds what a user would configure: the scenario's pre-registered client
// (MCP_CONFORMANCE_CONTEXT client_id / client_secret) and a client ID metadata document URL.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/host/config/config.js";
import { sampleArguments } from "../../src/conformance/sample-args.js";
import { Host } from "../../src/host/host.js";
import { AuthStore } from "../../src/host/auth/store.js";
import { oneShotInput } from "../../src/cli/oneshot-input.js";
import { OfflineModel } from "../../src/model/offline.js";

const url = process.argv.at(-1);
if (!url || !/^https?:\/\//.test(url)) {
  process.stderr.write("usage: host-client-driver URL (the conformance suite appends the scenario server's URL)\n");
  process.exit(2);
}
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as {
  toolCalls?: { name: string; arguments?: Record<string, unknown> }[];
  client_id?: string;
  client_secret?: string;
};
/** The client ID metadata document the suite's reference client uses (it is never fetched). */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
const log = (line: string) => process.stderr.write(`driver: ${line}\n`);

const dir = mkdtempSync(join(tmpdir(), "mcp-prism-conformance-"));
const file = join(dir, "mcp-prism.json");
/**
 * A pre-registered client goes only to the issuer it was registered with (config `auth.issuer`):
 * the person who configures it knows that issuer; the driver reads it where they would, from the
 * protected resource's metadata.
 */
async function issuerOf(serverUrl: string): Promise<string | undefined> {
  const u = new URL(serverUrl);
  const res = await fetch(`${u.origin}/.well-known/oauth-protected-resource${u.pathname}`).catch(() => undefined);
  const prm = res?.ok
    ? ((await res.json().catch(() => undefined)) as { authorization_servers?: string[] } | undefined)
    : undefined;
  return prm?.authorization_servers?.[0];
}
const issuer = context.client_id ? await issuerOf(url) : undefined;
const auth = {
  clientMetadataUrl: CLIENT_METADATA_URL,
  ...(context.client_id
    ? { clientId: context.client_id, clientSecret: context.client_secret, ...(issuer ? { issuer } : {}) }
    : {}),
};
writeFileSync(file, JSON.stringify({ mcpServers: { scenario: { url, auth } } }));
let host: Host | undefined;
try {
  host = await Host.start({
    config: loadConfig(file),
    input: oneShotInput({ answer: {}, yes: true, model: () => new OfflineModel() }),
    signIn: { interactive: true, store: new AuthStore(join(dir, "auth")), showUrl: (_s, u) => log(`sign in: ${u}`) },
  });
  const s = host.servers()[0];
  log(`server ${s.state}${s.protocolVersion ? ` at ${s.protocolVersion}` : ""}${s.error ? `: ${s.error}` : ""}`);
  const tools = await host.tools();
  log(`tools: ${tools.map((t) => t.qualifiedName).join(", ") || "(none)"}`);
  for (const e of await host.toolErrors()) log(`rejected: ${e.message}`);
  const calls =
    context.toolCalls ?? tools.map((t) => ({ name: t.qualifiedName, arguments: sampleArguments(t.inputSchema) }));
  for (const c of calls) {
    const out = await host.call(c.name, c.arguments ?? {});
    log(
      `call ${c.name}: ${out.ok ? `ok${out.isError ? " (isError)" : ""}` : `${out.error.rule}: ${out.error.message}`}`,
    );
  }
} finally {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
}
