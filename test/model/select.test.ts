import { test } from "node:test";
import assert from "node:assert/strict";
import { createModel, parseModelConfig } from "../../src/model/select.js";
import { AnthropicModel, DEFAULT_ANTHROPIC_MODEL } from "../../src/model/anthropic.js";
import { OfflineModel } from "../../src/model/offline.js";

test("offline is the default without an API key; anthropic with one", () => {
  assert.ok(createModel({ env: {} }) instanceof OfflineModel);
  const m = createModel({ env: { ANTHROPIC_API_KEY: "k" } });
  assert.ok(m instanceof AnthropicModel);
  assert.equal(m.id, `anthropic:${DEFAULT_ANTHROPIC_MODEL}`);
});

test("--model and the config block", () => {
  assert.equal(createModel({ flag: "anthropic:claude-x", env: { ANTHROPIC_API_KEY: "k" } }).id, "anthropic:claude-x");
  assert.ok(createModel({ flag: "offline", env: { ANTHROPIC_API_KEY: "k" } }) instanceof OfflineModel);
  assert.equal(
    createModel({ config: { provider: "anthropic", id: "claude-y", maxTokens: 100 }, env: { ANTHROPIC_API_KEY: "k" } })
      .id,
    "anthropic:claude-y",
  );
  assert.equal(createModel({ config: "anthropic:claude-z", env: { ANTHROPIC_API_KEY: "k" } }).id, "anthropic:claude-z");
  // The flag wins over the config's provider; the config's id applies when the flag names none.
  assert.equal(
    createModel({
      flag: "anthropic",
      config: { provider: "anthropic", id: "claude-c" },
      env: { ANTHROPIC_API_KEY: "k" },
    }).id,
    "anthropic:claude-c",
  );
});

test("bad model settings give one clear line", () => {
  assert.throws(
    () => createModel({ flag: "gpt", env: {} }),
    /--model must be offline or PROVIDER\[:MODEL\] with PROVIDER one of anthropic, openai, ollama, lmstudio, openai-compatible \(got "gpt"\)/,
  );
  assert.throws(() => createModel({ flag: "anthropic", env: {} }), /needs ANTHROPIC_API_KEY/);
  assert.throws(
    () => parseModelConfig({ provider: "x" }),
    /model.provider must be one of offline, anthropic, openai, ollama, lmstudio, openai-compatible/,
  );
  assert.throws(
    () => parseModelConfig({ provider: "anthropic", maxTokens: 0 }),
    /model.maxTokens must be a positive integer/,
  );
  assert.throws(
    () => parseModelConfig({ provider: "anthropic", baseURL: 3 }),
    /model.baseURL must be a non-empty string/,
  );
});
