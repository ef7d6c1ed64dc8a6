/**
 * The "AI 품질" console: a sample of agents' model outputs (sampled-model.ts), graded in the background
 * by the Critic Grader under a daily token budget (quality-grader.ts, quality-budget.ts), stored per agent with daily
 * aggregates (quality-repository.ts). It reaches the critic through the CaseGrader port: app.ts hands it the
 * CriticGrader.
 */
export { QualityCase, renderInput, renderInstruction, clipText, UNSAMPLED_TASK_PREFIXES } from './quality-case.js';
export { QualitySampler, type FinishedCall, type QualitySamplerOptions } from './quality-sampler.js';
export { sampleModel } from './sampled-model.js';
export { QualityRepository, bucketOf, type GradeFilter, type QualityRepositoryOptions, type QualityScope } from './quality-repository.js';
export { QualityBudget, type QualityBudgetOptions } from './quality-budget.js';
export { QualityGrader, type CaseGrader, type GradingRun, type QualityGraderOptions } from './quality-grader.js';
export { qualityKeys } from './quality-keys.js';
export { qualityLifecycle } from './quality-lifecycle.js';
