import { expect } from 'vitest';
import type { Material } from '../../src/materials/index.js';
import { episodes, generatedChapter, WRONG_ANSWER, type AnswerPolicy, type LectureClient } from './lecture-client.js';
import { askedQuestions, displayedLecture, rawLecture, SCRIPTED_CHAPTERS } from './lecture-gemini.js';
import type { TestApp } from './test-app.js';

/**
 * The scripted lecture's scenario, whichever provider's fake serves the script (lecture-gemini.integration and
 * lecture-openai.integration): the student's answers and what the student must have seen. Rule ids: test/SPEC.md.
 */

/** Odd lecture questions answered wrongly, even ones well; subquestion 1 wrongly, the others well. */
export const mixedStudent = (): AnswerPolicy => {
  let questions = 0;
  return (asked) => {
    if (asked.parentQuestionId !== undefined) return asked.index === 1 ? WRONG_ANSWER : '세어 보면 3개입니다.';
    questions += 1;
    return questions % 2 === 1 ? WRONG_ANSWER : '모든 값을 더한 다음 값의 개수로 나누면 됩니다.';
  };
};

/** L1 L2: exactly the scripted text and questions, whatever the chunking was, and the lecture ended. */
export async function expectScriptedLecture(app: TestApp, material: Material, client: LectureClient): Promise<void> {
  expect(client.seqErrors).toEqual([]);
  expect(client.answerErrors).toEqual([]);
  expect(client.events.at(-1)?.event).toBe('lecture:end');
  for (const [index, script] of SCRIPTED_CHAPTERS.entries()) {
    // L1: exactly the scripted text, markers and questions removed, whatever the chunking was.
    expect(client.text.get(index)).toBe(displayedLecture(script));
    expect((await generatedChapter(app, material.id, index)).raw).toBe(rawLecture(script));
    // L2: every question asked, in order, trimmed, including the unterminated one at the end of chapter 2.
    expect(client.all('lecture:question').filter((question) => question.chapter === index).map((question) => question.text)).toEqual(
      askedQuestions(script),
    );
  }
}

/** L3–L6: the tutoring of {@link mixedStudent}'s answers, both paths, with the script's verdicts and replies. */
export function expectScriptedTutoring(client: LectureClient): void {
  const shapes = episodes(client.events).map((episode) => [episode.questionId, episode.shape, episode.next]);
  // After the sub-concepts the parent question is asked again (seed 003) and judged before the supplement.
  const bad = 'answer verdict:bad sub1/2 answer verdict:bad reply:remedial sub2/2 answer verdict:good reask answer verdict:bad reply:supplement';
  const good = 'answer verdict:good reply:supplement';
  expect(shapes).toEqual([
    ['c0q1', bad, 'lecture:delta'],
    ['c0q2', good, 'lecture:delta'],
    ['c1q1', bad, 'lecture:delta'],
    ['c2q1', good, 'lecture:delta'],
    // The chapter's last question: after the tutoring the chapter ends.
    ['c2q2', bad, 'lecture:chapter-end'],
  ]);
  const first = episodes(client.events)[0];
  expect(first?.subquestions.map(({ index, total, concept, text }) => ({ index, total, concept, text }))).toEqual([
    { index: 1, total: 2, concept: '자료의 합', text: '70, 80, 90의 합은 얼마인가요?' },
    { index: 2, total: 2, concept: '자료의 개수', text: '70, 80, 90은 모두 몇 개인가요?' },
  ]);
  expect(first?.replies).toEqual([
    { kind: 'remedial', text: '다시 살펴볼게요. 자료의 합은 모든 값을 더한 것입니다.' },
    { kind: 'supplement', text: '**정리해 볼까요?** 평균은 합을 개수로 나눈 값입니다.' },
  ]);
  expect(client.all('tutor:verdict')[0]).toMatchObject({ questionId: 'c0q1', verdict: 'bad', feedback: '핵심이 빠져 있어요. 하나씩 짚어 봅시다.' });
}
