import type { AssessmentAnalysis, ChoiceCount, ItemStatistics } from '../protocol/wire/analytics.js';
import type { RecordedResponse, Solution } from '../protocol/wire/quiz.js';
import { itemFlags, mean, pointBiserial, reviewPriority } from './statistics.js';

/**
 * Item analysis from the records rooms and exams already keep. The inputs are the few fields read from a room's
 * stored results and an exam's results (structural types, so this file depends on neither record's full shape).
 */

/** What is read of a room's stored results (`RoomResults`): the closed questions and each player's answers. */
export interface RoomResultsInput {
  roomId: string;
  title: string;
  createdAt: number;
  questions: readonly {
    index: number;
    question: string;
    choices?: readonly string[] | undefined;
    /** The key of a 4-choice or O/X question, −1 for the other types. */
    answer?: unknown;
    type?: string | undefined;
    /** The solution the reveal showed (multiple answers: `correctChoices` are the keys). */
    solution?: Solution | undefined;
  }[];
  players: readonly {
    playerId: string;
    /** `choice`: a one-choice answer's pick; `response`: the answer of any shape (`choices` for multiple answers). */
    answers: readonly { questionIndex: number; choice?: unknown; response?: RecordedResponse | undefined; correct: boolean; credit?: number | null | undefined }[];
  }[];
}

/** What is read of an exam: its problems and each student's item statuses as they count now (overrides applied). */
export interface ExamResultsInput {
  examId: string;
  title: string;
  publishedAt: number;
  problems: readonly { id: number; question_content: string }[];
  students: readonly { sessionId: string; items: readonly { question_id: number; result_status: string }[] }[];
}

/** Credit per grade: partial credit counts half, an ungraded item counts nothing either way (it is left out). */
export function examItemScore(status: string): number | null {
  switch (status) {
    case 'Correct':
      return 1;
    case 'Partial_Correct':
      return 0.5;
    case 'Incorrect':
      return 0;
    default:
      return null;
  }
}

/** The flagged items' numbers, worst first (ties keep the items' order). */
function reviewOrder(items: readonly ItemStatistics[]): number[] {
  return items
    .filter((item) => item.flags.length > 0)
    .map((item, order) => ({ item, order, priority: reviewPriority(item.flags, item.discrimination) }))
    .sort((left, right) => right.priority - left.priority || left.order - right.order)
    .map(({ item }) => item.number);
}

/** A score matrix: students × items, null where a student has no score on the item. */
type Matrix = (number | null)[][];

function statistics(matrix: Matrix, itemCount: number): { difficulty: number | null; discrimination: number | null; respondents: number }[] {
  const totals = matrix.map((row) => row.reduce<number>((sum, score) => sum + (score ?? 0), 0));
  return Array.from({ length: itemCount }, (_, item) => {
    const scores: number[] = [];
    const pairedTotals: number[] = [];
    matrix.forEach((row, student) => {
      const score = row[item];
      if (score === null || score === undefined) return;
      scores.push(score);
      pairedTotals.push(totals[student]!);
    });
    return { difficulty: mean(scores), discrimination: pointBiserial(scores, pairedTotals), respondents: scores.length };
  });
}

function meanShare(matrix: Matrix): number | null {
  const shares = matrix.flatMap((row) => {
    const scored = row.filter((score): score is number => score !== null);
    return scored.length === 0 ? [] : [scored.reduce((sum, score) => sum + score, 0) / scored.length];
  });
  return mean(shares);
}

/** A room answer's score: the stored credit (0–1: partial credit of multi, ordering, numeric), else right or wrong. */
function roomAnswerScore(answer: { correct: boolean; credit?: number | null | undefined } | undefined): number {
  if (!answer) return 0;
  return typeof answer.credit === 'number' ? answer.credit : answer.correct ? 1 : 0;
}

type RoomQuestion = RoomResultsInput['questions'][number];
type RoomAnswer = RoomResultsInput['players'][number]['answers'][number];

