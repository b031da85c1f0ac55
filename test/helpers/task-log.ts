// The request log the task fixtures write ($TASK_LOG: one JSON line {method, params} per request
// they get), read back; empty until the first request.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./host-fixtures.js";

export const ENDLESS_TASK_SERVER = join(ROOT, "test", "fixtures", "endless-task-server.mjs");

export function taskLog(log: string): { method: string; params: any }[] {
  return existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
}
