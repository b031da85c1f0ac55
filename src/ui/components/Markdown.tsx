// Model text drawn as markdown (the blocks come from ui/markdown.ts, already sanitized). Lists and
// quotes keep their text beside the marker: a wrapped line stays indented under the text.
import { useMemo } from "react";
import { Box, Text } from "ink";
import { markdownBlocks, type MdBlock, type MdContext, type Span } from "../markdown.js";
import type { CodePiece } from "../markdown-code.js";

const CODE_COLOR: Record<NonNullable<CodePiece["kind"]>, string> = {
  keyword: "magenta",
  string: "green",
  number: "yellow",
  comment: "gray",
};

function SpanText({ span }: { span: Span }) {
  return (
    <Text
      bold={span.bold}
      italic={span.italic}
      strikethrough={span.strike}
      underline={span.link}
      color={span.code ? "yellow" : span.url || span.link ? "blue" : undefined}
      dimColor={span.url && !span.link ? true : undefined}
    >
      {span.text}
    </Text>
  );
}

function Spans({ spans, bold, underline }: { spans: Span[]; bold?: boolean; underline?: boolean }) {
  return (
    <Text bold={bold} underline={underline}>
      {spans.length ? spans.map((s, i) => <SpanText key={i} span={s} />) : " "}
    </Text>
  );
}

function CodeLine({ pieces }: { pieces: CodePiece[] }) {
  return (
    <Box>
      <Text dimColor>{"│ "}</Text>
      <Text>
        {pieces.length && pieces.some((p) => p.text)
          ? pieces.map((p, i) =>
              p.kind ? (
                <Text key={i} color={CODE_COLOR[p.kind]}>
                  {p.text}
                </Text>
              ) : (
                <Text key={i}>{p.text}</Text>
              ),
            )
          : " "}
      </Text>
    </Box>
  );
}

export function MarkdownBlock({ block }: { block: MdBlock }) {
  switch (block.type) {
    case "heading":
      return <Spans spans={block.spans} bold underline={block.depth === 1} />;
    case "paragraph":
      return <Spans spans={block.spans} />;
    case "blank":
      return <Text> </Text>;
    case "rule":
      return <Text dimColor>{"─".repeat(24)}</Text>;
    case "list":
      return (
        <Box flexDirection="column" marginLeft={block.indent}>
          {block.items.map((it, i) => (
            <Box key={i}>
              <Box flexShrink={0} marginRight={1}>
                <Text>{it.marker}</Text>
              </Box>
              <Box flexDirection="column" flexGrow={1}>
                <MarkdownBlocks blocks={it.blocks} />
              </Box>
            </Box>
          ))}
        </Box>
      );
    case "quote":
      return (
        <Box
          borderStyle="single"
          borderTop={false}
          borderRight={false}
          borderBottom={false}
          borderDimColor
          paddingLeft={1}
          flexDirection="column"
        >
          <MarkdownBlocks blocks={block.blocks} />
        </Box>
      );
    case "code":
      return (
        <Box flexDirection="column">
          {block.label ? <Text dimColor>{`┌ ${block.lang || "code"}`}</Text> : null}
          {block.lines.map((l, i) => (
            <CodeLine key={i} pieces={l} />
          ))}
        </Box>
      );
    case "table":
      return <Text>{block.lines.join("\n")}</Text>;
  }
}

function MarkdownBlocks({ blocks }: { blocks: MdBlock[] }) {
  return (
    <>
      {blocks.map((b, i) => (
        <MarkdownBlock key={i} block={b} />
      ))}
    </>
  );
}

/** One reply, or one streamed part of it (`context`: where that part starts). */
export function Markdown({ text, width, context }: { text: string; width: number; context?: MdContext }) {
  const blocks = useMemo(() => markdownBlocks(text, width, context), [text, width, context]);
  return (
    <Box flexDirection="column" width={width}>
      <MarkdownBlocks blocks={blocks} />
    </Box>
  );
}
