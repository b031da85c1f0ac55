// Finished turns go to Ink's <Static> (drawn once, never re-laid out: long sessions stay fast);
// the live turn below streams model text, tool cards and user-sink content as they arrive. While a
// reply streams, its finished lines join <Static> as parts of the turn (`part`, no margin below:
// the rest of the turn follows), so the live frame holds only the unfinished tail (live-text.ts).
import { Box, Static, Text } from "ink";
import { wrapText } from "../format.js";
import { sanitizeText } from "../../protocol/sanitize.js";
import type { Turn, TurnItem } from "../state.js";
import { ToolCard } from "./ToolCard.js";
import { ImageBlock, UserContentView, WrittenOnce } from "./UserContentView.js";
import { TableView } from "./TableView.js";
import { CodeResult, CodeScript } from "./CodeCard.js";
import { Markdown } from "./Markdown.js";
import { CardDetail } from "./CardDetail.js";

export function TurnItemView({ item, width, maxPixels }: { item: TurnItem; width: number; maxPixels?: number }) {
  switch (item.kind) {
    case "user":
      return (
        <Text color="cyan" bold>
          {wrapText(`› ${sanitizeText(item.text)}`, width, 2).join("\n")}
        </Text>
      );
    case "assistant":
      // Markdown, drawn part by part as the reply streams ("" is a blank line: live-text.ts).
      return <Markdown text={item.text} width={width} context={item.md} />;
    case "notice": {
      // Wrapped here, not by Ink: no row starts with a space, and continuation rows stay indented.
      const text = wrapText(sanitizeText(item.text), width).join("\n");
      return item.level === "error" ? <Text color="red">{text}</Text> : <Text dimColor>{text}</Text>;
    }
    case "table":
      return <TableView value={item.value} offset={item.offset} width={width} rowBase={item.rowBase} />;
    case "image":
      return <ImageBlock block={item.block} width={width} rows={24} maxPixels={maxPixels} saveId={item.saveId} />;
    case "code":
      return <CodeScript script={item.script} width={width} />;
    case "code-result":
      return <CodeResult text={item.text} isError={item.isError} forModel={item.forModel} />;
    case "detail":
      return <CardDetail sections={item.sections} width={width} maxPixels={maxPixels} />;
    case "tool": {
      const o = item.call.outcome;
      return (
        <Box flexDirection="column">
          <ToolCard call={item.call} width={width} />
          {o?.ok && o.routed.user.length ? (
            <Box marginLeft={2} flexDirection="column">
              <UserContentView
                outputs={o.routed.user}
                width={Math.max(10, width - 2)}
                saveIds={item.call.saveIds}
                maxPixels={maxPixels}
                rowBase={item.call.rowBase}
              />
            </Box>
          ) : null}
        </Box>
      );
    }
  }
}

export function TurnView({ turn, width, maxPixels }: { turn: Turn; width: number; maxPixels?: number }) {
  return (
    <Box flexDirection="column" marginBottom={turn.part ? 0 : 1} width={width}>
      {turn.items.map((it, i) => (
        <TurnItemView key={i} item={it} width={width} maxPixels={maxPixels} />
      ))}
    </Box>
  );
}

export interface ConversationProps {
  finished: readonly Turn[];
  live?: Turn;
  width: number;
  /** Changes on /clear so <Static> starts over. */
  epoch?: number;
  maxPixels?: number;
}

/** The finished part (Static). Ink prints it above the live frame whatever its place in the tree. */
export function FinishedTurns({ finished, width, epoch = 0, maxPixels }: ConversationProps) {
  return (
    <Static key={epoch} items={finished as Turn[]}>
      {(turn) => (
        <WrittenOnce key={turn.part ? `${turn.id}.${turn.part}` : turn.id}>
          <TurnView turn={turn} width={width} maxPixels={maxPixels} />
        </WrittenOnce>
      )}
    </Static>
  );
}

export function Conversation(props: ConversationProps) {
  return (
    <Box flexDirection="column">
      <FinishedTurns {...props} />
      {props.live ? <TurnView turn={props.live} width={props.width} maxPixels={props.maxPixels} /> : null}
    </Box>
  );
}
