import type { Logger } from '../kernel/index.js';
import { utcDay, type GenerateObjectRequest, type LanguageModel, type Usage } from '../llm/index.js';
import { ModelError } from '../llm/index.js';
import { RETENTION, type Store } from '../store/index.js';
import { qualityKeys } from './quality-keys.js';

export interface QualityBudgetOptions {
  store: Store;
  /** QUALITY_DAILY_TOKENS: tokens the background grading may spend per UTC day; 0 = no grading. */
  dailyTokens: number;
  logger?: Logger | undefined;
  now?: () => number;
}

/**
 * The background grading's own daily token budget (QUALITY_DAILY_TOKENS), apart from the accounts' model budget: the
 * grading is the deployment's, billed to no account. `meter(model)` counts the usage of every call made through it
 * (also of a reply that did not validate: it was generated) in `qualityKeys.qualityUsage(day)`; the grader checks
 * `available()` before each case. Check-then-spend like the accounts' budget: the last grading of a day may
 * overshoot by its own size.
 */
export class QualityBudget {
  private readonly now: () => number;

  constructor(private readonly options: QualityBudgetOptions) {
    this.now = options.now ?? Date.now;
  }

  get dailyTokens(): number {
    return this.options.dailyTokens;
  }

  async spentToday(): Promise<number> {
    return Number((await this.options.store.get(qualityKeys.qualityUsage(utcDay(this.now())))) ?? 0);
  }

  async available(): Promise<boolean> {
    return this.options.dailyTokens > 0 && (await this.spentToday()) < this.options.dailyTokens;
  }

  /** The model the grading calls, counting its tokens against today's budget. */
  meter(model: LanguageModel): LanguageModel {
    const record = async (usage: Usage | undefined) => {
      const tokens = (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
      if (tokens <= 0) return;
      try {
        await this.options.store.incr(qualityKeys.qualityUsage(utcDay(this.now())), tokens, { ttlMs: RETENTION.qualityUsageMs });
      } catch (error) {
        this.options.logger?.warn({ err: error }, 'could not count the quality grading tokens');
      }
    };
    return {
      kind: model.kind,
      capabilities: model.capabilities,
      modelName: (role) => model.modelName(role),
      async generateObject<T>(request: GenerateObjectRequest<T>) {
        try {
          const result = await model.generateObject(request);
          await record(result.usage);
          return result;
        } catch (error) {
          if (error instanceof ModelError) await record(error.usage);
          throw error;
        }
      },
      streamText: (request) => model.streamText(request),
      embed: (texts, options) => model.embed(texts, options),
    };
  }
}
