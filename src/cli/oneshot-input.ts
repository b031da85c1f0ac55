// The one-shot commands' InputProvider: nobody to ask, so `--answer JSON` accepts an elicitation
// with that content (a URL one: the URL is printed, the user opens it), anything else is declined
// with one line on stderr; `--yes` approves sampling, answered by the active model.
import type { ElicitAnswer, InputProvider, SampleAnswer } from "../host/input/input-provider.js";
import type { ModelAdapter } from "../model/adapter.js";
import { ModelError } from "../model/adapter.js";
import { sampledModelName, sampleWith } from "../model/sampling.js";
import { sanitizeInline } from "../protocol/sanitize.js";
import { checkAnswer } from "../host/input/input-form.js";
import { err } from "./output/terminal.js";
import { parseToolArgs, type ParsedCli } from "./args.js";
import { modelOptions } from "./model-for.js";
import { createModel } from "../model/select.js";
import type { Host } from "../host/host.js";
import { withHost, type StartError } from "./start-host.js";

export interface OneShotAnswers {
  /** `--answer JSON`, parsed. */
  answer?: Record<string, unknown>;
  /** `--yes`. */
  yes: boolean;
  /** The model that answers sampling, made when first needed. */
  model: () => ModelAdapter;
}

import { confirm } from "./confirm.js";
import { issuerQuestionText } from "../host/auth/server-auth.js";

const say = (line: string) => err(`mcp-prism: ${sanitizeInline(line)}\n`);

export function oneShotInput(o: OneShotAnswers): InputProvider {
  return {
    elicitation: { form: true, url: true },
    sampling: true,
    async elicit(req): Promise<ElicitAnswer> {
      if (!o.answer) {
        say(`server ${req.server} asked for input ("${req.message}"); declined (pass --answer JSON to answer)`);
        return { action: "decline" };
      }
      if (req.mode === "url") {
        say(`server ${req.server} asks you to open ${req.url} ("${req.message}")`);
        return { action: "accept" };
      }
      // An answer that does not fit is not sent: declined, and the user told why.
      const fits = checkAnswer(req.fields, o.answer);
      if (!fits.ok) {
        say(`--answer does not fit server ${req.server}'s form (${fits.detail}); declined`);
        return { action: "decline" };
      }
      return { action: "accept", content: o.answer };
    },
    async sample(req, signal): Promise<SampleAnswer> {
      if (!o.yes) {
        say(
          `server ${req.server} asked the model for a sample (${req.messages.length} message${req.messages.length === 1 ? "" : "s"}, at most ${req.maxTokens} tokens); declined (pass --yes to approve)`,
        );
        return { action: "decline", detail: "the user did not approve the sampling request" };
      }
      if (req.ignored) say(`server ${req.server}'s sampling request: ${req.ignored}`);
      try {
        const model = o.model();
        return { action: "accept", text: await sampleWith(model, req, signal), model: sampledModelName(model) };
      } catch (e) {
        const detail = e instanceof ModelError ? e.message : String(e);
        say(`sampling for server ${req.server} failed: ${detail}`);
        return { action: "decline", detail: `the model failed: ${detail}` };
      }
    },
    // Asked on a terminal only; never by --yes (which approves tool calls, not where secrets go).
    async confirmIssuer(q): Promise<boolean> {
      return confirm(issuerQuestionText(q));
    },
  };
}

/** The `--answer JSON` option every command that may meet a server's question takes (with the common --yes). */
export const ANSWER_OPTION = { answer: { type: "string" } } as const;

/**
 * The one-shot InputProvider of a parsed command line (--answer, --yes, --model); the model is
 * made only when a server asks for a sample, from the started host's config (`host()`).
 */
export function cliInput(cli: ParsedCli, host: () => Host | undefined): InputProvider {
  const raw = cli.values.answer;
  const answer = typeof raw === "string" ? parseToolArgs(raw, "--answer") : undefined;
  return oneShotInput({
    answer,
    yes: cli.common.yes,
    model: () => createModel(modelOptions(cli.common, host()?.opts.config.model)),
  });
}

/** withHost with the command line's InputProvider: a server's questions are answered (--answer / --yes) or declined. */
export function withAnsweringHost(
  cli: ParsedCli,
  failed: (e: StartError) => void,
  body: (host: Host) => Promise<number>,
): Promise<number> {
  let started: Host | undefined;
  return withHost(cli.common, failed, (host) => ((started = host), body(host)), {
    input: cliInput(cli, () => started),
  });
}
