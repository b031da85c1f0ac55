// The user sink drawn in place: text as text, images (pixels or half blocks: ../graphics/),
// tables, and labelled lines for audio and resources (saved with /save-output N).
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { Box, Text, useStdout } from "ink";
import type { UserSinkEntry, UserOutput } from "../../host/types.js";
import type { ContentBlock, ImageContent } from "../../protocol/index.js";
import { sanitizeInline, sanitizeName, sanitizeText } from "../../protocol/sanitize.js";
import { base64Bytes, formatBytes } from "../../host/result/measure.js";
import { truncateToWidth } from "../format.js";
import { imageEntry } from "../imageCache.js";
import { currentGraphics } from "../graphics/detect.js";
import { markerRows, triggerMarker } from "../graphics/markers.js";
import { TableView } from "./TableView.js";

/** Where an image is drawn: Ink's live frame (redrawn) or <Static> (written once). */
const Surface = createContext<"live" | "static">("live");
/** Marks its children as written once: iTerm2 and sixel pictures are drawn only there. */
export function WrittenOnce({ children }: { children: ReactNode }) {
  return <Surface.Provider value="static">{children}</Surface.Provider>;
}

export interface UserContentProps {
  outputs: readonly (UserSinkEntry | UserOutput)[];
  width: number;
  saveIds?: Map<object, number>;
  maxPixels?: number;
  /** Rows an image may take at most. */
  imageRows?: number;
  /** A server's next page: its table numbers on from the rows sent before. */
  rowBase?: number;
}

function saveHint(n: number | undefined): string {
  return n === undefined ? "" : ` — /save-output ${n}`;
}

export function ImageBlock({
  block,
  width,
  rows,
  maxPixels,
  saveId,
}: {
  block: ImageContent;
  width: number;
  rows?: number;
  maxPixels?: number;
  saveId?: number;
}) {
  const graphics = currentGraphics();
  const surface = useContext(Surface);
  const { stdout } = useStdout();
  // A picture drawn at the cursor must fit on the screen with its label below it.
  const pixels = graphics.protocol !== "blocks";
  const screen = pixels && stdout.rows ? Math.max(1, stdout.rows - 3) : undefined;
  const fitRows = screen === undefined ? rows : Math.min(rows ?? screen, screen);
  const entry = imageEntry(block, { width, height: fitRows, maxPixels, graphics: pixels ? graphics : undefined });
  const [result, setResult] = useState(entry.done);
  useEffect(() => {
    let live = true;
    if (!entry.done) void entry.promise.then((r) => live && setResult(r));
    else setResult(entry.done);
    return () => {
      live = false;
    };
  }, [entry]);
  const r = result ?? entry.done;
  const picture = r?.ok ? r.picture : undefined;
  // kitty's placeholders are text and can be redrawn; the others are drawn once, in <Static>.
  const drawn = picture && (graphics.protocol === "kitty" || surface === "static") ? picture : undefined;
  const trigger = drawn && graphics.protocol !== "kitty" ? triggerMarker(drawn.slot) : "";
  const label = `🖼 ${sanitizeName(block.mimeType)} ${formatBytes(base64Bytes(block.data))}${r?.ok ? ` ${r.size.width}×${r.size.height}` : ""}${saveHint(saveId)}`;
  return (
    <Box flexDirection="column">
      {!r ? (
        <Text dimColor>⧗ rendering image…</Text>
      ) : r.ok ? (
        <Text>{drawn ? markerRows(drawn.slot, drawn.cols, drawn.rows) : r.ansi}</Text>
      ) : (
        <Text color="yellow">{truncateToWidth(`⚠ ${sanitizeInline(r.reason)}`, width)}</Text>
      )}
      <Text dimColor>
        {trigger}
        {truncateToWidth(label, width - (trigger ? 1 : 0))}
      </Text>
    </Box>
  );
}

function BlockView({
  block,
  width,
  saveId,
  maxPixels,
  imageRows,
}: {
  block: ContentBlock;
  width: number;
  saveId?: number;
  maxPixels?: number;
  imageRows?: number;
}) {
  switch (block.type) {
    case "text":
      return <Text>{sanitizeText(block.text)}</Text>;
    case "image":
      return <ImageBlock block={block} width={width} rows={imageRows} maxPixels={maxPixels} saveId={saveId} />;
    case "audio":
      return (
        <Text color="cyan">
          {truncateToWidth(
            `♪ ${sanitizeName(block.mimeType)} ${formatBytes(base64Bytes(block.data))}${saveHint(saveId)}`,
            width,
          )}
        </Text>
      );
    case "resource_link": {
      const title = block.title ?? block.name;
      const mime = block.mimeType ? ` ${sanitizeName(block.mimeType)}` : "";
      const size = block.size !== undefined ? ` ${formatBytes(block.size)}` : "";
      return (
        <Text color="cyan">
          {truncateToWidth(
            `🔗 ${sanitizeName(title)} <${sanitizeInline(block.uri)}>${mime}${size}${saveHint(saveId)}`,
            width,
          )}
        </Text>
      );
    }
    case "resource": {
      const r = block.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
      const size = r.text !== undefined ? Buffer.byteLength(r.text) : r.blob ? base64Bytes(r.blob) : 0;
      const mime = r.mimeType ? ` ${sanitizeName(r.mimeType)}` : "";
      return (
        <Text color="cyan">
          {truncateToWidth(`📄 ${sanitizeInline(r.uri)}${mime} ${formatBytes(size)}${saveHint(saveId)}`, width)}
        </Text>
      );
    }
    default:
      return (
        <Text dimColor>
          {truncateToWidth(`? unknown block ${sanitizeName(String((block as { type?: unknown }).type))}`, width)}
        </Text>
      );
  }
}

export function UserContentView({ outputs, width, saveIds, maxPixels, imageRows = 24, rowBase }: UserContentProps) {
  return (
    <Box flexDirection="column">
      {outputs.map((out, i) =>
        out.format === "structured" ? (
          <TableView key={i} value={out.structuredContent} width={width} rowBase={rowBase} />
        ) : (
          out.content.map((b, j) => (
            <BlockView
              key={`${i}.${j}`}
              block={b}
              width={width}
              saveId={saveIds?.get(b)}
              maxPixels={maxPixels}
              imageRows={imageRows}
            />
          ))
        ),
      )}
    </Box>
  );
}
