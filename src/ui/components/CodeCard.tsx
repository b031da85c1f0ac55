// A script run's two parts in the conversation: the script (first lines), and once it ended what it
// gave — to the model (run_code: exactly the text the model received) or to you (/run). The inner
// calls are ordinary tool cards between the two (requestedOutputs, where each output went).
import { Box, Text } from "ink";
import { sanitizeText } from "../../protocol/sanitize.js";
import { truncateToWidth } from "../format.js";

const SCRIPT_LINES = 12;
const RESULT_CHARS = 1_200;

export function CodeScript({ script, width }: { script: string; width: number }) {
  const lines = sanitizeText(script).split("\n");
  const shown = lines.slice(0, SCRIPT_LINES);
  return (
    <Box flexDirection="column">
      <Text color="magenta">▸ script</Text>
      <Box marginLeft={2} flexDirection="column">
        {shown.map((l, i) => (
          <Text key={i} dimColor>
            {truncateToWidth(l || " ", Math.max(10, width - 2))}
          </Text>
        ))}
        {lines.length > SCRIPT_LINES ? <Text dimColor>… {lines.length - SCRIPT_LINES} more lines</Text> : null}
      </Box>
    </Box>
  );
}

export function CodeResult({ text, isError, forModel }: { text: string; isError: boolean; forModel: boolean }) {
  const shown = text.length > RESULT_CHARS ? `${text.slice(0, RESULT_CHARS)}… (${text.length} characters)` : text;
  return (
    <Box flexDirection="column">
      <Text color={isError ? "red" : "magenta"}>
        {forModel
          ? `◂ the model received (${text.length} characters)`
          : isError
            ? "◂ the script failed"
            : "◂ the script returned"}
      </Text>
      <Box marginLeft={2}>
        <Text>{sanitizeText(shown)}</Text>
      </Box>
    </Box>
  );
}
