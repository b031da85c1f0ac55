// A server as the UI reads it: the host's own ServerStatus (the one type), of which a fake host
// may leave out the tails, and the state named as the user reads it.
import type { ServerStatus } from "../host/host-types.js";

/** The part of the host's ServerStatus the UI reads. */
export type ServerView = Pick<ServerStatus, "name" | "state" | "protocolVersion" | "error"> &
  Partial<Pick<ServerStatus, "stderr" | "stderrFirstError" | "diagnostics" | "failure" | "disabled" | "roots">>;

/**
 * A server's state as the user reads it (status bar, /servers, transcript): a failed one is
 * `error`, or `sign-in needed` when it failed on the server's 401/403 (auth-required: /login).
 */
export type ShownState = "connected" | "connecting" | "disconnected" | "error" | "sign-in needed";
const SHOWN: Record<ServerStatus["state"], ShownState> = {
  connected: "connected",
  connecting: "connecting",
  idle: "disconnected",
  disconnected: "disconnected",
  failed: "error",
};
export const shownState = (state: ServerStatus["state"], failure?: { rule: string }): ShownState =>
  state === "failed" && failure?.rule === "auth-required" ? "sign-in needed" : SHOWN[state];
