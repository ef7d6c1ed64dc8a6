/**
 * The Critic Grader over HTTP (seed 004, `POST /api/critic/grade`): the shapes API clients and pages read
 * (browser-safe: types and constants only). The zod schema of the body is in ../critic.ts; docs/PROTOCOL.md
 * ("Critic Grader") describes the same thing for people.
 */

/** The five criteria of seed 004's rubric, in its order. */
export const CRITIC_CRITERIA = ['completeness', 'accuracy', 'consistency', 'safety', 'helpfulness'] as const;
export type CriticCriterion = (typeof CRITIC_CRITERIA)[number];

/** A weight or a score per criterion. */
export type CriticScores = Record<CriticCriterion, number>;

/** Seed 004's default weights (완전성 25 %, 정확성 30 %, 일관성 15 %, 안전성 20 %, 유용성 10 %). */
export const DEFAULT_CRITIC_WEIGHTS: Readonly<CriticScores> = {
  completeness: 0.25,
  accuracy: 0.3,
  consistency: 0.15,
  safety: 0.2,
  helpfulness: 0.1,
};

/** Seed 004's ten failure types; a grade never carries any other. */
export const CRITIC_FAILURE_TYPES = [
  'MISSING_REQUIRED_INFO',
  'INCORRECT_FACT',
  'LOGIC_ERROR',
  'FORMAT_ERROR',
  'POLICY_VIOLATION',
  'UNSAFE_CONTENT',
  'INCOMPLETE_RESPONSE',
  'HALLUCINATION',
  'INCONSISTENCY',
  'NOT_HELPFUL',
] as const;
export type CriticFailureType = (typeof CRITIC_FAILURE_TYPES)[number];

export const CRITIC_SEVERITIES = ['high', 'medium', 'low'] as const;
export type CriticSeverity = (typeof CRITIC_SEVERITIES)[number];

/**
 * Seed 004's failure tags that can ride on a grade (the other two, INVALID_CRITERIA and GRADING_ERROR, are refusals:
 * error codes with no grade). `MISSING_EXPECTED_OUTPUT`: accuracy counts, the case has no `expected_output`, and the
 * grader said accuracy cannot be checked without one; accuracy was then judged from the instruction and input alone.
 */
export const CRITIC_TAGS = ['MISSING_EXPECTED_OUTPUT'] as const;
export type CriticTag = (typeof CRITIC_TAGS)[number];

/** Each text of `data_to_grade` is at most this many characters. */
export const MAX_CRITIC_TEXT = 20_000;

/** Seed 004's `data_to_grade`. */
export interface CriticData {
  instruction: string;
  input: string;
  output: string;
  expected_output?: string | undefined;
}

/** Seed 004's `grading_criteria`; `weights` may name only some criteria (the others weigh 0) but must sum to 1. */
export interface CriticCriteria {
  criteria_name: string;
  weights?: Partial<Record<CriticCriterion, number>> | undefined;
}

/** The body of `POST /api/critic/grade`: one case to grade. Without `grading_criteria`, seed 004's default weights. */
export interface CriticCase {
  data_to_grade: CriticData;
  grading_criteria?: CriticCriteria | undefined;
  agent_name?: string | undefined;
}

export interface CriticFixableIssue {
  issue: string;
  severity: CriticSeverity;
  suggestion: string;
}

/**
 * The answer of `POST /api/critic/grade`: seed 004's output, then our extras. `grade` is the server's weighted mean
 * of the clamped criterion scores (Σ score × weight, rounded to 3 decimals); a grader's own total is never used.
 */
export interface CriticReport {
  // ---- seed 004's output
  grade: number;
  criteria_scores: CriticScores;
  failure_types: CriticFailureType[];
  fixable_issues: CriticFixableIssue[];
  unfixable_issues: string[];
  /** Korean; starts with `[휴리스틱 채점]` when no language model graded (the offline grader). */
  grading_report: string;
  // ---- extras
  tags: CriticTag[];
  /** The weights the grade was computed with, all five (a criterion the request left out weighs 0). */
  weights: CriticScores;
  criteria_name: string;
  agent_name?: string | undefined;
  /** Who graded: the model's name, and whether it was the deterministic heuristic rather than a language model. */
  grader: { model: string; heuristic: boolean };
}