/** Whether the player answered (any shape); a missed question is stored with neither a choice nor a response. */
const answered = (answer: RoomAnswer | undefined) => answer !== undefined && (typeof answer.choice === 'number' || answer.response !== undefined);

/** The choices a question's key is among: one for 4-choice and O/X, every correct one for multiple answers. */
function keysOf(question: RoomQuestion): ReadonlySet<number> | null {
  if (question.solution?.type === 'multi') return new Set(question.solution.correctChoices);
  return typeof question.answer === 'number' && question.answer >= 0 ? new Set([question.answer]) : null;
}

/** The choices an answer picked: its one choice, or every option of a multiple-answer response. */
const picks = (answer: RoomAnswer | undefined): readonly number[] =>
  typeof answer?.choice === 'number' ? [answer.choice] : answer?.response && 'choices' in answer.response ? answer.response.choices : [];

/**
 * A quiz room's items: every player who joined is scored on every closed question (no answer scores 0 and counts as
 * unanswered) by the credit stored for the answer; the total is the sum of credits. A poll or word cloud has no correct
 * answer, so it is not an item here (nor part of the totals). Choice counts are kept where there are distractors to
 * count, questions with choices and a key among them: 4-choice, O/X, and multiple answers (every option picked counts,
 * each correct one a key); an ordering's steps, a number and a typed text have none.
 */
export function analyseRoom(results: RoomResultsInput): AssessmentAnalysis {
  const questions = [...results.questions].filter((question) => question.type !== 'poll' && question.type !== 'cloud').sort((left, right) => left.index - right.index);
  const answersOf = results.players.map((player) => new Map(player.answers.map((answer) => [answer.questionIndex, answer])));
  const matrix: Matrix = answersOf.map((byQuestion) => questions.map((question) => roomAnswerScore(byQuestion.get(question.index))));
  const stats = statistics(matrix, questions.length);
  const items: ItemStatistics[] = questions.map((question, position) => {
    const { difficulty, discrimination, respondents } = stats[position]!;
    const answers = answersOf.map((byQuestion) => byQuestion.get(question.index));
    const unanswered = answers.filter((answer) => !answered(answer)).length;
    const keys = keysOf(question);
    const choices: ChoiceCount[] | undefined =
      question.choices && question.choices.length > 0 && keys
        ? question.choices.map((text, index) => ({
            index,
            text,
            count: answers.filter((answer) => picks(answer).includes(index)).length,
            correct: keys.has(index),
          }))
        : undefined;
    return {
      number: question.index + 1,
      type: question.type ?? 'choice',
      question: question.question,
      respondents,
      difficulty,
      discrimination,
      ...(choices ? { choices } : {}),
      unanswered,
      flags: itemFlags(difficulty, discrimination, choices),
    };
  });
  return { kind: 'room', id: results.roomId, title: results.title, at: results.createdAt, students: results.players.length, meanScore: meanShare(matrix), items, review: reviewOrder(items) };
}

/**
 * An exam's items: each student who opened it, scored per item by its status as it counts now (an ungraded item is
 * left out of that item's figures and of the student's total).
 */
export function analyseExam(exam: ExamResultsInput): AssessmentAnalysis {
  const problems = [...exam.problems].sort((left, right) => left.id - right.id);
  const matrix: Matrix = exam.students.map((student) => {
    const byId = new Map(student.items.map((item) => [item.question_id, item.result_status]));
    return problems.map((problem) => {
      const status = byId.get(problem.id);
      return status === undefined ? null : examItemScore(status);
    });
  });
  const stats = statistics(matrix, problems.length);
  const items: ItemStatistics[] = problems.map((problem, position) => {
    const { difficulty, discrimination, respondents } = stats[position]!;
    return {
      number: problem.id,
      question: problem.question_content,
      respondents,
      difficulty,
      discrimination,
      unanswered: 0,
      flags: itemFlags(difficulty, discrimination),
    };
  });
  return { kind: 'exam', id: exam.examId, title: exam.title, at: exam.publishedAt, students: exam.students.length, meanScore: meanShare(matrix), items, review: reviewOrder(items) };
}
