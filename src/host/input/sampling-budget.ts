// What servers may make the model sample, bounded per call and per session (config `limits`):
// samples, and the `maxTokens` they request in total. Past a cap a request is declined before the
// provider (a person, or `--yes`) sees it; the server decides what its call does then. Each cap
// is said once (`onLimit`), not once per refused request. "Per call" is per server, from the start
// of the host's latest tools/call to it (a legacy sampling request does not say which call it is for).
import type { InputProvider, SampleAnswer, SampleRequest } from "./input-provider.js";

export interface SamplingLimits {
  maxSamplesPerCall: number;
  maxSamplesPerSession: number;
  maxSampledTokensPerCall: number;
  maxSampledTokensPerSession: number;
}

type Used = { samples: number; tokens: number };

export class SamplingBudget {
  private readonly session: Used = { samples: 0, tokens: 0 };
  private readonly calls = new Map<string, Used & { said: boolean }>();
  private sessionSaid = false;

  constructor(
    private readonly limits: SamplingLimits,
    private readonly onLimit: (server: string, line: string) => void,
  ) {}

  /** A tools/call to `server` starts: its per-call counts start again. */
  callStarted(server: string): void {
    this.calls.set(server, { samples: 0, tokens: 0, said: false });
  }

  /** The provider with the caps in front of its `sample`. */
  wrap(provider: InputProvider): InputProvider {
    const sample = async (req: SampleRequest, signal?: AbortSignal): Promise<SampleAnswer> => {
      const over = this.over(req);
      if (over) return { action: "decline", detail: over };
      const answer = await provider.sample(req, signal);
      if (answer.action === "accept") this.spend(req);
      return answer;
    };
    return {
      get elicitation() {
        return provider.elicitation;
      },
      get sampling() {
        return provider.sampling;
      },
      elicit: (req, signal) => provider.elicit(req, signal),
      sample,
    };
  }

  private call(server: string) {
    let c = this.calls.get(server);
    if (!c) this.calls.set(server, (c = { samples: 0, tokens: 0, said: false }));
    return c;
  }

  /** Why this request is refused (and the one line said, the first time), or undefined. */
  private over(req: SampleRequest): string | undefined {
    const l = this.limits;
    const c = this.call(req.server);
    const s = this.session;
    let why: string | undefined;
    let perCall = false;
    if (s.samples + 1 > l.maxSamplesPerSession)
      why = `${l.maxSamplesPerSession} samples this session (limits.maxSamplesPerSession)`;
    else if (s.tokens + req.maxTokens > l.maxSampledTokensPerSession)
      why = `${l.maxSampledTokensPerSession} requested tokens this session (limits.maxSampledTokensPerSession)`;
    else if (c.samples + 1 > l.maxSamplesPerCall)
      (why = `${l.maxSamplesPerCall} samples in one call (limits.maxSamplesPerCall)`), (perCall = true);
    else if (c.tokens + req.maxTokens > l.maxSampledTokensPerCall)
      (why = `${l.maxSampledTokensPerCall} requested tokens in one call (limits.maxSampledTokensPerCall)`),
        (perCall = true);
    if (!why) return undefined;
    const line = `server ${req.server}: sampling limit reached: ${why}; further samples are refused${perCall ? " for this call" : " for this session"}`;
    if (perCall ? !c.said : !this.sessionSaid) {
      if (perCall) c.said = true;
      else this.sessionSaid = true;
      this.onLimit(req.server, line);
    }
    return `sampling limit reached: ${why}`;
  }

  private spend(req: SampleRequest): void {
    const c = this.call(req.server);
    c.samples++;
    c.tokens += req.maxTokens;
    this.session.samples++;
    this.session.tokens += req.maxTokens;
  }
}
