// The app's pictures, set up once before its first frame: the protocol chosen (detect.ts, the
// terminal asked on the app's own stdin and stdout) and, unless it is half blocks, stdout made to
// expand picture markers (markers.ts).
import type { ImagesSetting } from "../../host/config/config.js";
import { chooseGraphics, type Graphics, queryTerminal, setGraphics } from "./detect.js";
import { installMarkerWriter } from "./markers.js";

export async function startGraphics(setting: ImagesSetting): Promise<Graphics & { stop: () => void }> {
  const graphics = await chooseGraphics(setting, process.env, () =>
    queryTerminal(process.stdin, (s) => process.stdout.write(s)),
  );
  setGraphics(graphics);
  const stop = graphics.protocol === "blocks" ? () => {} : installMarkerWriter(process.stdout);
  return { ...graphics, stop };
}
