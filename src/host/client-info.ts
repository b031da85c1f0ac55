// Who the host says it is (`clientInfo` in `initialize` and in the modern `_meta` envelope).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const CLIENT_NAME = "mcp-prism";
export const CLIENT_VERSION: string = (() => {
  try {
    const pkg = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "package.json");
    return (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
})();
