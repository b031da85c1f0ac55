// The InputProvider seam below the CLI: a requested schema read into a bounded form (kinds,
// defaults, refusals), answers checked against it, malformed elicitation and sampling requests
// refused with one line, and no capability advertised (so nothing asked) without a provider.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Host } from "../../src/host/host.js";
import { checkAnswer, formDefaults, parseForm } from "../../src/host/input/input-form.js";
import { clientCapabilities, featuresWith } from "../../src/host/connection/client-capabilities.js";
import { answerInput, parseElicit, parseSample, type InputProvider } from "../../src/host/input/input-provider.js";
import { startMrtrServer } from "../fixtures/input-mrtr-server.js";
import { sampleWith } from "../../src/model/sampling.js";
import { OfflineModel } from "../../src/model/offline.js";
import type { ModelAdapter, ModelRequest } from "../../src/model/adapter.js";
import { ASK_SCHEMA } from "../fixtures/input-legacy-server.js";
import { config } from "../helpers/host-fixtures.js";

describe("the requested schema as a form", () => {
  it("reads string, number, integer, boolean, enum (plain, titled, legacy enumNames) and multi-select, with defaults", () => {
    const form = parseForm({
      type: "object",
      properties: {
        s: { type: "string", title: "S\u001b[31m", default: "x" },
        n: { type: "number", default: 1.5 },
        i: { type: "integer", minimum: 1 },
        b: { type: "boolean", default: false },
        e: { type: "string", enum: ["a", "b"], enumNames: ["A", "B"], default: "b" },
        t: { type: "string", oneOf: [{ const: "h1", title: "Hero" }], default: "nope" },
        m: { type: "array", items: { anyOf: [{ const: "f1", title: "Fish" }] }, default: ["f1"] },
      },
      required: ["i"],
    });
    assert.ok(form.ok);
    assert.deepEqual(
      form.value.map((f) => [f.key, f.kind, f.required]),
      [
        ["s", "string", false],
        ["n", "number", false],
        ["i", "integer", true],
        ["b", "boolean", false],
        ["e", "enum", false],
        ["t", "enum", false],
        ["m", "multi", false],
      ],
    );
    assert.ok(!form.value[0].title.includes("\u001b"), "titles are sanitized");
    assert.deepEqual(form.value[4].kind === "enum" && form.value[4].options, [
      { value: "a", label: "A" },
      { value: "b", label: "B" },
    ]);
    assert.deepEqual(
      formDefaults(form.value),
      { s: "x", n: 1.5, b: false, e: "b", m: ["f1"] },
      "a default outside the choices is dropped",
    );
    assert.deepEqual(checkAnswer(form.value, { i: 2 }), {
      ok: true,
      value: { s: "x", n: 1.5, b: false, e: "b", m: ["f1"], i: 2 },
    });
    for (const [answer, why] of [
      [{}, /i: required/],
      [{ i: 1.5 }, /integer/],
      [{ i: 0 }, /at least 1/],
      [{ i: 1, e: "c" }, /one of a, b/],
      [{ i: 1, zz: 1 }, /no field "zz"/],
      [[1], /not a JSON object/],
    ] as const) {
      const r = checkAnswer(form.value, answer);
      assert.ok(!r.ok && why.test(r.detail), JSON.stringify(answer));
    }
  });

  it("checks the string formats an elicitation may name; an unknown format is not checked", () => {
    const form = parseForm({
      type: "object",
      properties: {
        v: { type: "string", format: "email" },
        u: { type: "string", format: "uri" },
        d: { type: "string", format: "date" },
        t: { type: "string", format: "date-time" },
        x: { type: "string", format: "color" },
      },
    });
    assert.ok(form.ok);
    for (const good of [
      { v: "a.b+c@ex-ample.co.uk" },
      { u: "mailto:a@b.c" },
      { u: "https://ex.org/p?q#f" },
      { d: "2024-02-29" },
      { t: "2026-12-03T08:09:56Z" },
      { t: "2026-12-03t08:09:56.123-05:30" },
      { x: "not a colour" },
    ]) {
      assert.ok(checkAnswer(form.value, good).ok, JSON.stringify(good));
    }
    for (const [bad, why] of [
      [{ v: "not-an-email" }, /v: expected an email/],
      [{ v: "a@b" }, /email/],
      [{ v: "a @b.c" }, /email/],
      [{ u: "/relative/path" }, /u: expected an absolute URI/],
      [{ d: "2023-02-29" }, /d: expected a date/],
      [{ d: "2026-1-3" }, /date/],
      [{ t: "2026-12-03" }, /t: expected a date and time/],
      [{ t: "2026-12-03T24:00:00Z" }, /date and time/],
      [{ t: "2026-12-03T08:09:56" }, /date and time/],
    ] as const) {
      const r = checkAnswer(form.value, bad);
      assert.ok(!r.ok && why.test(r.detail), `${JSON.stringify(bad)}: ${JSON.stringify(r)}`);
    }
  });

  it("refuses what it cannot draw, with one line", () => {
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`f${i}`, { type: "string" }]));
    for (const [schema, why] of [
      [{ type: "object", properties: many }, /65 fields/],
      [{ type: "object", properties: { x: { type: "object" } } }, /field "x": type "object" is not a form type/],
      [{ type: "object", properties: { x: { type: "string", enum: Array(101).fill("a") } } }, /101 choices/],
      [[], /not an object schema/],
    ] as const) {
      const r = parseForm(schema);
      assert.ok(!r.ok && why.test(r.detail), JSON.stringify(schema).slice(0, 60));
    }
  });
});

