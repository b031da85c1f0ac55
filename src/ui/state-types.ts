// The types of the UI's session state (state.ts holds the store that writes them): the turns and
// their items, the tool cards, the two side panes' entries, what can be saved, the pending
// approval, and the whole UiState the components read.
import type { PendingInput } from "./input-dialogs.js";
import type { DetailSection } from "./card-detail.js";
import type { CallOutcome, Mode, ProgressUpdate } from "../host/types.js";
import type { ImageContent } from "../protocol/index.js";
import type { MdContext } from "./markdown.js";
import type { TableSource } from "./table.js";

export interface ToolCallView {
  id: string;
  /** The card's number (/show N). */
  n: number;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  startedAt: number;
  progress?: ProgressUpdate;
  outcome?: CallOutcome;
  /** Saveable blocks of this call's user sink → their /save-output number. */
  saveIds?: Map<object, number>;
  /** A server's next page (/table next): rows it sent before, so its table numbers on from them. */
  rowBase?: number;
  /** What the model did not get of this result as sent (SessionStore.callNote). */
  modelNotes?: string[];
}

export type TurnItem =
  | { kind: "user"; text: string }
  /** `md`: where this part of a streamed reply starts in its markdown (inside a fence or a table). */
  | { kind: "assistant"; text: string; md?: MdContext }
  | { kind: "tool"; call: ToolCallView }
  | { kind: "notice"; level: "info" | "error"; text: string }
  | { kind: "table"; value: unknown; offset: number; rowBase?: number }
  /** An image the user read (/read, /open of an image blob), drawn here; `saveId` is its /save-output number. */
  | { kind: "image"; block: ImageContent; saveId: number }
  /** A script run (run_code or /run): the script; its inner calls' cards follow it. */
  | { kind: "code"; script: string }
  /** What a script run gave: to the model (run_code) or to the user (/run). */
  | { kind: "code-result"; text: string; isError: boolean; forModel: boolean }
  /** A tool card expanded (/show N, Ctrl+O): card-detail.ts. */
  | { kind: "detail"; sections: DetailSection[] };

export interface Turn {
  id: number;
  items: TurnItem[];
  /** A part of a turn moved out of the live frame while it ran (1, 2, …): more of the turn follows. */
  part?: number;
}

export interface ProgrammaticEntry {
  n: number;
  server: string;
  tool: string;
  at: number;
  bytes: number;
  value: unknown;
}

export interface AppEntry {
  n: number;
  server: string;
  tool: string;
  at: number;
  audience: string;
  value: unknown;
  appMeta: Record<string, unknown>;
}

export interface Saveable {
  n: number;
  tool: string;
  /** The server whose output it is (a resource_link is read from it by /open). */
  server?: string;
  type: "image" | "audio" | "resource" | "resource_link";
  mimeType?: string;
  /** base64 payload (image, audio, blob resource). */
  data?: string;
  /** text resource. */
  text?: string;
  uri?: string;
}

export type ApprovalAnswer = "yes" | "no" | "always";
export interface PendingApproval {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  resolve: (a: ApprovalAnswer) => void;
}

export type PaneName = "programmatic" | "app";

export interface UiState {
  finished: Turn[];
  live?: Turn;
  /** Bumped by /clear so <Static> remounts. */
  epoch: number;
  programmatic: ProgrammaticEntry[];
  app: AppEntry[];
  saveables: Saveable[];
  mode: Mode;
  paneOpen: boolean;
  paneFocus: PaneName;
  /** Entries scrolled up from the bottom of the programmatic pane. */
  progScroll: number;
  /** Lines scrolled up from the bottom of the App pane. */
  appScroll: number;
  approval?: PendingApproval;
  /** A server's question (elicitation form / URL, sampling approval) shown above the prompt. */
  input?: PendingInput;
  busy: boolean;
  /** The model request is waiting to go again (a 429/5xx/connection failure): the status bar counts down. */
  retry?: RetryWait;
  /** The last table (for /table paging); `source`: the call it came from (/table next calls it again with its nextCursor). */
  lastTable?: { value: unknown; offset: number; source?: TableSource };
}

/** A model request waiting to be retried: why, until when (ms since the epoch), which retry of how many. */
export interface RetryWait {
  text: string;
  /** A few words: "rate-limited (429)". */
  reason: string;
  until: number;
  attempt: number;
  of: number;
}

/**
 * The scroll a side pane gets when a new entry arrives: the newest entry from its head (its header
 * and summary, then its first lines; "↓ N more" below), not its closing braces. PgUp/PgDn and End
 * move on from there as from any position.
 */
export const NEWEST_HEAD = -1;
