import type { Logger } from '../kernel/index.js';
import { isAppError } from '../kernel/index.js';
import type { CriticCase, CriticReport } from '../protocol/wire/critic.js';
import { type Store } from '../store/index.js';
import type { QualityBudget } from './quality-budget.js';
import type { QualityCase } from './quality-case.js';
import type { QualityRepository } from './quality-repository.js';
import { qualityKeys } from './quality-keys.js';

const MINUTE_MS = 60_000;

/** The critic as the grading loop needs it (the CriticGrader, given by app.ts: quality/ does not import critic/). */
export interface CaseGrader {
  grade(gradedCase: CriticCase): Promise<{ ok: true; report: CriticReport } | { ok: false; code: string; message: string }>;
}

export interface QualityGraderOptions {
  store: Store;
  repository: QualityRepository;
  grader: CaseGrader;
  budget: QualityBudget;
  nodeId: string;
  logger: Logger;
  /** Between two runs on this node (default a minute). */
  intervalMs?: number;
  /** How long the lease outlives a run. */
  leaseMs?: number;
  /** Cases graded per run at most. */
  batch?: number;
}

export interface GradingRun {
  /** False when another node held the lease (this node did nothing). */
  ran: boolean;
  graded: number;
  ungraded: number;
  /** True when the run stopped because today's grading budget is spent (or grading is off: QUALITY_DAILY_TOKENS=0). */
  budgetSpent: boolean;
}

/**
 * The quality console's background grading: takes queued cases, oldest first, and grades each with the critic
 * (seed 004) under the daily grading budget; a graded case is stored with its report and counted in its day's
 * aggregates, one the critic could not grade is counted as ungraded (never a default grade). One node at a time,
 * under the store lease qualityKeys.qualityLease, which the node keeps (renewing it at each run) as the retention purge
 * does; when the budget is spent, runs stop at once until the next UTC day, and the queue's TTL drops what waits.
 */
export class QualityGrader {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<GradingRun> | undefined;

  constructor(private readonly options: QualityGraderOptions) {}

  /** Runs every `intervalMs`; unref'd so it never holds the process. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(
      () => void this.runOnce().catch((error: unknown) => this.options.logger.warn({ err: error }, 'quality grading failed')),
      this.options.intervalMs ?? MINUTE_MS,
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
    await this.options.store.releaseLease(qualityKeys.qualityLease(), this.options.nodeId).catch(() => undefined);
  }

  /** One run (no overlap on this node). */
  runOnce(): Promise<GradingRun> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(): Promise<GradingRun> {
    const { store, repository, budget, nodeId, logger } = this.options;
    const leaseMs = this.options.leaseMs ?? 5 * (this.options.intervalMs ?? MINUTE_MS);
    const held = (await store.acquireLease(qualityKeys.qualityLease(), nodeId, leaseMs)) || (await store.renewLease(qualityKeys.qualityLease(), nodeId, leaseMs));
    const outcome: GradingRun = { ran: held, graded: 0, ungraded: 0, budgetSpent: false };
    if (!held) return outcome;
    for (let index = 0; index < (this.options.batch ?? 20); index += 1) {
      if (!(await budget.available())) {
        outcome.budgetSpent = true;
        break;
      }
      const sampled = await repository.takeNext();
      if (sampled === null) break;
      if (await this.grade(sampled)) outcome.graded += 1;
      else outcome.ungraded += 1;
    }
    if (outcome.graded + outcome.ungraded > 0) logger.info({ graded: outcome.graded, ungraded: outcome.ungraded, budgetSpent: outcome.budgetSpent }, 'quality grading run');
    return outcome;
  }

  /** Grades one case; true when it got a grade. A failure is counted as ungraded and the run goes on. */
  private async grade(sampled: QualityCase): Promise<boolean> {
    const { repository, grader, logger } = this.options;
    try {
      const result = await grader.grade({
        data_to_grade: { instruction: sampled.instruction, input: sampled.input, output: sampled.output },
        agent_name: sampled.agent,
      });
      if (result.ok) {
        await repository.saveGraded(sampled, result.report);
        return true;
      }
      logger.warn({ agent: sampled.agent, code: result.code }, 'a sampled output could not be graded');
    } catch (error) {
      if (!isAppError(error)) logger.error({ err: error, agent: sampled.agent }, 'quality grading failed on a case');
      else logger.warn({ agent: sampled.agent, code: error.code }, 'a sampled output could not be graded');
    }
    await repository.countUngraded(sampled).catch((error: unknown) => logger.warn({ err: error }, 'could not count an ungraded sample'));
    return false;
  }
}
