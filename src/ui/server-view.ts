// A server as the UI reads it: the host's own ServerStatus (the one type), of which a fake host
// may leave out the tails, and the state named as the user reads it.
import type { ServerStatus } from "../host/host-types.js";

/** The part of the host's ServerStatus the UI reads. */
export type ServerView = Pick<ServerStatus, "name" | "state" | "protocolVersion" | "error"> & Partial<Pick<ServerStatus, "stderr" | "diagnostics" | "disabled">>;

/** A server's state as the user reads it (status bar, /servers, transcript): a failed one is `error`. */
export type ShownState = "connected" | "connecting" | "disconnected" | "error";
const SHOWN: Record<ServerStatus["state"], ShownState> = { connected: "connected", connecting: "connecting", idle: "disconnected", disconnected: "disconnected", failed: "error" };
export const shownState = (state: ServerStatus["state"]): ShownState => SHOWN[state];
