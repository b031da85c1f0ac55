// How main() routes an argv, shared with bin/mcp-prism.js, which runs the chat app's first-frame
// bundle itself (without node's ES module loader) when main() would run the app.

/** -p/--prompt anywhere (before any subcommand): one turn without the app. */
export const isPromptFlag = (a: string): boolean => a === "-p" || a === "--prompt" || a.startsWith("--prompt=") || /^-p./.test(a);

/** main() runs the chat app for this argv: no subcommand, no --help, no -p. */
export function runsApp(argv: readonly string[]): boolean {
  const first = argv[0];
  if (first !== undefined && (!first.startsWith("-") || first === "-h" || first === "--help")) return false;
  return !argv.some(isPromptFlag);
}