describe("requests", () => {
  it("URL mode needs an http(s) URL; sampling needs messages and a positive maxTokens (capped)", () => {
    assert.ok(parseElicit("s", { mode: "url", message: "m", url: "https://example.com/a", elicitationId: "e" }).ok);
    assert.ok(!parseElicit("s", { mode: "url", message: "m", url: "javascript:alert(1)" }).ok);
    assert.ok(!parseElicit("s", { message: 5, requestedSchema: ASK_SCHEMA }).ok);
    assert.ok(!parseSample("s", { messages: [], maxTokens: 5 }).ok);
    assert.ok(
      !parseSample("s", { messages: [{ role: "system", content: { type: "text", text: "x" } }], maxTokens: 5 }).ok,
    );
    const ok = parseSample("s", {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "a" },
            { type: "image", data: "", mimeType: "image/png" },
          ],
        },
      ],
      maxTokens: 1e9,
    });
    assert.ok(ok.ok);
    assert.equal(ok.value.messages[0].text, "a\n[image]");
    assert.equal(ok.value.maxTokens, 8192);
  });

  it("sampling settings: includeContext other than none and model hints are named as ignored, temperature and stops kept, tools refused", async () => {
    const msg = [{ role: "user", content: { type: "text", text: "hi STOP there" } }];
    const r = parseSample("s", {
      messages: msg,
      maxTokens: 20,
      includeContext: "thisServer",
      temperature: 1.7,
      stopSequences: ["STOP"],
      modelPreferences: { hints: [] },
    });
    assert.ok(r.ok);
    assert.equal(
      r.value.ignored,
      "ignored: includeContext thisServer (no server context is sent), modelPreferences (the active model answers)",
    );
    assert.equal(r.value.temperature, 1, "a temperature above 1 is lowered");
    assert.deepEqual(r.value.stopSequences, ["STOP"]);
    const none = parseSample("s", { messages: msg, maxTokens: 20, includeContext: "none" });
    assert.ok(none.ok && none.value.ignored === undefined, "includeContext none is honoured");
    for (const bad of [
      { temperature: -1 },
      { temperature: "hot" },
      { stopSequences: [""] },
      { stopSequences: Array(9).fill("x") },
      { stopSequences: "x" },
    ])
      assert.ok(!parseSample("s", { messages: msg, maxTokens: 5, ...bad }).ok, JSON.stringify(bad));
    const provider: InputProvider = {
      elicitation: false,
      sampling: true,
      elicit: async () => ({ action: "cancel" }),
      sample: async () => ({ action: "accept", text: "t", model: "m" }),
    };
    const tools = await answerInput(
      "s",
      "sampling/createMessage",
      { messages: msg, maxTokens: 5, tools: [{ name: "x", inputSchema: { type: "object" } }] },
      provider,
    );
    assert.deepEqual(tools, {
      ok: false,
      rule: "sampling-tools-unsupported",
      detail: "sampling with tools is not supported by mcp-prism (it does not advertise sampling.tools)",
    });
    // The adapter gets the settings; the answer is cut at the first stop sequence (the offline model too).
    const seen: ModelRequest[] = [];
    const fake: ModelAdapter = {
      id: "fake:x",
      capabilities: new OfflineModel().capabilities,
      async *respond(req) {
        seen.push(req);
        yield { type: "text", text: "one two STOP three" };
      },
    };
    assert.equal(await sampleWith(fake, r.value), "one two ");
    assert.deepEqual(seen[0].sampling, { maxTokens: 20, temperature: 1, stopSequences: ["STOP"] });
    assert.deepEqual(seen[0].tools, []);
    assert.equal(
      await sampleWith(new OfflineModel(), { ...r.value, stopSequences: ["STOP"] }),
      'Offline sample (1 message): the last user said "hi ',
    );
  });

  it("an accepted form is checked before it is sent; unoffered kinds are refused", async () => {
    const provider: InputProvider = {
      elicitation: { form: true, url: false },
      sampling: false,
      elicit: async () => ({ action: "accept", content: { name: "" } }),
      sample: async () => ({ action: "decline", detail: "no" }),
    };
    const r = await answerInput("s", "elicitation/create", { message: "m", requestedSchema: ASK_SCHEMA }, provider);
    assert.deepEqual(r, {
      ok: false,
      rule: "elicitation-answer",
      detail: "the answer does not fit the form: name: at least 1 characters",
    });
    assert.equal(
      (
        (await answerInput(
          "s",
          "elicitation/create",
          { mode: "url", message: "m", url: "https://x.example" },
          provider,
        )) as { rule: string }
      ).rule,
      "elicitation-unsupported",
    );
    assert.equal(
      ((await answerInput("s", "sampling/createMessage", {}, provider)) as { rule: string }).rule,
      "sampling-unsupported",
    );
    assert.deepEqual(
      clientCapabilities(
        featuresWith(provider, { roots: false, sampling: false, elicitation: false, ui: false }),
        true,
      ),
      { elicitation: { form: {} } },
    );
    assert.deepEqual(
      clientCapabilities(
        featuresWith(undefined, { roots: false, sampling: false, elicitation: false, ui: false }),
        true,
      ),
      {},
    );
  });
});

it("without a provider neither elicitation nor sampling is advertised in the 2026-07-28 envelope (the server does not ask)", async () => {
  const mrtr = await startMrtrServer();
  const host = await Host.start({ config: config({ m: { kind: "http", url: mrtr.url } }), eraCache: false });
  try {
    const out = await host.call("ask", {});
    assert.ok(out.ok);
    assert.deepEqual(mrtr.calls[0]._meta["io.modelcontextprotocol/clientCapabilities"], {
      extensions: { "io.modelcontextprotocol/tasks": {} },
    });
    assert.equal(out.isError, true);
  } finally {
    await host.close();
    mrtr.close();
  }
});
