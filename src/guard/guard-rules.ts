/**
 * The rules of the item guard, each with the Korean name the AI 품질 console shows. A refusal names one rule and
 * says, in Korean, what is wrong with the item; the same sentence is what a model is told when it rewrites it.
 */
import type { GuardRule } from '../protocol/wire/quality.js';

export { GUARD_RULES, GUARD_RULE_NAMES, type GuardRule } from '../protocol/wire/quality.js';

/** One reason an item may not be stored or shown. */
export interface Refusal {
  rule: GuardRule;
  /** What is wrong, in Korean: shown to the instructor, logged, and given to a model that rewrites the item. */
  reason: string;
}
