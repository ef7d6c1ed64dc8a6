import type { Logger } from '../kernel/index.js';
import type { GuardRule, Refusal } from './guard-rules.js';

/**
 * Where refusals go: every one is logged with its reason, and counted per agent and rule in the AI 품질 console
 * (app.ts gives the quality store as the `count` port). Counting never fails a generation: a store error is logged.
 */

export interface GuardRefusal {
  /** The agent (model task) whose item was refused, e.g. `quiz.generate`. */
  agent: string;
  rule: GuardRule;
  reason: string;
  /** The refused item's question (or text), for the log. */
  item: string;
  materialId?: string | undefined;
  accountId?: string | undefined;
}

export interface GuardReport {
  refused(refusals: readonly GuardRefusal[]): void;
}

export interface GuardReportOptions {
  logger?: Logger | undefined;
  /** Counts refusals (the quality console); its failure is logged, never thrown. */
  count?: ((refusals: readonly GuardRefusal[]) => Promise<void>) | undefined;
}

export function createGuardReport(options: GuardReportOptions): GuardReport {
  return {
    refused(refusals) {
      if (refusals.length === 0) return;
      for (const refusal of refusals) {
        options.logger?.info({ agent: refusal.agent, rule: refusal.rule, reason: refusal.reason, item: refusal.item.slice(0, 200), materialId: refusal.materialId }, 'item guard refused a generated item');
      }
      options.count?.(refusals).catch((error: unknown) => options.logger?.warn({ err: error }, 'item guard refusals not counted'));
    },
  };
}

/** The refusals of one item as report entries. */
export function refusalsOf(agent: string, item: string, refusals: readonly Refusal[], where: { materialId?: string | undefined; accountId?: string | undefined } = {}): GuardRefusal[] {
  return refusals.map((refusal) => ({ agent, rule: refusal.rule, reason: refusal.reason, item, ...where }));
}

/** A short Korean feedback line from refusals, for a model that rewrites the item. */
export function rewriteFeedback(refusals: readonly Refusal[]): string {
  return `[검사] ${refusals.map((refusal) => refusal.reason).join(' ')}`;
}
