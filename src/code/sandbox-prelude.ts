// The JavaScript run first in each fresh QuickJS context: it captures the three host functions
// and deletes them from the global object, freezes `tools` (a null-prototype object of plain
// functions), defines `console` and `ToolError`, and runs the script as an async function body.
// The script can change anything in its own context; it only ever hands the host strings.
export const PRELUDE = String.raw`
(() => {
  "use strict";
  const g = globalThis;
  const call = g.__prismCall, log = g.__prismLog, done = g.__prismDone;
  const names = JSON.parse(g.__prismTools), code = g.__prismCode, maxValue = g.__prismMaxValue;
  for (const k of ["__prismCall", "__prismLog", "__prismDone", "__prismTools", "__prismCode", "__prismMaxValue"]) delete g[k];
  const stringify = JSON.stringify, parse = JSON.parse, freeze = Object.freeze, defineProperty = Object.defineProperty;
  const String_ = String;
  class ToolError extends Error {
    constructor(f) {
      super(String_(f.message));
      this.name = "ToolError";
      this.server = String_(f.server);
      this.tool = String_(f.tool);
      this.rule = String_(f.rule);
    }
  }
  freeze(ToolError.prototype);
  freeze(ToolError);
  const tools = Object.create(null);
  for (const name of names) {
    const fn = async (args) => {
      let json;
      try {
        if (name === "$search") args = { query: String_(args) };
        json = stringify(args === undefined ? {} : args);
      } catch (e) {
        throw new ToolError({ server: "", tool: name, rule: "invalid-arguments", message: "the arguments are not JSON: " + e.message });
      }
      let text;
      try {
        text = await call(name, json);
      } catch (e) {
        throw new ToolError(typeof e === "string" ? parse(e) : { server: "", tool: name, rule: "sandbox", message: String_(e) });
      }
      return parse(text);
    };
    defineProperty(fn, "name", { value: name });
    tools[name] = freeze(fn);
  }
  freeze(tools);
  const display = freeze(async (image) => {
    let json;
    try {
      json = stringify(image);
    } catch (e) {
      throw new ToolError({ server: "", tool: "display", rule: "invalid-display", message: "the image is not JSON: " + e.message });
    }
    if (typeof json !== "string" || json[0] !== "{") throw new ToolError({ server: "", tool: "display", rule: "invalid-display", message: "display takes an image block" });
    try {
      await call("$display", json);
    } catch (e) {
      throw new ToolError(typeof e === "string" ? parse(e) : { server: "", tool: "display", rule: "sandbox", message: String_(e) });
    }
  });
  const show = (v) => {
    if (typeof v === "string") return v;
    try {
      const s = stringify(v);
      return s === undefined ? String_(v) : s;
    } catch {
      return String_(v);
    }
  };
  const line = (level) => (...args) => log((level === "log" ? "" : level + ": ") + args.map(show).join(" "));
  const console = freeze({ log: line("log"), info: line("info"), warn: line("warn"), error: line("error"), debug: line("debug") });
  defineProperty(g, "tools", { value: tools, enumerable: false, writable: false, configurable: false });
  defineProperty(g, "console", { value: console, enumerable: false, writable: false, configurable: false });
  defineProperty(g, "display", { value: display, enumerable: false, writable: false, configurable: false });
  defineProperty(g, "ToolError", { value: ToolError, enumerable: false, writable: false, configurable: false });
  const failure = (e) => {
    if (e instanceof ToolError) return done(false, "uncaught ToolError from " + (e.server ? e.server + "/" : "") + e.tool + " (" + e.rule + "): " + e.message, "tool-error");
    const text = (e && e.name ? e.name + ": " : "") + (e && e.message !== undefined ? e.message : String_(e));
    const rule = e && e.name === "InternalError" ? (e.message === "stack overflow" ? "stack-size" : e.message === "out of memory" ? "memory" : "script-error") : e && e.name === "RangeError" && e.message === "Maximum call stack size exceeded" ? "stack-size" : "script-error";
    done(false, text, rule);
  };
  const AsyncFunction = (async () => {}).constructor;
  let body;
  try {
    body = new AsyncFunction(code);
  } catch (e) {
    failure(e);
    return;
  }
  body().then(
    (v) => {
      let s;
      try {
        s = v === undefined ? "null" : stringify(v);
      } catch (e) {
        done(false, "the return value is not JSON: " + e.message, "value-not-json");
        return;
      }
      if (s === undefined) s = "null";
      if (s.length > maxValue) done(false, "the return value is " + s.length + " characters of JSON, over the limit of " + maxValue, "value-too-large");
      else done(true, s);
    },
    failure,
  );
})();
`;
