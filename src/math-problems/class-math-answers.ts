import type { MathSetRepository } from './math-set-repository.js';

/** A class student's first answer to a shared math problem, in the learner profile's quiz-evidence shape. */
export interface ClassMathAnswer {
  question: string;
  correct: boolean;
  /** The title of the chapter the set was made for; null for a set made from the whole material (no one chapter). */
  topic: string | null;
  at: number;
}

/**
 * A class student's first answers to the short-answer math problems shared with their class, oldest first, with the
 * chapter their set was made for as the topic, so that the learner profile and the class's mastery map place them in
 * a chapter as they place quiz answers. Each set is read once; an answer whose set or problem is gone is skipped.
 */
export async function classMathAnswers(
  sets: Pick<MathSetRepository, 'firstAnswers' | 'get'>,
  sessionId: string,
  options: { chapterTitle?: ((materialId: string, chapter: number) => Promise<string | null>) | undefined } = {},
): Promise<ClassMathAnswer[]> {
  const answers = await sets.firstAnswers(sessionId);
  const setIds = [...new Set(answers.map((answer) => answer.setId))];
  const read = await Promise.all(
    setIds.map(async (setId) => {
      const set = await sets.get(setId);
      const topic = set?.chapter === undefined || !options.chapterTitle ? null : await options.chapterTitle(set.materialId, set.chapter);
      return [setId, set ? { set, topic } : null] as const;
    }),
  );
  const bySet = new Map(read);
  return answers.flatMap(({ setId, problemId, correct, at }) => {
    const entry = bySet.get(setId);
    const problem = entry?.set.problems.find((candidate) => candidate.problemId === problemId);
    return entry && problem ? [{ question: problem.question, correct, topic: entry.topic, at }] : [];
  });
}
