// The trust-and-leaks fixture (test/fixtures/trust-server.mjs): configs and the byte checks.
import { join } from "node:path";
import type { ServerConfig } from "../../src/host/config/config.js";
import { ROOT } from "./host-fixtures.js";

export const TRUST_SERVER = join(ROOT, "test", "fixtures", "trust-server.mjs");

export function trustServer(label: string, tools: string[], mode = ""): ServerConfig {
  return {
    kind: "stdio",
    command: process.execPath,
    args: [TRUST_SERVER],
    env: { TRUST_LABEL: label, TRUST_TOOLS: tools.join(","), TRUST_MODE: mode },
    cwd: ROOT,
  };
}

/** Raw ESC, 8-bit C1 controls (incl. U+009B CSI, U+009D OSC), BEL: none may reach a terminal. */
export const TERMINAL_CONTROL = /[\u001b\u0007\u0080-\u009f]/;

/** The first terminal control in `s`, with some context, or undefined. */
export function firstControl(s: string): string | undefined {
  const m = TERMINAL_CONTROL.exec(s);
  return m ? JSON.stringify(s.slice(Math.max(0, m.index - 40), m.index + 40)) : undefined;
}
