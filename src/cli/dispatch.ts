// How main() and the app read -p: one turn without the app.

/** -p/--prompt anywhere (before any subcommand): one turn without the app. */
export const isPromptFlag = (a: string): boolean => a === "-p" || a === "--prompt" || a.startsWith("--prompt=") || /^-p./.test(a);
