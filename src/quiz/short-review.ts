import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { ReviewAnswer, RoomItem, ShortItem } from '../protocol/quiz.js';
import { readJsonRecord, RETENTION, type Store } from '../store/index.js';
import type { RecordedAnswer } from './scoring.js';
import { gradeShortAnswers, type ShortGrade, type ShortGrades } from './short-answer-judge.js';
import { quizKeys } from './quiz-keys.js';
import type { ShortGrader } from './short-pregrades.js';

/**
 * Short-text grades as the room keeps them (one field `grades:q` of the room's hash, written once when the question
 * closes and again for each mark of the host's review) and the review list the host's reveal shows. Scoring reads
 * them, so every node and every redone reveal scores the same answers the same.
 */

/** Distinct answers judged per question at most; the rest wait for the host's review (the reveal path stays bounded). */
export const MAX_JUDGED_ANSWERS = 300;

const GradeSchema: z.ZodType<ShortGrade> = z.object({
  text: z.string(),
  count: z.number().int().min(0),
  credit: z.number().min(0).max(1),
  confidence: z.number().min(0).max(1),
  method: z.enum(['exact', 'math', 'judge']),
  unsure: z.boolean(),
  verdict: z.enum(['right', 'wrong']).optional(),
});
const GradesSchema = z.record(z.string(), GradeSchema);

const field = (q: number) => `grades:${q}`;

export async function readGrades(store: Store, roomId: string, q: number, logger?: Logger): Promise<ShortGrades | null> {
  const key = quizKeys.room(roomId);
  return readJsonRecord(await store.hget(key, field(q)), GradesSchema, { key: `${key} ${field(q)}`, logger });
}

export async function saveGrades(store: Store, roomId: string, q: number, grades: ShortGrades): Promise<void> {
  await store.hset(quizKeys.room(roomId), { [field(q)]: JSON.stringify(grades) }, { ttlMs: RETENTION.roomMs });
}

/**
 * The grades of every short-text question among from..to: stored ones as they are, and the question(s) closing now
 * judged in one batch from their recorded answers (`answers[q]`) and stored; `grader` gives a question's judge when
 * some of its verdicts were made while it was open (short-pregrades.ts).
 */
export async function gradesBetween(
  store: Store,
  roomId: string,
  items: readonly RoomItem[],
  answers: { readonly [q: number]: ReadonlyMap<string, RecordedAnswer> | undefined },
  from: number,
  to: number,
  logger?: Logger,
  grader?: (q: number, item: ShortItem) => ShortGrader,
): Promise<Map<number, ShortGrades>> {
  const grades = new Map<number, ShortGrades>();
  for (let q = from; q <= to; q += 1) {
    const item = items[q];
    if (item?.type !== 'short') continue;
    let stored = await readGrades(store, roomId, q, logger);
    if (!stored) {
      stored = gradeRecorded(item, answers[q]?.values() ?? [], grader?.(q, item));
      await saveGrades(store, roomId, q, stored);
    }
    grades.set(q, stored);
  }
  return grades;
}

/** Grades of a question's recorded answers (the typed ones), each distinct answer judged once; nothing is stored. */
export function gradeRecorded(item: ShortItem, answers: Iterable<RecordedAnswer>, grader?: ShortGrader): ShortGrades {
  const texts = [...answers].flatMap((answer) => ('text' in answer ? [answer.text] : []));
  return gradeShortAnswers(item, texts, MAX_JUDGED_ANSWERS, grader);
}

/** The grades after the host marks the answer `key` right or wrong (NOT_FOUND when no one gave it). */
export function withVerdict(grades: ShortGrades, key: string, correct: boolean): ShortGrades {
  const grade = grades[key];
  if (!grade) throw new AppError(ErrorCode.NOT_FOUND, '그런 답이 없습니다.');
  return { ...grades, [key]: { ...grade, verdict: correct ? 'right' : 'wrong' } };
}

/** What the host reviews: the answers the judge was unsure of (marked or not), most given first. */
export function reviewList(grades: ShortGrades): ReviewAnswer[] {
  return Object.entries(grades)
    .filter(([, grade]) => grade.unsure)
    .sort(([leftKey, left], [rightKey, right]) => right.count - left.count || (leftKey < rightKey ? -1 : 1))
    .map(([key, grade]) => ({ key, text: grade.text, count: grade.count, verdict: grade.verdict ?? null }));
}
