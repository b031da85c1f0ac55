// The closed table of error rules: every HostError / CallError / ToolError / ConnectionError rule,
// what it means for the person, what the model reads (model/failure.ts looks it up, never guesses)
// and the exit code a one-shot command ends with. In src/protocol because every layer raises
// rules (the protocol's own validators, the server toolkit, the host, code mode, the CLI) and
// this is plain data. A rule raised that is not here fails test/protocol/rules.test.ts.

const INVALID_RESULT = "the server's result broke the protocol rules and was rejected whole";
const SELECTION = "the host refused the output selection before sending anything";
const DECLARATION = "the tool's declaration breaks the protocol rules, so the host does not call it";
const SCRIPT = "the script stopped";

interface Meaning {
  /** For the person: what happened, in a few words. */
  user: string;
  /** For the model: what it reads after `The call failed (rule): server S, tool T:`. */
  model: string;
  /** A one-shot command's exit code when this rule ends it. */
  exit: 1 | 2;
}

const r = (user: string, model: string = user, exit: 1 | 2 = 1): Meaning => ({ user, model, exit });

export const RULES = {
  // the person and the call's life
  "not-approved": r("not approved", "the user did not approve running this tool"),
  declined: r("declined: not approved", "the user did not approve running this tool"),
  cancelled: r("cancelled", "the user cancelled the call"),
  timeout: r("no result in time", "the server sent no result within the call time limit; the request was cancelled"),
  "tool-moved": r(
    "the name now means another tool",
    "the tool's name now means another server's tool, so the approved call was not run",
  ),
  "task-required": r(
    "the tool runs only as a task, and the server offers no tasks",
    "the tool can only run as a task, which this server does not offer",
  ),
  "task-failed": r("the task failed on the server", "the server ran the call as a task and the task failed"),
  "task-cancelled": r("the task was cancelled", "the call ran as a task and the task was cancelled"),
  "task-malformed": r(
    "the server's task messages broke the protocol rules",
    "the server's task status or result broke the protocol rules",
  ),
  "invalid-display": r(
    "display() was given something that is not an image",
    "the script's display() call was given something other than an image block (type image, an image/* mimeType, base64 data)",
  ),
  "not-run": r("not run", "the call was not run"),
  "host-error": r("the host failed", "the host failed while running the call"),
  // connections
  "connection-closed": r("connection closed", "the server's connection closed during the call"),
  "connection-failed": r("cannot connect", "the host could not connect to the server"),
  "not-connected": r("not connected", "the server is not connected"),
  "server-disabled": r("disabled for this session", "the server is disabled for this session"),
  "auth-required": r("sign-in needed", "the server needs authorization the host does not have"),
  "unsupported-version": r("no shared protocol version", "the host and the server share no protocol version"),
  "modern-error": r("server/discover failed", "the host could not connect to the server"),
  "invalid-initialize": r("invalid initialize answer", "the host could not connect to the server"),
  "not-http": r("not an http(s) URL", "the host could not connect to the server"),
  "server-error": r("the server answered with an error", "the server answered with an error"),
  "malformed-reply": r("malformed reply", "the server's reply broke JSON-RPC and was refused"),
  "request-failed": r("the request failed", "the request to the server failed"),
  "unknown-server": r("no such server", "no server by that name is configured", 2),
  // tools and their declarations
  "unknown-tool": r("no such tool", "no tool by that name is available now"),
  "rejected-tool": r("tool rejected", DECLARATION),
  "duplicate-tool": r("duplicate tool", DECLARATION),
  "malformed-tool": r("malformed tool", DECLARATION),
  "missing-output-variants": r("no outputVariants", DECLARATION),
  "uncompilable-output-schema": r("outputSchema does not compile", DECLARATION),
  "uncompilable-variant-schema": r("a variant's schema does not compile", DECLARATION),
  "assistant-content-required": r("no assistant/content variant", DECLARATION),
  "duplicate-variant": r("duplicate variant", DECLARATION),
  "invalid-audience": r("invalid audience", DECLARATION),
  "disallowed-core-combination": r("disallowed audience/format", DECLARATION),
  "unnegotiated-extension-audience": r("extension not advertised", DECLARATION),
  "invalid-variant-schema": r("invalid variant schema", DECLARATION),
  "declined-variant": r(
    "that output is declined",
    "the host declines to request that output of this tool; nothing was sent",
  ),
  // arguments and selections (refused before sending)
  "invalid-arguments": r("invalid arguments", "the arguments do not match the tool's input schema; nothing was sent"),
  "arguments-too-large": r("arguments too large", "the arguments are over the host's size limit; nothing was sent"),
  "too-deep": r(
    "nested too deep",
    "the arguments or result are nested deeper than the host allows; the call was refused",
  ),
  "undeclared-selector": r("output not declared", SELECTION),
  "duplicate-selector": r("output asked twice", SELECTION),
  "unnegotiated-selector": r("extension not negotiated", SELECTION),
  "empty-selection": r("no output selected", SELECTION),
  "selection-unsupported": r("selection unsupported", "the server's protocol version cannot select outputs"),
  "x-mcp-header-name": r("invalid x-mcp-header", DECLARATION),
  "x-mcp-header-type": r("invalid x-mcp-header", DECLARATION),
  "x-mcp-header-duplicate": r("duplicate x-mcp-header", DECLARATION),
  "x-mcp-header-unreachable": r("unreachable x-mcp-header", DECLARATION),
  "x-mcp-header-too-deep": r("x-mcp-header nested too deep", DECLARATION),
  // results
  "result-too-large": r("result too large", "the result was over the host's size limit and was not read"),
  "invalid-result-type": r("invalid result", INVALID_RESULT),
  "malformed-result": r("malformed result", INVALID_RESULT),
  "malformed-output": r("malformed output", INVALID_RESULT),
  "missing-output": r("missing output", INVALID_RESULT),
  "unrequested-output": r("unrequested output", INVALID_RESULT),
  "duplicate-output": r("duplicate output", INVALID_RESULT),
  "schema-violation": r("output breaks its schema", INVALID_RESULT),
  "malformed-content": r("malformed content", INVALID_RESULT),
  "malformed-blob": r("malformed blob", INVALID_RESULT),
  "image-too-large": r("image too large", INVALID_RESULT),
  "too-many-contents": r("too many content blocks", INVALID_RESULT),
  "unroutable-output": r("output has no sink", INVALID_RESULT),
  "app-too-large": r("App output too large", INVALID_RESULT),
  // servers asking (elicitation, sampling, input_required)
  "input-unsupported": r("input not supported", "the server asked for input this host cannot give"),
  "input-too-large": r("input request too large", "the server asked for input this host cannot give"),
  "input-required-unanswerable": r(
    "the server asked for input the host cannot give",
    "the server asked for input this host cannot give; the call was stopped",
  ),
  "roots-not-offered": r(
    "the server asked for roots; none are offered",
    "the server asked for the client's roots, which the user has not offered",
  ),
  "input-required-rounds": r("too many input rounds", "the server kept asking for input; the host stopped the call"),
  "elicitation-unsupported": r("elicitation not supported", "the server asked for input this host cannot give"),
  "elicitation-malformed": r("malformed elicitation", "the server asked for input this host cannot give"),
  "elicitation-answer": r("answer does not fit the form", "the answer did not fit the server's form"),
  "sampling-unsupported": r("sampling not supported", "the server asked for a sample this host cannot give"),
  "sampling-tools-unsupported": r(
    "sampling with tools not supported",
    "the server asked for a sample this host cannot give",
  ),
  "sampling-malformed": r("malformed sampling request", "the server asked for a sample this host cannot give"),
  "sampling-declined": r("sampling declined", "the user declined the server's sampling request"),
  "too-many-messages": r("too many messages", "the server asked for a sample this host cannot give"),
  // prompts and resources
  "duplicate-prompt": r("duplicate prompt", "the prompt is not available"),
  "too-many-prompts": r("too many prompts", "the prompt is not available"),
  "missing-argument": r("missing argument", "a required prompt argument is missing"),
  "unknown-argument": r("unknown argument", "the prompt has no such argument"),
  "invalid-argument": r("invalid argument", "a prompt argument is invalid"),
  "repeated-cursor": r("repeated cursor", "the server's listing repeated itself; the rest is not listed"),
  "too-many-pages": r("too many pages", "the server's listing was too long; the rest is not listed"),
  "empty-resource": r("empty resource", "the resource has no contents"),
  "write-failed": r("cannot write the file", "the file could not be written"),
  // Apps
  "no-app": r("no App", "the tool has no App View"),
  "no-app-html": r("no App HTML", "the tool's App has no HTML"),
  "not-an-app": r("not an App", "the tool's App resource is not an App"),
  // code mode
  "tool-error": r("the tool reported an error", "the tool reported an error"),
  "no-programmatic-output": r("no programmatic output", "the tool returned no programmatic/structured output"),
  "no-structured-content": r(
    "no structuredContent",
    "the tool declares an outputSchema but returned no structuredContent",
  ),
  "script-error": r("the script threw", SCRIPT),
  "code-too-large": r("script too large", SCRIPT),
  "too-many-calls": r("too many tool calls", SCRIPT),
  "cpu-time": r("script used too much CPU", SCRIPT),
  "wall-time": r("script ran too long", SCRIPT),
  sandbox: r("sandbox failed", SCRIPT),
  "sandbox-fault": r("sandbox failed", SCRIPT),
  "sandbox-unavailable": r("sandbox unavailable", SCRIPT),
  // start-up and configuration
  config: r("invalid configuration", "the host's configuration is invalid"),
  "model-config": r("invalid model configuration", "the host's configuration is invalid"),
  "legacy-unavailable": r("legacy profiles unavailable", "the legacy client profiles are not available here"),
} as const satisfies Record<string, Meaning>;

export type Rule = keyof typeof RULES;

export function isRule(s: string): s is Rule {
  return Object.hasOwn(RULES, s);
}

/** The exit code a one-shot command ends with when `rule` ends it (1 for a rule not in the table). */
export function exitCode(rule: string): 1 | 2 {
  return isRule(rule) ? RULES[rule].exit : 1;
}

/** What the model reads about a rule; a rule not in the table (another host's, a bug) reads as a failure. */
export function modelMeaning(rule: string): string {
  return isRule(rule) ? RULES[rule].model : "the call failed";
}
