// Two tools of the official "everything" server (@modelcontextprotocol/server-everything
// 2026.8.31, src/everything/tools/get-sum.ts and get-structured-content.ts, modelcontextprotocol/servers,
// MIT), copied unchanged but for the types: an ordinary SDK 1.x server's registerTool calls.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const GetSumSchema = z.object({
  a: z.number().describe("First number"),
  b: z.number().describe("Second number"),
});

export const registerGetSumTool = (server: McpServer) => {
  server.registerTool(
    "get-sum",
    {
      title: "Get Sum Tool",
      description: "Returns the sum of two numbers",
      inputSchema: GetSumSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      const validatedArgs = GetSumSchema.parse(args);
      const sum = validatedArgs.a + validatedArgs.b;
      return { content: [{ type: "text", text: `The sum of ${validatedArgs.a} and ${validatedArgs.b} is ${sum}.` }] };
    },
  );
};

const GetStructuredContentInputSchema = {
  location: z.enum(["New York", "Chicago", "Los Angeles"]).describe("Choose city"),
};

export const GetStructuredContentOutputSchema = z.object({
  temperature: z.number().describe("Temperature in celsius"),
  conditions: z.string().describe("Weather conditions description"),
  humidity: z.number().describe("Humidity percentage"),
});

export const registerGetStructuredContentTool = (server: McpServer) => {
  server.registerTool(
    "get-structured-content",
    {
      title: "Get Structured Content Tool",
      description: "Returns structured content along with an output schema for client data validation",
      inputSchema: GetStructuredContentInputSchema,
      outputSchema: GetStructuredContentOutputSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      let weather;
      switch (args.location) {
        case "New York":
          weather = { temperature: 33, conditions: "Cloudy", humidity: 82 };
          break;
        case "Chicago":
          weather = { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 };
          break;
        case "Los Angeles":
          weather = { temperature: 73, conditions: "Sunny / Clear", humidity: 48 };
          break;
      }
      const backwardCompatibleContentBlock = { type: "text" as const, text: JSON.stringify(weather) };
      return { content: [backwardCompatibleContentBlock], structuredContent: weather };
    },
  );
};
