import type { Logger } from '../kernel/index.js';
import { QuizItem, type Quiz } from '../protocol/quiz.js';
import { readJsonRecord, type Store } from '../store/index.js';
import { classItemAnswerField } from './class-quiz-items.js';
import { quizKeys } from './quiz-keys.js';
import { StoredAnswer } from './self-study.js';
import type { SelfStudyAnswer } from './self-study-answers.js';

/** How many of the class's newest quizzes are read for one student's answers to their items. */
const MAX_QUIZZES_READ = 50;

/**
 * The first answers a class student gave to the items of their class's quizzes through seed 001's `/answer`
 * (`quiz_id` `<quiz id>:<index>`, class-quiz-items.ts), newest last, in the shape of the self-study answers so that
 * the learner profile weighs both alike (src/exams/prior-profile.ts): one outcome each, the topic the chapter the item
 * was drawn from (its first source's title) when it has one. Only the class's newest quizzes are read, and the
 * answers expire with the self-study TTL, so this is what lectern still knows, not a full history.
 */
export async function classQuizAnswers(
  store: Store,
  quizzes: { get(quizId: string): Promise<Quiz | null> },
  owner: { classId: string; sessionId: string },
  options: { logger?: Logger | undefined } = {},
): Promise<SelfStudyAnswer[]> {
  const members = await store.zrange(quizKeys.classQuizzes(owner.classId), 0, MAX_QUIZZES_READ - 1, { reverse: true });
  const scope = { kind: 'student', sessionId: owner.sessionId } as const;
  const perQuiz = await Promise.all(
    members.map(async ({ member: quizId }): Promise<SelfStudyAnswer[]> => {
      const quiz = await quizzes.get(quizId);
      if (!quiz || quiz.classId !== owner.classId || quiz.items.length === 0) return [];
      const key = quizKeys.classQuizItems(quizId);
      const stored = await store.hmget(key, quiz.items.map((_, index) => classItemAnswerField(index, scope)));
      return stored.flatMap((raw, index) => {
        if (raw === null) return [];
        const answer = readJsonRecord(raw, StoredAnswer, { key, logger: options.logger });
        const item = QuizItem.safeParse(quiz.items[index]);
        if (!answer || !item.success) return [];
        const source = item.data.sources?.[0]?.chapterTitle.trim();
        return [{ question: item.data.question, correct: answer.correct, topic: source !== undefined && source !== '' ? source : null, at: answer.at }];
      });
    }),
  );
  return perQuiz.flat().sort((left, right) => left.at - right.at);
}
