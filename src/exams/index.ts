/**
 * Exams (issue 15, seed 000): the learner profile, Planner → Writer → Validator, live exams with a server clock and
 * autosaved drafts, the grader with evidence, and the feedback agent.
 */
export * from './exam-types.js';
