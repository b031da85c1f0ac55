// The reference server toolkit: define variant tools once, serve them to every era.
export { defineTool, ToolError, wireVariant, LOG_LEVELS } from "./tool.js";
export type {
  DefinedTool,
  ToolDefinition,
  VariantDefinition,
  ContentVariantDefinition,
  StructuredVariantDefinition,
  ErrorOutputs,
  LegacyBehaviour,
  ProjectionContext,
  RunContext,
  LogLevel,
} from "./tool.js";
export { fromLegacyTool } from "./legacy-tool.js";
export type { LegacyToolDefinition, LegacyToolResult } from "./legacy-tool.js";
export { defineResource, defineResourceTemplate } from "./resource.js";
export type {
  CacheHint,
  ResourceDefinition,
  ResourceTemplateDefinition,
  CompiledTemplate,
  ResourceBody,
  ListedResource,
  Completer,
} from "./resource.js";
export { definePrompt } from "./prompt.js";
export type { PromptDefinition, PromptArgument, PromptMessage, PromptResult } from "./prompt.js";
export { InputRequiredSignal, missingCapability, answerProblem } from "./input.js";
export type { InputContext, InputRequest, InputMethod, ElicitAnswer, Root, ClientRequester } from "./input.js";
export { DEFAULT_PAGE_SIZE } from "./pagination.js";
export { ToolkitServer, DEFAULT_CACHE_HINT } from "./engine.js";
export type { ToolkitServerOptions, RequestContext, LegacySession, Envelope, Notification } from "./engine.js";
export { CancelledError } from "./call.js";
export { RpcError } from "./errors.js";
export { serveStdio, ToolkitConnection } from "./stdio.js";
export { logRequests } from "./request-log.js";
export { serveHttp, ToolkitHttpHandler, isLoopbackHost, isLoopbackOrigin, decodeHeaderValue } from "./http.js";
export type { HttpHandle, HttpServeOptions } from "./http.js";
export { withOutputVariants, contentVariant, structuredVariant } from "./sdk-adapter.js";
export type {
  OutputVariants,
  OutputVariantsOptions,
  DeclareOptions,
  SdkVariant,
  SdkToolResult,
} from "./sdk-adapter.js";
