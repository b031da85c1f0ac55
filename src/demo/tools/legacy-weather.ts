// legacy_weather: written the legacy way (content + outputSchema) and migrated with
// fromLegacyTool. Legacy clients keep its established outputSchema and structuredContent.
import { fromLegacyTool } from "../../server/index.js";

const CONDITIONS = ["clear", "partly cloudy", "overcast", "light rain", "showers", "fog", "windy"];

export const weatherSchema = {
  type: "object",
  properties: {
    city: { type: "string" },
    temperatureC: { type: "number" },
    conditions: { type: "string" },
    humidityPct: { type: "integer", minimum: 0, maximum: 100 },
    windKph: { type: "number", minimum: 0 },
  },
  required: ["city", "temperatureC", "conditions", "humidityPct", "windKph"],
  additionalProperties: false,
};

function seed(text: string): number {
  let h = 2166136261;
  for (const ch of text.toLowerCase()) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

export const legacyWeatherTool = fromLegacyTool<{ city: string }>({
  name: "legacy_weather",
  title: "Weather (legacy tool)",
  description: "Current weather for a city (simulated, deterministic). A tool written for the 2025 result shape.",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
  outputSchema: weatherSchema,
  annotations: { readOnlyHint: true },
  handler({ city }) {
    const name = city.trim();
    if (!name) return { content: [{ type: "text", text: "Please name a city." }], isError: true };
    const h = seed(name);
    const weather = {
      city: name,
      temperatureC: Math.round(((h % 400) / 10 - 5) * 10) / 10,
      conditions: CONDITIONS[(h >>> 9) % CONDITIONS.length],
      humidityPct: 30 + ((h >>> 13) % 66),
      windKph: (h >>> 19) % 45,
    };
    return {
      content: [
        {
          type: "text",
          text: `${weather.city}: ${weather.temperatureC} °C, ${weather.conditions}, humidity ${weather.humidityPct}%, wind ${weather.windKph} km/h.`,
        },
      ],
      structuredContent: weather,
    };
  },
});
