/**
 * The "AI 품질" console over HTTP: what `GET /api/quality/*` answer (browser-safe: types and constants
 * only). The zod schemas of the queries are in ../quality.ts; docs/PROTOCOL.md ("HTTP routes") lists the same
 * thing for people.
 */
import type { CriticFailureType, CriticFixableIssue, CriticReport, CriticScores } from './critic.js';

/** A grade histogram has this many buckets of 0.1: bucket i holds grades in [i/10, (i+1)/10), the last one also 1.0. */
export const QUALITY_GRADE_BUCKETS = 10;
/** `?days=` of the summary: 1–31, default 7. */
export const QUALITY_DAYS_DEFAULT = 7;
export const QUALITY_DAYS_MAX = 31;
/** Worst cases kept per agent (lowest grades among the kept interactions). */
export const QUALITY_WORST_CASES = 10;
/** Lines of one JSONL export at most (newest first). */
export const QUALITY_EXPORT_MAX = 5_000;

/** One sampled agent output and its critic report. `agent` is the model task name, e.g. 'lecture.write'. */
export interface QualityInteraction {
  id: string;
  agent: string;
  /** When the agent's call finished (ms). */
  at: number;
  gradedAt: number;
  accountId?: string | undefined;
  materialId?: string | undefined;
  instruction: string;
  input: string;
  output: string;
  report: CriticReport;
}

/** One UTC day of one agent. */
export interface QualityDay {
  /** yyyy-mm-dd (UTC). */
  day: string;
  /** Graded outputs. */
  count: number;
  /** Sampled outputs the critic could not grade (GRADING_ERROR): never counted as a grade. */
  ungraded: number;
  /** Grade histogram, QUALITY_GRADE_BUCKETS buckets of 0.1. */
  buckets: number[];
  /** Mean grade of the day, null without a graded output. */
  mean: number | null;
}

export interface QualityWorstCase {
  id: string;
  at: number;
  grade: number;
  /** The output's first 300 characters. */
  excerpt: string;
  failure_types: CriticFailureType[];
  fixable_issues: CriticFixableIssue[];
  unfixable_issues: string[];
}

export interface QualityAgentSummary {
  agent: string;
  /** Oldest day first, every day of the window (empty days included). */
  days: QualityDay[];
  count: number;
  ungraded: number;
  mean: number | null;
  /** Failure type → how many graded outputs carried it, in the window. */
  failureTypes: Partial<Record<CriticFailureType, number>>;
  worst: QualityWorstCase[];
  /** Item guard rule → how many of this agent's generated items it refused, in the window (see GUARD_RULES). */
  refusals: Partial<Record<GuardRule, number>>;
}

/** `GET /api/quality/summary`. */
export interface QualitySummary {
  /** `all`: an admin sees every output; `own`: an instructor sees the outputs billed to their own account. */
  scope: 'all' | 'own';
  days: number;
  /** The deployment's sampling (QUALITY_SAMPLE_RATE and its per-agent overrides). */
  sampling: { rate: number; perAgent: Record<string, number> };
  /** The deployment's daily token budget of background grading (QUALITY_DAILY_TOKENS; 0 = grading off) and today's spend. */
  budget: { dailyTokens: number; spentToday: number };
  /** Sampled outputs waiting to be graded (the whole deployment's queue). */
  queued: number;
  agents: QualityAgentSummary[];
}

/** `GET /api/quality/interactions`: newest first. */
export interface QualityInteractionPage {
  interactions: QualityInteraction[];
  /** Null when nothing older is left; a page may hold fewer than `limit` items when the grade filter skipped many. */
  nextCursor: string | null;
}

/** One line of `GET /api/quality/export.jsonl` (seed 004's data_to_grade, with its grade: fine-tuning data). */
export interface QualityExportLine {
  instruction: string;
  input: string;
  output: string;
  grade: number;
  criteria: CriticScores;
  agent: string;
  failure_types: CriticFailureType[];
}

/**
 * The item guard's rules (src/guard), each with the Korean name the AI 품질 console shows beside an agent's refusals.
 */
export const GUARD_RULES = [
  'placeholder',
  'restated-question',
  'quoted-passage',
  'medium-question',
  'duplicate',
  'front-matter',
  'cloze-blank-word',
  'cloze-partial-term',
  'cloze-fragment',
  'cloze-not-in-source',
  'cloze-in-code',
  'cloze-choice-shape',
  'choices',
  'particle',
] as const;
export type GuardRule = (typeof GUARD_RULES)[number];

export const GUARD_RULE_NAMES: Readonly<Record<GuardRule, string>> = {
  placeholder: '자리표시 답',
  'restated-question': '질문을 되풀이한 답',
  'quoted-passage': '지문을 그대로 옮긴 답',
  'medium-question': '강의·슬라이드 자체를 묻는 질문',
  duplicate: '중복 문항',
  'front-matter': '표지·목차에서 낸 문항',
  'cloze-blank-word': '빈칸이 기능어·동사·부사·형용사',
  'cloze-partial-term': '용어의 일부만 빈칸',
  'cloze-fragment': '앞 문맥이 필요한 빈칸 문장',
  'cloze-not-in-source': '근거 자료에 없는 문장·말',
  'cloze-in-code': '코드·수식 속 빈칸',
  'cloze-choice-shape': '빈칸에 맞지 않는 보기',
  choices: '보기 중복·정답 누락',
  particle: '영어 낱말 뒤 조사 오류',
};
