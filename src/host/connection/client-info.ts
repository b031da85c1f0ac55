// Who the host says it is (`clientInfo` in `initialize` and in the modern `_meta` envelope).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../config/paths.js";

export const CLIENT_NAME = "mcp-prism";
export const CLIENT_VERSION: string = (() => {
  try {
    const pkg = join(packageRoot(), "package.json");
    return (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
})();
