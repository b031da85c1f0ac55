// A tool the host itself offers the model (code mode's run_code), beside the servers' tools. The
// model layer knows only this shape; src/code implements run_code and the CLI/UI hand it in.
// Its result reaches the model as host-written text (a receipt-kind result): what the host chose
// to pass on, never a server's output as it came.

export interface HostToolRun {
  isError: boolean;
  /** What the model receives (already bounded by the tool). */
  text: string;
  /** The whole record for the user (the card, the transcript, -p --json); never the model's. */
  detail?: unknown;
}

export interface HostTool {
  name: string;
  /** Read when a turn starts (run_code builds its declarations then, once per tool list). */
  readonly description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  run(args: Record<string, unknown>, ctx: { signal?: AbortSignal }): Promise<HostToolRun>;
  /**
   * The server tools this one already describes to the model (run_code: the tools its
   * declarations type). They are not listed again, so the model does not read each twice; a
   * direct call of one still resolves and runs (code mode: the host's receipt).
   */
  covers?(tool: { server: string; name: string }): boolean;
}
