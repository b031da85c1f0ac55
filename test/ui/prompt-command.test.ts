// Prompt command arguments: words, `name=value`, quotes, JSON; too many values is one clear error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { argWords, isPromptCommand, parsePromptArgs } from "../../src/ui/commands/prompt-command.js";
import type { PromptEntry } from "../../src/host/catalog/prompts.js";

const greet: PromptEntry = {
  server: "p",
  name: "greet",
  arguments: [
    { name: "name", required: true },
    { name: "style", required: false },
  ],
};

test("prompt arguments: bare words fill the declared order, name=value names one, quotes group", () => {
  assert.deepEqual(parsePromptArgs(greet, ""), {});
  assert.deepEqual(parsePromptArgs(greet, "Ada formal"), { name: "Ada", style: "formal" });
  assert.deepEqual(parsePromptArgs(greet, "style=formal Ada"), { name: "Ada", style: "formal" });
  assert.deepEqual(parsePromptArgs(greet, '"Ada Lovelace" style="very \\"formal\\""'), {
    name: "Ada Lovelace",
    style: 'very "formal"',
  });
  assert.deepEqual(parsePromptArgs(greet, "x=1"), { name: "x=1" }, "an undeclared key is part of a value");
  assert.deepEqual(parsePromptArgs(greet, '{"name":"Ada"}'), { name: "Ada" });
  assert.throws(
    () => parsePromptArgs(greet, "a b c"),
    /too many values for \/p:greet — usage: \/p:greet <name> \[style\]/,
  );
  assert.throws(() => parsePromptArgs(greet, "{bad"), /bad JSON arguments/);
  assert.deepEqual(
    argWords('"open').map((w) => [w.value, w.open]),
    [["open", true]],
  );
});

test("a command name is a prompt command when it has the server:prompt shape", () => {
  assert.ok(isPromptCommand("p:greet"));
  assert.ok(!isPromptCommand("help"));
  assert.ok(!isPromptCommand(":greet"));
  assert.ok(!isPromptCommand("p:"));
});
