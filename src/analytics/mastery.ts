import type { MasteryEvidence, MasteryMap } from '../protocol/wire/analytics.js';
import { SELF_ASSESSED_WEIGHT } from '../protocol/wire/exams.js';
import type { TranscriptItem } from '../protocol/wire/tutor.js';
import { examItemScore } from './item-analysis.js';

/** The column of exams that name no chapter (they cover the whole material). */
export const WHOLE_MATERIAL = -1;

/** What the learner profile is built from, per student, with the chapter each fact belongs to. */
export interface StudentEvidence {
  sessionId: string;
  nickname: string;
  /** The student's lecture transcript (verdicts and raised hands carry their chapter). */
  transcript: readonly TranscriptItem[];
  /**
   * First answers to quiz items (self-study, the class's quizzes, shared math problems), oldest first; `topic` is the
   * chapter's title when known, `source` names where it was answered (`혼자 퀴즈`, `수업 퀴즈`, `수학 문제`).
   */
  quizAnswers: readonly { question: string; correct: boolean; topic: string | null; source: string }[];
  /** The student's graded exam items; `chapters`: what the exam was asked to cover (none: the whole material). */
  exams: readonly { title: string; chapters: readonly number[] | undefined; items: readonly { question: string; status: string }[] }[];
}

const EVIDENCE_PER_CELL = 50;

/** The map with each cell's facts (the reply sends counts; the evidence route sends one cell's facts). */
export interface MasteryMapWithEvidence {
  chapters: MasteryMap['chapters'];
  students: { sessionId: string; nickname: string; cells: { mastery: number | null; evidenceCount: number; evidence: MasteryEvidence[] }[] }[];
}

/** The map as the reply carries it: counts instead of facts, so a class of hundreds stays a small answer. */
export function withoutEvidence(map: MasteryMapWithEvidence): MasteryMap {
  return {
    chapters: map.chapters,
    students: map.students.map((student) => ({
      ...student,
      cells: student.cells.map((cell) => ({ mastery: cell.mastery, evidenceCount: cell.evidenceCount })),
    })),
  };
}

/**
 * Students × chapters, from the facts the learner profile is built from and weighed as it weighs them
 * (src/exams/prior-profile.ts): lecture verdicts (good 1, bad 0; a self-assessed one counts SELF_ASSESSED_WEIGHT, the
 * question asked again after a remediation is an outcome of its own), raised hands (shown, not scored: asking is not
 * failing), quiz answers, self-study and class quiz alike (right 1, wrong 0), and exam items (1, ½, 0; an exam that
 * names several chapters counts in each). Mastery is the weighted mean of the scored facts, null without any, so an
 * empty cell is "no evidence" and never "0 %".
 */
export function masteryMap(
  chapters: readonly { index: number; title: string }[],
  students: readonly StudentEvidence[],
  options: { evidence?: boolean } = {},
): MasteryMapWithEvidence {
  // Without `evidence` only the figures are kept: a class's whole map would otherwise build (and drop) a fact object
  // per exam item per student.
  const keep = options.evidence ?? true;
  const columns = [...chapters];
  const wholeUsed = students.some((student) => student.exams.some((exam) => !exam.chapters || exam.chapters.length === 0));
  if (wholeUsed) columns.push({ index: WHOLE_MATERIAL, title: '자료 전체' });
  const position = new Map(columns.map((column, at) => [column.index, at]));
  const byTitle = new Map(chapters.map((chapter) => [chapter.title.trim(), chapter.index]));
  const titleOf = new Map(chapters.map((chapter) => [chapter.index, chapter.title]));

  return {
    chapters: columns,
    students: students.map((student) => {
      const cells = columns.map(() => ({ sum: 0, weight: 0, count: 0, evidence: [] as MasteryEvidence[] }));
      const add = (chapter: number, score: number | null, evidence: () => Omit<MasteryEvidence, 'score'>, weight = 1) => {
        const cell = cells[position.get(chapter) ?? -1];
        if (!cell) return;
        cell.count += 1;
        if (score !== null) {
          cell.sum += score * weight;
          cell.weight += weight;
        }
        if (keep) cell.evidence.push({ ...evidence(), score, ...(weight === 1 ? {} : { weight }) });
      };
      const questions = new Map<string, string>();
      /** A re-asked question's id -> its own (short) wording. */
      const reasks = new Map<string, string>();
      let handText: string | null = null;
      for (const item of student.transcript) {
        const lecture = () => `강의 ${item.chapter + 1}장 ${titleOf.get(item.chapter) ?? ''}`.trim();
        if (item.type === 'question') questions.set(item.questionId, item.text);
        else if (item.type === 'reask') reasks.set(item.questionId, item.text);
        else if (item.type === 'verdict') {
          const score = item.verdict === 'good' ? 1 : 0;
          const question = questions.get(item.questionId);
          const reask = reasks.get(item.questionId);
          // A subquestion's verdict is part of its parent's remediation, not a question of its own; the parent asked
          // again after it is a second outcome on the question, at full weight.
          if (question !== undefined) add(item.chapter, score, () => ({ kind: 'lecture', text: question, source: lecture() }), item.selfAssessed ? SELF_ASSESSED_WEIGHT : 1);
          else if (reask !== undefined) add(item.chapter, score, () => ({ kind: 'lecture', text: reask, source: `${lecture()} · 보충 후 다시 물음` }));
        } else if (item.type === 'student') handText ??= item.text.trim();
        else if (item.type === 'hand-closed') {
          const text = handText ?? '(질문 없이 손을 내림)';
          add(item.chapter, null, () => ({ kind: 'hand', text, source: lecture() }));
          handText = null;
        }
      }
      for (const answer of student.quizAnswers) {
        const chapter = answer.topic === null ? undefined : byTitle.get(answer.topic.trim());
        if (chapter !== undefined) add(chapter, answer.correct ? 1 : 0, () => ({ kind: 'quiz', text: answer.question, source: answer.source }));
      }
      for (const exam of student.exams) {
        const targets = exam.chapters && exam.chapters.length > 0 ? exam.chapters : [WHOLE_MATERIAL];
        for (const item of exam.items) {
          const score = examItemScore(item.status);
          if (score === null) continue;
          for (const chapter of targets) add(chapter, score, () => ({ kind: 'exam', text: item.question, source: exam.title }));
        }
      }
      return {
        sessionId: student.sessionId,
        nickname: student.nickname,
        // The newest facts are the ones kept when a cell has more than a page shows.
        cells: cells.map((cell) => ({ mastery: cell.weight === 0 ? null : cell.sum / cell.weight, evidenceCount: cell.count, evidence: cell.evidence.slice(-EVIDENCE_PER_CELL) })),
      };
    }),
  };
}
