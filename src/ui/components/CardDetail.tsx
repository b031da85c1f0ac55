// A tool card expanded (card-detail.ts): each section under its label, text wrapped (never cut),
// the images the model received drawn under "model context".
import { Box, Text } from "ink";
import type { DetailSection } from "../card-detail.js";
import { ImageBlock } from "./UserContentView.js";

export function CardDetail({
  sections,
  width,
  maxPixels,
}: {
  sections: readonly DetailSection[];
  width: number;
  maxPixels?: number;
}) {
  return (
    <Box flexDirection="column" width={width}>
      {sections.map((s, i) => (
        <Box key={i} flexDirection="column" marginLeft={i === 0 ? 0 : 2}>
          <Text bold>{s.label}</Text>
          {s.lines.length ? <Text>{s.lines.join("\n")}</Text> : null}
          {(s.images ?? []).map((img, j) => (
            // The section's own block (stable): its rendering is cached per object, and the turn waits for it.
            <ImageBlock key={j} block={img} width={Math.max(10, width - 2)} maxPixels={maxPixels} />
          ))}
        </Box>
      ))}
    </Box>
  );
}
