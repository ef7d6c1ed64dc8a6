import { randomUUID } from 'node:crypto';
import type { Logger } from '../kernel/index.js';
import { clipText, renderInput, renderInstruction, UNSAMPLED_TASK_PREFIXES, type QualityCase } from './quality-case.js';
import type { QualityRepository } from './quality-repository.js';

export interface QualitySamplerOptions {
  repository: QualityRepository;
  /** QUALITY_SAMPLE_RATE: the share of every agent's finished calls that is sampled (0 = none). */
  rate: number;
  /** QUALITY_SAMPLE_RATES: per agent (task name), replacing `rate`. */
  rates?: Readonly<Record<string, number>>;
  logger?: Logger | undefined;
  /** A number in [0, 1) per decision (tests make it deterministic). */
  random?: () => number;
  now?: () => number;
}

/** What the model decorator hands over when a call finished. */
export interface FinishedCall {
  task: string;
  system?: string | undefined;
  prompt: string;
  input: unknown;
  /** The streamed text, or the generated object. */
  output: string | object;
  accountId?: string | undefined;
  materialId?: string | undefined;
  sessionId?: string | undefined;
}

/**
 * Decides which finished model calls become quality cases and queues them. Fire-and-forget: `offer` returns at once
 * and never throws, and a store error is logged, so sampling can neither slow nor fail the sampled call.
 */
export class QualitySampler {
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly options: QualitySamplerOptions) {
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  /** The rate of one agent (0 for the critic's own calls). */
  rateOf(task: string): number {
    if (UNSAMPLED_TASK_PREFIXES.some((prefix) => task.startsWith(prefix))) return 0;
    return this.options.rates?.[task] ?? this.options.rate;
  }

  /** Whether any agent can be sampled at all (when not, the model is not even wrapped). */
  get enabled(): boolean {
    return this.options.rate > 0 || Object.values(this.options.rates ?? {}).some((rate) => rate > 0);
  }

  /** Whether this call is sampled: decided before its output is kept, so unsampled calls cost nothing. */
  wants(task: string): boolean {
    const rate = this.rateOf(task);
    return rate > 0 && (rate >= 1 || this.random() < rate);
  }

  /** Queues a finished call in the background. */
  offer(call: FinishedCall): void {
    let sampled: QualityCase;
    try {
      const output = typeof call.output === 'string' ? call.output : JSON.stringify(call.output);
      if (output.trim() === '') return;
      sampled = {
        id: randomUUID().replaceAll('-', ''),
        agent: call.task,
        at: this.now(),
        instruction: renderInstruction(call.system, call.prompt),
        input: renderInput(call.input),
        output: clipText(output),
        ...(call.accountId === undefined ? {} : { accountId: call.accountId }),
        ...(call.materialId === undefined ? {} : { materialId: call.materialId }),
        ...(call.sessionId === undefined ? {} : { sessionId: call.sessionId }),
      };
    } catch (error) {
      this.options.logger?.warn({ err: error, agent: call.task }, 'could not sample a model call');
      return;
    }
    const write = this.options.repository
      .enqueue(sampled)
      .then((queued) => {
        if (!queued) this.options.logger?.debug({ agent: sampled.agent }, 'quality queue full: sample dropped');
      })
      .catch((error: unknown) => this.options.logger?.warn({ err: error, agent: sampled.agent }, 'could not queue a quality sample'))
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Resolves once every sample offered so far is written (or failed): for tests and shutdown. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
