/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - EX13 — A Descriptive model answer of the question's words is refused. A Descriptive exam item whose model answer
 *   restates its question (only its words, at least half of them: the grader's "no reference", referenceStandsIn, on
 *   which it abstains) is refused by the server's checks as a `restated-question` (examItemRefusals: guardRefusals and
 *   the offline planner), whatever wrote it; a Short_Keyword term built of the question's words (표본평균 for
 *   「표본의 평균」) is a recall item and kept. The offline writer names a term given with `이라고 한다` after a final
 *   consonant without the copula's 이 (`표본평균이라고 한다` names 표본평균, `나이라고 한다` names 나이), so no answer is a
 *   fragment like `표본평균이`.
 */
import { describe, expect, it } from 'vitest';
import { examItemRefusals, guardRefusals } from '../src/exams/exam-checks.js';
import { findDefinitions, planOffline, withoutCopula, writeOffline } from '../src/exams/exam-offline.js';
import type { ExamPassage } from '../src/exams/exam-agents.js';
import type { ExamProblem } from '../src/exams/exam-types.js';
import { referenceStandsIn } from '../src/judges/index.js';

const SAMPLING: ExamPassage = {
  number: 1,
  meta: '표본',
  text: '모집단에서 뽑은 표본의 평균을 표본평균이라고 한다. 표본평균은 뽑을 때마다 달라지는 확률변수이다. 모집단 전체의 평균은 모평균이라고 한다.',
};

function problem(overrides: Partial<ExamProblem>): ExamProblem {
  return { id: 1, type: 'Short_Keyword', question_content: '', model_answer: '', key_keywords: [], intent_diagnosis: '-', ...overrides };
}

describe('EX13: a model answer of the question\'s words is refused', () => {
  it('EX13: a Short_Keyword term built of the question\'s words is a recall item and kept', () => {
    const recall = problem({ question_content: '다음 설명에 해당하는 용어는 무엇인가? 「모집단에서 뽑은 표본의 평균」', model_answer: '표본평균', key_keywords: ['표본평균'] });
    expect(examItemRefusals(recall, [SAMPLING.text]).map((refusal) => refusal.rule)).not.toContain('restated-question');
  });

  it('EX13: a Descriptive answer that reorders its question is refused; one that says something the question does not is kept', () => {
    const passages = ['표본평균은 모집단에서 뽑은 표본의 평균으로, 뽑을 때마다 값이 달라지는 확률변수이다.'];
    const restated = problem({ type: 'Descriptive', question_content: '표본평균이 무엇인지 자료의 내용을 바탕으로 설명하시오.', model_answer: '자료의 내용을 바탕으로 보면 표본평균이다.', key_keywords: ['표본평균', '자료'] });
    expect(referenceStandsIn(restated.question_content, restated.model_answer)).toBe(true);
    expect(examItemRefusals(restated, passages).map((refusal) => refusal.rule)).toContain('restated-question');
    expect(guardRefusals([restated], passages).get(1)?.map((refusal) => refusal.rule)).toContain('restated-question');
    const sound = problem({ type: 'Descriptive', question_content: '표본평균이 무엇인지 자료의 내용을 바탕으로 설명하시오.', model_answer: passages[0] ?? '', key_keywords: ['표본평균', '확률변수'] });
    expect(examItemRefusals(sound, passages)).toEqual([]);
  });

  it('EX13: the offline planner and writer never write a Descriptive model answer of the question\'s words, and name 표본평균 without the copula', () => {
    expect(findDefinitions([SAMPLING]).map((definition) => definition.term)).toContain('표본평균');
    expect(findDefinitions([SAMPLING]).map((definition) => definition.term)).not.toContain('표본평균이');
    expect([withoutCopula('표본평균이'), withoutCopula('나이'), withoutCopula('도시화')]).toEqual(['표본평균', '나이', '도시화']);
    for (const descriptive of [0, 1, 2]) {
      let plan;
      try {
        plan = planOffline({ scope: '표본', passages: [SAMPLING], request: { count: 3, descriptive, difficulty: 'Basic' }, profile: null });
      } catch {
        continue;
      }
      const { short_answer_problems: written } = writeOffline({ scope: '표본', plan, passages: [SAMPLING], profile: null, feedback: [], prior: null });
      for (const item of written) {
        expect(item.model_answer).not.toMatch(/표본평균이$/u);
        if (item.type === 'Descriptive') expect(referenceStandsIn(item.question_content, item.model_answer), `${item.question_content} → ${item.model_answer}`).toBe(false);
      }
    }
  });
});
