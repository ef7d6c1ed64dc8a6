import type { ModelRole } from '../kernel/index.js';
import { isAppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { Metrics } from '../kernel/index.js';
import { RETENTION, type Store } from '../store/index.js';
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
import { accountUsageId, currentBillTo, type ModelBudget } from './model-budget.js';
import { usageKeys } from './usage-keys.js';

/**
 * Wraps any LanguageModel so every call is counted the same way whichever implementation answers: calls, tokens,
 * errors and latency as Prometheus metrics, and token usage attributed to the session, room and material named in
 * the request (store hash `usageKeys.usage(scope, id)`, fields `input`/`output` plus `<role>:input`/`<role>:output`).
 * Recording never fails a call: a store error is logged and the model's answer is returned as usual.
 */

export interface MeterOptions {
  metrics: Metrics;
  store?: Store | undefined;
  logger?: Logger | undefined;
  /** refuses a call billed to an account whose daily budget is spent, before it starts. */
  budget?: ModelBudget | undefined;
}

type Method = 'generateObject' | 'streamText' | 'embed';

/** Usage lives as long as what it is attributed to: a session's and a room's expire with them, a material's stays. */
const SCOPES = [
  ['session', 'sessionId', { ttlMs: RETENTION.sessionMs }],
  ['room', 'roomId', { ttlMs: RETENTION.roomMs }],
  ['material', 'materialId', {}],
  // per account and UTC day (the id gets the day appended below), for the daily model budget.
  ['account', 'accountId', { ttlMs: RETENTION.accountUsageMs }],
] as const;

/** The request's attribution with the account of the surrounding runBilledTo filled in (the call's own wins). */
function billed(attribution: Attribution | undefined): Attribution | undefined {
  const accountId = attribution?.accountId ?? currentBillTo();
  return accountId === undefined ? attribution : { ...attribution, accountId };
}

export function meterModel(model: LanguageModel, options: MeterOptions): LanguageModel {
  const { metrics, store, logger, budget } = options;

  /** Before a call: refused when its account's budget for today is spent. A store that cannot say lets it through. */
  const checkBudget = async (attribution: Attribution | undefined): Promise<void> => {
    const accountId = attribution?.accountId;
    if (budget === undefined || accountId === undefined) return;
    try {
      await budget.assertAvailable(accountId);
    } catch (error) {
      if (isAppError(error) && error.code === 'MODEL_BUDGET_EXCEEDED') throw error;
      logger?.warn({ err: error, accountId }, 'could not read the model budget; the call goes ahead');
    }
  };

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
      const key = usageKeys.usage(scope, scope === 'account' ? accountUsageId(id, Date.now()) : id);
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

  /** The provider's stream, metered: latency, tokens and usage once it ends, errors as they come. */
  const meteredStream = (role: ModelRole, request: ModelRequestBase): TextStream => {
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
  };

  /**
   * A stream whose budget is checked first (asynchronously, while streamText must answer at once): the provider's
   * stream opens only once the check passed; a refusal is the stream's error, thrown at the first delta and by
   * `result`, as any other model failure.
   */
  const gatedStream = (role: ModelRole, request: ModelRequestBase): TextStream => {
    const opened = checkBudget(request.attribution).then(
      () => meteredStream(role, request),
      (error: unknown) => {
        metrics.modelCalls.inc({ role, kind: model.kind, method: 'streamText' });
        recordError(role, error);
        throw error;
      },
    );
    const result = opened.then((stream) => stream.result);
    result.catch(() => undefined);
    return {
      result,
      async *[Symbol.asyncIterator]() {
        yield* await opened;
      },
    };
  };

  return {
    kind: model.kind,
    capabilities: model.capabilities,

    modelName: (role) => model.modelName(role),

    async generateObject<T>(given: GenerateObjectRequest<T>): Promise<GenerateObjectResult<T>> {
      const attribution = billed(given.attribution);
      const request = attribution === undefined ? given : { ...given, attribution };
      const role = request.role ?? 'generation';
      await checkBudget(attribution);
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

    streamText(given: ModelRequestBase): TextStream {
      const attribution = billed(given.attribution);
      const request = attribution === undefined ? given : { ...given, attribution };
      const role = request.role ?? 'generation';
      if (budget !== undefined && attribution?.accountId !== undefined) return gatedStream(role, request);
      return meteredStream(role, request);
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
