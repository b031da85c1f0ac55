// The App mounted on a ChatSession for the session-level UI tests: 120×40, typing, the frame
// without colours, and a quit counter in place of exiting.
import { App } from "../../src/ui/App.js";
import type { ChatSession } from "../../src/ui/session.js";
import { renderAt, stripAnsi, tick, type Harness } from "./harness.js";

export function mountApp(session: ChatSession, servers: React.ComponentProps<typeof App>["servers"], open: Harness[]) {
  const h = renderAt(<App session={session} servers={servers} modelName="offline" />, 120, 40);
  let quits = 0;
  session.onQuit(() => quits++); // after App mounted its own handler: counts instead of exiting
  open.push(h);
  const type = async (s: string) => {
    h.stdin.write(s);
    await tick(25);
  };
  return { h, type, frame: () => stripAnsi(h.lastFrame()), quits: () => quits };
}
