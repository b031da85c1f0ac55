// A tool card expanded (card-detail.ts): each section under its label, text wrapped (never cut),
// the images the model received drawn under "model context".
import React from "react";
import { Box, Text } from "ink";
import type { DetailSection } from "../card-detail.js";
import { ImageBlock } from "./UserContentView.js";

export function CardDetail({ sections, width, maxPixels }: { sections: readonly DetailSection[]; width: number; maxPixels?: number }) {
  return (
    <Box flexDirection="column" width={width}>
      {sections.map((s, i) => (
        <Box key={i} flexDirection="column" marginLeft={i === 0 ? 0 : 2}>
          <Text bold>{s.label}</Text>
          {s.lines.length ? <Text>{s.lines.join("\n")}</Text> : null}
          {(s.images ?? []).map((img, j) => (
            <ImageBlock key={j} block={{ type: "image", mimeType: img.mimeType, data: img.data }} width={Math.max(10, width - 2)} maxPixels={maxPixels} />
          ))}
        </Box>
      ))}
    </Box>
  );
}
