// The rule strings src/ raises, found in its text: `rule: "x"` literals, the rule argument of the
// error factories and one-line helpers (`fail("x", …)`), and the members of the rule unions.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}

const PATTERNS = [
  /\brule: "([a-z][a-z0-9-]*)"/g,
  // (server, tool, "rule", …) and (plan, "rule", …) factories, and the one-line helpers.
  /\b(?:hostError|callError|resourceError|promptError)\([^()"]*?,[^()"]*?,\s*"([a-z][a-z0-9-]*)"/g,
  /\bfailedOutcome\([^()",]*,\s*"([a-z][a-z0-9-]*)"/g,
  /\b(?:fail|refuse|reject|err|StartError|ConnectionError|ResourceReadError|TaskError)\(\s*"([a-z][a-z0-9-]*)",/g,
  // Typed constants and default parameters (`X: Rule = "a"`), a fallback (`rule: x.rule ?? "a"`), and a
  // rule passed after a template-literal detail (`fail(`…`, "a")`).
  /:\s*Rule\s*=\s*"([a-z][a-z0-9-]*)"/g,
  /\brule: [\w.]+\.rule \?\? "([a-z][a-z0-9-]*)"/g,
  /\bfail\(\s*`[^`]*`,\s*"([a-z][a-z0-9-]*)",?\s*\)/g,
  // Members of the exported rule unions (`export type XRule = | "a" | "b"`), and `rule: "a" | "b"` fields.
  /export type \w*Rule\s*=([^;]*);/g,
  /\brule: ((?:"[a-z][a-z0-9-]*"\s*\|\s*)+"[a-z][a-z0-9-]*")/g,
];

/** Every rule raised in `dir`, with one file that raises it. */
export function raisedRules(dir = "src"): Map<string, string> {
  const found = new Map<string, string>();
  for (const f of files(dir)) {
    const text = readFileSync(f, "utf8");
    for (const re of PATTERNS) {
      for (const m of text.matchAll(re)) {
        const rules = m[1].includes('"') ? [...m[1].matchAll(/"([a-z][a-z0-9-]*)"/g)].map((x) => x[1]) : [m[1]];
        for (const r of rules) if (/^[a-z][a-z0-9-]*$/.test(r) && !found.has(r)) found.set(r, f);
      }
    }
  }
  return found;
}
