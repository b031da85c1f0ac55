// An App View's request that needs the user: ui/message (the App would speak as the user: the text
// is shown in full, wrapped, and sent as the next turn only on [y]) or ui/open-link (the link shown,
// its host on a line of its own as the browser resolves it, opened only on [y]). Its own wording,
// never the tool-approval dialog: what the App asks, which App, which server. Everything shown is sanitized.
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys.js";
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { truncateToWidth, wrapToWidth } from "../format.js";
import type { ViewQuestion as Question } from "../../view/session.js";
import type { IssuerQuestion as IssuerQ } from "../../host/auth/server-auth.js";

/** Only [y] says yes (Enter does not); [n] or Esc says no. */
function useYesNo(onAnswer: (yes: boolean) => void): void {
  useKeys((text, key) => {
    const c = text.toLowerCase();
    if (c === "y") onAnswer(true);
    else if (c === "n" || key.escape) onAnswer(false);
  });
}

/** Lines of a message shown at most (the rest is counted). */
const MAX_LINES = 12;

export function ViewQuestion({
  req,
  width,
  onAnswer,
}: {
  req: Question;
  width: number;
  onAnswer: (yes: boolean) => void;
}) {
  useYesNo(onAnswer);
  const inner = Math.max(10, width - 4);
  const who = `The App of ${sanitizeName(req.tool)} (server ${sanitizeName(req.server)})`;
  const title = req.kind === "message" ? `${who} asks to send a message as you` : `${who} asks to open a link`;
  const lines =
    req.kind === "message"
      ? req.text.split("\n").flatMap((l) => wrapToWidth(sanitizeInline(l), inner))
      : [truncateToWidth(sanitizeInline(req.text), inner)];
  const shown = lines.slice(0, MAX_LINES);
  return (
    <Box flexDirection="column" borderStyle="single" borderColor="magenta" width={Math.max(20, width)}>
      <Text bold>{truncateToWidth(title, Math.max(10, width - 2))}</Text>
      {shown.map((l, i) => (
        <Text key={i}>{l || " "}</Text>
      ))}
      {lines.length > shown.length ? <Text dimColor>… {lines.length - shown.length} more lines</Text> : null}
      {req.kind === "open-link" ? (
        <Text bold>{truncateToWidth(`host: ${sanitizeInline(req.host ?? "?")}`, inner)}</Text>
      ) : null}
      <Text color="magenta">
        {req.kind === "message"
          ? "Send it as your next turn? [y]es / [n]o (the App gets an error)"
          : "Open it in the browser? [y]es / [n]o"}
      </Text>
    </Box>
  );
}

/**
 * The host's question before a configured OAuth client (auth.clientId, and its secret) first goes
 * to an authorization server on another origin that `auth.issuer` does not name: the issuer in
 * full and its host on a line of its own; sent only on [y], remembered for that issuer.
 */
export function IssuerQuestion({
  req,
  width,
  onAnswer,
}: {
  req: IssuerQ;
  width: number;
  onAnswer: (yes: boolean) => void;
}) {
  useYesNo(onAnswer);
  const inner = Math.max(10, width - 4);
  const what = req.secret ? "client id and secret" : "client id";
  return (
    <Box flexDirection="column" borderStyle="single" borderColor="yellow" width={Math.max(20, width)}>
      <Text bold>
        {truncateToWidth(`Sign-in to ${sanitizeName(req.server)}: a new authorization server`, Math.max(10, width - 2))}
      </Text>
      <Text>{truncateToWidth(sanitizeInline(req.issuer), inner)}</Text>
      <Text bold>{truncateToWidth(`host: ${sanitizeInline(req.host)}`, inner)}</Text>
      <Text>{truncateToWidth(`It is not on the server's origin and the config names no auth.issuer.`, inner)}</Text>
      <Text color="yellow">
        {truncateToWidth(`Send the configured ${what} (${sanitizeInline(req.clientId)}) there? [y]es / [n]o`, inner)}
      </Text>
    </Box>
  );
}
