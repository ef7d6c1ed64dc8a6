/**
 * The model layer. LanguageModel is ours and small: generateObject (a zod schema in, a validated object out, or a
 * typed ModelError with the raw text and usage), streamText (deltas with usage and finish reason) and embed (task type
 * and dimension). Implementations, chosen by LLM_PROVIDER in app.ts: Gemini (@google/genai), OpenAI-compatible (the
 * openai SDK against Ollama, vLLM, llama.cpp or OpenAI) and the deterministic offline model, which dispatches on the
 * request's task (an unknown task is UNKNOWN_TASK, never an invented reply).
 * - Vendor types stay in their adapter; the call policy is shared (provider-calls.ts: retries with backoff and the
 *   server's retry delay in retry.ts, idle and overall timeouts and abort in call-control.ts).
 * - Model text is parsed only by the one safe JSON parser; prompts are files in prompts/ assembled by pure functions.
 * - metered-model.ts counts tokens per account and task; model-budget.ts refuses calls past the daily budget
 *   (MODEL_BUDGET_EXCEEDED) before they are made.
 */
import type { Config } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { Metrics } from '../kernel/index.js';
import type { Store } from '../store/index.js';
import { createGeminiModel } from './gemini-model.js';
import { createOpenAIModel } from './openai-model.js';
import type { LanguageModel } from './model.js';
import { meterModel } from './metered-model.js';
import type { ModelBudget } from './model-budget.js';
import { createOfflineModel, type OfflineTasks } from './offline-model.js';

export type {
  Attribution,
  EmbedOptions,
  EmbeddingTask,
  FinishReason,
  GenerateObjectRequest,
  GenerateObjectResult,
  LanguageModel,
  ModelCapabilities,
  ModelFile,
  ModelRequestBase,
  ModelRole,
  StreamTextResult,
  TextStream,
  Usage,
} from './model.js';
export { ModelError, type ModelErrorCode, type ModelErrorDetails } from './model-error.js';
export type { OfflineTaskHandlers, OfflineTasks } from './offline-model.js';
export { OFFLINE_CAPABILITIES, createOfflineModel, embedOffline } from './offline-model.js';
export { GEMINI_CAPABILITIES, createGeminiModel, type GeminiModelOptions } from './gemini-model.js';
export { OPENAI_CAPABILITIES, createOpenAIModel, type OpenAIModelOptions } from './openai-model.js';
export { meterModel, type MeterOptions } from './metered-model.js';
export { ModelBudget, accountUsageId, currentBillTo, runBilledTo, utcDay, type ModelBudgetOptions } from './model-budget.js';
export { loadPrompt, loadAllPrompts, createPrompt, PromptError, type Prompt } from './prompt-loader.js';
export { parseJson, parseWithSchema, type ParseResult, type SchemaParseResult } from './safe-json.js';

export interface ModelDependencies {
  metrics: Metrics;
  store?: Store | undefined;
  logger?: Logger | undefined;
  offlineTasks: OfflineTasks;
  /** the daily model budget per account (MODEL_DAILY_TOKENS); none = unlimited. */
  budget?: ModelBudget | undefined;
}

/**
 * The model the server runs with, chosen by `config.provider` (Gemini, an OpenAI-compatible server or the offline
 * model), always metered.
 */
export function createModel(config: Config, deps: ModelDependencies): LanguageModel {
  const logger = deps.logger?.child({ component: 'model' });
  const model = config.gemini
    ? createGeminiModel({ ...config.gemini, logger })
    : config.openai
      ? createOpenAIModel({ ...config.openai, logger })
      : createOfflineModel(deps.offlineTasks);
  logger?.info(
    { kind: model.kind, generation: model.modelName('generation'), judge: model.modelName('judge'), embedding: model.modelName('embedding') },
    'language model ready',
  );
  return meterModel(model, { metrics: deps.metrics, store: deps.store, logger, budget: deps.budget });
}
export { createTextStream } from './text-stream.js';
export { deleteUsage, usageKeys } from './usage-keys.js';
