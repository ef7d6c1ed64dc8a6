import type { Logger } from '../kernel/index.js';
import { readJsonRecord, type Store } from '../store/index.js';
import { StoredAnswer, StoredItem } from './self-study.js';
import { quizKeys } from './quiz-keys.js';

/** A class student's first answer to one self-study item, for the learner profile (src/exams/prior-profile.ts). */
export interface SelfStudyAnswer {
  question: string;
  correct: boolean;
  /** The chapter the item was drawn from (its source's title), else the chapter asked for; null when neither is known. */
  topic: string | null;
  at: number;
}

/** How many of the class's newest self-study items are read for one student's answers. */
const MAX_ITEMS_READ = 500;

/**
 * The first answers a class student gave to self-study items of seed 001's API (POST /api/quiz/start, /answer),
 * newest last. The items are found through the class's index (the one their deletion drains) and kept when their
 * scope is this student's session: the answer is tied to the student by the class session token they started the
 * item with. Items expire after SELF_QUIZ_TTL_MS, so this is what lectern still knows, not a full history.
 */
export async function selfStudyAnswers(
  store: Store,
  owner: { classId: string; sessionId: string },
  options: { chapterTitle?: (materialId: string, chapter: number) => Promise<string | null>; logger?: Logger | undefined } = {},
): Promise<SelfStudyAnswer[]> {
  const members = await store.zrange(quizKeys.selfQuizIndex('class', owner.classId), 0, MAX_ITEMS_READ - 1, { reverse: true });
  const answers: SelfStudyAnswer[] = [];
  // One round trip per item, all at once: up to 500 sequential reads would hold the profile build for their sum.
  const stored = await Promise.all(members.map(({ member: quizId }) => store.hmget(quizKeys.selfQuizItem(quizId), ['record', 'answer'])));
  for (const [index, { member: quizId }] of members.entries()) {
    const key = quizKeys.selfQuizItem(quizId);
    const [rawRecord, rawAnswer] = stored[index] ?? [];
    if (rawRecord === null || rawRecord === undefined || rawAnswer === null || rawAnswer === undefined) continue;
    const record = readJsonRecord(rawRecord, StoredItem, { key, logger: options.logger });
    if (!record || record.scope.kind !== 'student' || record.scope.sessionId !== owner.sessionId || record.scope.classId !== owner.classId) continue;
    const answer = readJsonRecord(rawAnswer, StoredAnswer, { key, logger: options.logger });
    if (!answer) continue;
    const source = record.item.sources?.[0]?.chapterTitle.trim();
    const asked = record.chapter === null ? null : ((await options.chapterTitle?.(record.materialId, record.chapter)) ?? null);
    answers.push({ question: record.item.question, correct: answer.correct, topic: source !== undefined && source !== '' ? source : asked, at: answer.at });
  }
  return answers.sort((left, right) => left.at - right.at);
}
