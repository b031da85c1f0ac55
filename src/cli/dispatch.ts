// How main() and the app read -p: one turn without the app.

/** -p/--prompt anywhere (before any subcommand): one turn without the app. */
export const isPromptFlag = (a: string): boolean =>
  a === "-p" || a === "--prompt" || a.startsWith("--prompt=") || /^-p./.test(a);

/** The words before a `--` (what follows is another program's command line, as for `check -- CMD`). */
export function ownWords(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf("--");
  return end < 0 ? argv : argv.slice(0, end);
}

export const isVersionFlag = (a: string): boolean => a === "--version" || a === "-v";
export const isHelpFlag = (a: string): boolean => a === "--help" || a === "-h";
