// The model a command runs with: a bad --model is a usage error (exit 2, with the usage line); a
// model config that cannot be used stays a ModelError for the command to report its own way.
import type { HostConfig } from "../host/config/config.js";
import { ModelError, type ModelAdapter } from "../model/adapter.js";
import { createModel, type CreateModelOptions } from "../model/select.js";
import { UsageError, type CommonOptions } from "./args.js";

/** What createModel takes from the command line and the config. */
export function modelOptions(common: CommonOptions, config: unknown): CreateModelOptions {
  return { flag: common.model, baseURL: common.baseUrl, apiKeyEnv: common.apiKeyEnv, config };
}

export function modelFor(common: CommonOptions, config: HostConfig): ModelAdapter {
  try {
    return createModel(modelOptions(common, config.model));
  } catch (e) {
    if (e instanceof ModelError && e.kind === "usage") throw new UsageError(e.message);
    throw e;
  }
}
