/**
 * The instructor's class analytics (분석): `GET /api/analytics/classes/:classId` answers {@link ClassAnalyticsReply};
 * `GET /api/analytics/classes/:classId/:part.csv` the same figures as CSV. Types only (the browser bundles them).
 */

/** Why an item is flagged for review; the page words each one in Korean. */
export type ItemFlag =
  /** Point-biserial below {@link LOW_DISCRIMINATION} (students who did well overall did not do better here). */
  | 'low-discrimination'
  /** Point-biserial below zero: the stronger students missed it more often; check the key. */
  | 'negative-discrimination'
  /** Share correct below {@link HARD_ITEM}. */
  | 'too-hard'
  /** Share correct above {@link EASY_ITEM}. */
  | 'too-easy'
  /** A wrong choice was picked more often than the correct one. */
  | 'distractor-beats-key';

export const LOW_DISCRIMINATION = 0.2;
export const HARD_ITEM = 0.3;
export const EASY_ITEM = 0.9;

/** One choice of a multiple-choice item and how many students picked it. */
export interface ChoiceCount {
  index: number;
  text: string;
  count: number;
  correct: boolean;
}

/**
 * A room item's type as the teacher reads it (the analytics page beside its number, the items CSV); the plain 4-choice
 * item has none.
 */
export const ITEM_TYPE_NAMES: Readonly<Record<string, string>> = { truefalse: 'O/X', multi: '복수 정답', ordering: '순서', numeric: '수', short: '단답' };

export interface ItemStatistics {
  /** 1-based item number as the room or exam shows it. */
  number: number;
  /** A room item's question type (`choice`, `truefalse`, `multi`, `ordering`, `numeric`, `short`); none for an exam's. */
  type?: string;
  question: string;
  /** Students scored on the item (answered or not, graded). */
  respondents: number;
  /** Share correct, 0–1 (partial credit counts its fraction); null with no respondent. */
  difficulty: number | null;
  /** Point-biserial correlation of the item score with the total score, −1–1; null when either does not vary. */
  discrimination: number | null;
  /**
   * Items with choices and a key among them (4-choice, O/X, multiple answers): every choice with how many picked it
   * (distractors are the wrong ones; with multiple answers every correct choice is a key and a player counts in each
   * choice they picked).
   */
  choices?: ChoiceCount[];
  /** Students with no answer (a room's question that closed unanswered). */
  unanswered: number;
  flags: ItemFlag[];
}

/** Item analysis of one quiz room or one exam. */
export interface AssessmentAnalysis {
  kind: 'room' | 'exam';
  id: string;
  title: string;
  /** When it was held (room created, exam published), ms. */
  at: number;
  students: number;
  /** Mean total over max total, 0–1; null with no student. */
  meanScore: number | null;
  items: ItemStatistics[];
  /** Numbers of the flagged items, the one to look at first first (a negative discrimination before a weak one). */
  review: number[];
}

export type EvidenceKind = 'lecture' | 'hand' | 'quiz' | 'exam';

/** One fact behind a mastery cell. `score`: 1 right, 0 wrong, fractions for partial credit; null counts nothing (a raised hand). */
export interface MasteryEvidence {
  kind: EvidenceKind;
  text: string;
  score: number | null;
  /** Where it came from: the exam's or quiz's title, or the lecture's chapter. */
  source: string;
  /** How much it counts in the cell's mean when less than 1 (a self-assessed lecture verdict); absent: 1. */
  weight?: number;
}

export interface MasteryCell {
  /** Weighted mean score of the scored evidence, 0–1; null when nothing was scored. */
  mastery: number | null;
  /** How many facts bear on the cell (scored or not); the facts themselves come from the evidence route. */
  evidenceCount: number;
}

export interface MasteryMap {
  /** The material's chapters in lecture order; an exam with no chapter named counts in a last column with index −1. */
  chapters: { index: number; title: string }[];
  students: { sessionId: string; nickname: string; cells: MasteryCell[] }[];
}

/** `GET /api/analytics/classes/:classId/evidence?sessionId=&chapter=`: one cell of the map with its facts, newest last. */
export interface MasteryEvidenceReply {
  sessionId: string;
  nickname: string;
  chapter: { index: number; title: string };
  mastery: number | null;
  evidence: MasteryEvidence[];
}

export interface FunnelStep {
  chapter: number;
  title: string;
  /** Students who started the chapter (reached it or went past). */
  reached: number;
  /** Students who went past it (the next chapter, or finished the lecture). */
  completed: number;
  /** Raised hands closed in the chapter, and how many students raised them. */
  hands: number;
  handStudents: number;
  /** Students with a bad verdict in the chapter (sent to remediation). */
  remediated: number;
}

export interface LectureFunnel {
  /** The class's students. */
  students: number;
  steps: FunnelStep[];
}

export interface ClassAnalyticsReply {
  classId: string;
  name: string;
  generatedAt: number;
  assessments: AssessmentAnalysis[];
  mastery: MasteryMap;
  funnel: LectureFunnel;
}

export const ANALYTICS_CSV_PARTS = ['items', 'mastery', 'funnel'] as const;
export type AnalyticsCsvPart = (typeof ANALYTICS_CSV_PARTS)[number];
