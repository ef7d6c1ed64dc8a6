import type { ModelRole } from '../config.js';
import { isAppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { RETENTION, keys, type Store } from '../store/index.js';
import type {
  Attribution,
  EmbedOptions,
  GenerateObjectRequest,
  GenerateObjectResult,
  LanguageModel,
  ModelRequestBase,
  StreamTextResult,
  TextStream,
  Usage,
} from './model.js';
import { ModelError } from './model-error.js';

/**
 * Wraps any LanguageModel so every call is counted the same way whichever implementation answers: calls, tokens,
 * errors and latency as Prometheus metrics, and token usage attributed to the session, room and material named in
 * the request (store hash `keys.usage(scope, id)`, fields `input`/`output` plus `<role>:input`/`<role>:output`).
 * Recording never fails a call: a store error is logged and the model's answer is returned as usual.
 */

export interface MeterOptions {
  metrics: Metrics;
  store?: Store | undefined;
  logger?: Logger | undefined;
}

type Method = 'generateObject' | 'streamText' | 'embed';

/** Usage lives as long as what it is attributed to: a session's and a room's expire with them, a material's stays. */
const SCOPES = [
  ['session', 'sessionId', { ttlMs: RETENTION.sessionMs }],
  ['room', 'roomId', { ttlMs: RETENTION.roomMs }],
  ['material', 'materialId', {}],
] as const;

export function meterModel(model: LanguageModel, options: MeterOptions): LanguageModel {
  const { metrics, store, logger } = options;

  const start = (role: ModelRole, method: Method) => {
    metrics.modelCalls.inc({ role, kind: model.kind, method });
    return metrics.modelLatency.startTimer({ role, method });
  };

  const recordError = (role: ModelRole, error: unknown) => {
    metrics.modelErrors.inc({ role, code: isAppError(error) ? error.code : 'INTERNAL' });
  };

  const recordUsage = async (role: ModelRole, usage: Usage, attribution: Attribution | undefined): Promise<void> => {
    if (usage.inputTokens > 0) metrics.modelTokens.inc({ role, direction: 'input' }, usage.inputTokens);
    if (usage.outputTokens > 0) metrics.modelTokens.inc({ role, direction: 'output' }, usage.outputTokens);
    if (store === undefined || attribution === undefined) return;
    const writes: Promise<number>[] = [];
    for (const [scope, field, retention] of SCOPES) {
      const id = attribution[field];
      if (id === undefined || id === '') continue;
      const key = keys.usage(scope, id);
      for (const [direction, count] of [
        ['input', usage.inputTokens],
        ['output', usage.outputTokens],
      ] as const) {
        if (count <= 0) continue;
        writes.push(store.hincrby(key, direction, count, retention), store.hincrby(key, `${role}:${direction}`, count, retention));
      }
    }
    const results = await Promise.allSettled(writes);
    const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failure !== undefined) {
      logger?.warn({ err: failure.reason, attribution, role }, 'could not record model token usage');
    }
  };

  return {
    kind: model.kind,
    capabilities: model.capabilities,

    modelName: (role) => model.modelName(role),

    async generateObject<T>(request: GenerateObjectRequest<T>): Promise<GenerateObjectResult<T>> {
      const role = request.role ?? 'generation';
      const stop = start(role, 'generateObject');
      try {
        const result = await model.generateObject(request);
        stop();
        await recordUsage(role, result.usage, request.attribution);
        return result;
      } catch (error) {
        stop();
        recordError(role, error);
        // An invalid reply was still generated and billed.
        if (error instanceof ModelError && error.usage !== undefined) {
          await recordUsage(role, error.usage, request.attribution);
        }
        throw error;
      }
    },

    streamText(request: ModelRequestBase): TextStream {
      const role = request.role ?? 'generation';
      const stop = start(role, 'streamText');
      const inner = model.streamText(request);
      const result: Promise<StreamTextResult> = inner.result.then(
        async (value) => {
          stop();
          await recordUsage(role, value.usage, request.attribution);
          return value;
        },
        (error: unknown) => {
          stop();
          recordError(role, error);
          throw error;
        },
      );
      // Same guarantee as every TextStream: an unobserved result never becomes an unhandledRejection.
      result.catch(() => undefined);
      return { result, [Symbol.asyncIterator]: () => inner[Symbol.asyncIterator]() };
    },

    async embed(texts: string[], embedOptions?: EmbedOptions): Promise<number[][]> {
      const stop = start('embedding', 'embed');
      try {
        return await model.embed(texts, embedOptions);
      } catch (error) {
        recordError('embedding', error);
        throw error;
      } finally {
        stop();
      }
    },
  };
}
