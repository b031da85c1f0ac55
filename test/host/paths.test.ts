// One rule for every place mcp-prism keeps a file (src/host/config/paths.ts): an absolute $XDG_*
// is used, an empty or relative one is ignored (XDG Base Directory spec), else the default under
// $HOME. Before, three resolvers disagreed: a relative XDG_CONFIG_HOME or XDG_CACHE_HOME was used.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cacheDir, packageRoot, stateDir, userConfigPath } from "../../src/host/config/paths.js";
import { bundledCliPath } from "../../src/host/config/config.js";

const HOME = "/home/someone";

test("absolute XDG values are used; empty or relative ones fall back to $HOME, for state, config and cache alike", () => {
  const abs = { HOME, XDG_STATE_HOME: "/x/state", XDG_CONFIG_HOME: "/x/config", XDG_CACHE_HOME: "/x/cache" };
  assert.equal(stateDir(abs), "/x/state/mcp-prism");
  assert.equal(userConfigPath(abs), "/x/config/mcp-prism/config.json");
  assert.equal(cacheDir(abs), "/x/cache/mcp-prism");
  for (const bad of ["", "relative/dir", "./here"]) {
    const env = { HOME, XDG_STATE_HOME: bad, XDG_CONFIG_HOME: bad, XDG_CACHE_HOME: bad };
    assert.equal(stateDir(env), join(HOME, ".local/state/mcp-prism"), JSON.stringify(bad));
    assert.equal(userConfigPath(env), join(HOME, ".config/mcp-prism/config.json"), JSON.stringify(bad));
    assert.equal(cacheDir(env), join(HOME, ".cache/mcp-prism"), JSON.stringify(bad));
  }
});

test("the package root is found from the code wherever it runs (sources here), so bin/ and package.json are", () => {
  assert.ok(existsSync(join(packageRoot(), "package.json")));
  assert.ok(existsSync(bundledCliPath()), bundledCliPath());
});
