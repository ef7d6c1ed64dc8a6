/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - GD20 — The EvalAgent discriminates. Offline it scores from evidence: a sound cloze on a key term passes; the same
 *   kind of item blanked on a verb or half a term fails …
 * - GD21 — The critic discriminates. Offline it refuses a model answer that is a placeholder or its question
 *   (NOT_HELPFUL, helpfulness 0) …
 */
import { describe, expect, it } from 'vitest';
import { gradeOffline } from '../src/critic/critic-offline.js';
import { judgeOffline } from '../src/quiz/eval-offline.js';

/**
 * GD20–GD21 (test/SPEC.md "Item guard"): the offline gates discriminate. The EvalAgent scores from evidence — a sound
 * cloze on a key term passes, the same sentence blanked on a verb or half a term fails, and their scores differ —
 * and the offline critic refuses a placeholder or a restated question as an answer, and never tells a Korean answer
 * to an English passage to be rewritten in English when the instruction is Korean.
 */

const passage = (text: string) => ({ chunkId: '0.0', text, chapter: 0, chapterTitle: 'Heuristics', startPage: 1, endPage: 1, documentType: 'definition' as const, level: 'beginner' as const });
const TEXT =
  'A heuristic is a function that estimates the cost of the cheapest path from a state to a goal. An admissible heuristic never overestimates the true cost of reaching the goal. The learning rate α controls the size of each step. If the learning rate is too large, the updates overshoot the maximum. Hill climbing can get stuck in a local maximum, so random restarts are often used. A local maximum is a state that is better than all of its neighbors.';
const cloze = (sentence: string, key: string, distractors: string[]) => ({
  question: `다음 빈칸에 들어갈 말로 알맞은 것은? 「${sentence}」`,
  choices: [key, ...distractors],
  answer: 0,
  explanation: `자료의 원문은 「${sentence.replace('____', key)}」입니다. 따라서 빈칸에 들어갈 말은 '${key}'입니다.`,
  difficulty: 'easy' as const,
});

describe('GD20 the offline EvalAgent scores from evidence', () => {
  it('passes a sound cloze on a key term and fails blanks on a verb and on half a term, with different scores', () => {
    const judge = (item: ReturnType<typeof cloze>) => judgeOffline({ item, passages: [passage(TEXT)] });
    const good = judge(cloze('A ____ is a function that estimates the cost of the cheapest path from a state to a goal.', 'heuristic', ['local maximum', 'learning rate', 'state']));
    const verb = judge(cloze('Hill climbing can get ____ in a local maximum, so random restarts are often used.', 'stuck', ['lowest', 'follows', 'ordered']));
    const half = judge(cloze('The ____ rate α controls the size of each step.', 'learning', ['heuristic', 'state', 'maximum']));
    expect(good.is_passed).toBe(true);
    expect(verb.is_passed).toBe(false);
    expect(half.is_passed).toBe(false);
    expect(verb.feedback).toMatch(/동사형/u);
    expect(half.feedback).toMatch(/learning rate/u);
    const triples = new Set([good, verb, half].map((reply) => `${reply.grounding_score}/${reply.educational_score}/${reply.insight_score}`));
    expect(triples.size).toBe(3);
  });
});

describe('GD21 the offline critic refuses hollow answers and respects the instruction’s language', () => {
  const instruction = '질문에 대한 모범 답안을 한국어로 쓰세요.';
  const question = 'heuristic이 무엇인지 설명해 보세요.';
  const input = JSON.stringify({ question, lecture: TEXT });
  const criteria = { criteria_name: 'default', weights: { completeness: 0.2, accuracy: 0.2, consistency: 0.2, safety: 0.2, helpfulness: 0.2 } };

  it('a model answer that is the question, or a placeholder, is no answer', () => {
    for (const modelAnswer of [question, '핵심 개념']) {
      const report = gradeOffline({ ...criteria, instruction, input, output: JSON.stringify({ modelAnswer, keyPoints: ['x'] }) });
      expect(report.failure_types).toContain('NOT_HELPFUL');
      expect(report.criteria_scores.helpfulness).toBe(0);
      expect(report.unfixable_issues.join(' ')).toMatch(/답이 비어 있는 것과 같습니다/u);
    }
  });

  it('a Korean answer about an English passage is not told to be rewritten in English', () => {
    const output = JSON.stringify({ modelAnswer: 'heuristic은 상태에서 목표까지 가장 싼 경로의 비용을 추정하는 함수입니다.', keyPoints: ['비용 추정'] });
    const report = gradeOffline({ ...criteria, instruction, input, output });
    expect(report.fixable_issues.map((issue) => issue.suggestion).join(' ')).not.toMatch(/영어로 다시 쓰세요/u);
    expect(report.unfixable_issues).toEqual([]);
  });
});
