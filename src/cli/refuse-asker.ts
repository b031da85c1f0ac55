// How a one-shot command "asks": nobody is there, so the call is refused with one line on stderr
// naming the tool (the gate lets everything through under --yes and never asks then).
import type { Asker } from "../host/call/gate.js";
import { sanitizeInline } from "../protocol/sanitize.js";
import { err } from "./output/terminal.js";

export function refusingAsker(command: string): Asker {
  return async (r) => {
    err(
      `${command}: ${sanitizeInline(`${r.server}/${r.tool}`)} is not marked read-only; not run (pass --yes to allow)\n`,
    );
    return "no";
  };
}
