// The real app in tmux against the schema-bomb server listing 5,000 extra tools: keys echo while
// it lists (the listing is read in slices and compiles no schema), a catastrophic pattern, a
// 10,000-level result and a {"$ref":"#"} schema each cost one line with their rule, and ^C^C quits.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { tempDir } from "../helpers/host-fixtures.js";
import { schemaBomb } from "../helpers/schema-bomb.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("5,000 tools list with the keyboard live; hostile schemas and deep results cost one line each; ^C^C quits", async () => {
  const file = join(tempDir(), "mcp-prism.json");
  const s = schemaBomb("modern", 5000);
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: { bomb: { command: s.command, args: s.args, cwd: s.cwd } },
      limits: { callTimeoutMs: 30_000 },
    }),
  );
  const t = await startApp({
    args: ["--config", file],
    columns: 160,
    rows: 50,
    env: { ANTHROPIC_API_KEY: "" },
    ready: /bomb/,
  });
  open.push(t);
  t.keys("-l", "typed while listing");
  await t.waitFor("typed while listing", "the keystrokes echoed");
  t.keys("C-u");
  t.submit("/call redos_variant {} --select programmatic/structured");
  await t.idle(
    /redos_variant failed \[schema-violation\]: invalid result: programmatic\/structured: \/email/,
    "the pattern's verdict",
    { timeoutMs: 60_000 },
  );
  t.submit("/call deep_result {} --select programmatic/structured");
  await t.idle(
    /deep_result failed \[too-deep\]: invalid result: nesting in the result goes deeper/,
    "the deep result rejected",
    { timeoutMs: 30_000 },
  );
  t.submit("/call ref_loop {} --select programmatic/structured");
  await t.idle(/ref_loop failed \[too-deep\]: invalid result: validation exhausted/, "the $ref loop rejected", {
    timeoutMs: 30_000,
  });
  t.submit("/tools");
  const listed = await t.idle(/deep_input rejected \[too-deep\]/, "/tools with the too-deep declaration", {
    timeoutMs: 60_000,
    history: 400,
  });
  assert.match(listed, /lookahead_variant[^\n]*declined \[uncompilable-variant-schema\]/);
  t.keys("C-c");
  t.keys("C-c");
  assert.equal(await t.exitCode(20_000), 0);
});
