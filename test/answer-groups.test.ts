/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AG1 — Grouped by meaning. (`test/answer-groups.test.ts`). One item's answers are grouped by term vectors of the
 *   retrieval analyzer offline (cosine ≥ 0.45) or by the model's embeddings (cosine ≥ 0.88), complete linkage:
 *   paraphrases share a group, an answer that says the opposite with the same words never does, equal texts
 *   (blank ones too) always do.
 * - AG2 — Needs_Review first. Groups holding an answer under review come first, then larger groups, then by their
 *   first answer.
 * - AG3 — Stable ids. A group's id is a hash of the question and its sorted members: the same whatever the order of
 *   the answers or their statuses, another as soon as a member joins or leaves.
 * - AG4 — Moved out. An answer the teacher moved out stands alone; the rest of its group get a new id.
 */
import { describe, expect, it } from 'vitest';
import { EMBEDDING_THRESHOLD, TERM_THRESHOLD, answerGroupId, groupAnswers, type GroupableAnswer } from '../src/exams/index.js';
import type { GradeStatus } from '../src/exams/index.js';

const answer = (sessionId: string, text: string, status: GradeStatus = 'Correct'): GroupableAnswer => ({ sessionId, text, status });

/** Item: 표본 평균이 모평균의 불편추정량인 이유 (reference: 기댓값이 모평균과 같다). */
const SAME = [
  answer('a', '표본 평균의 기댓값이 모평균과 같기 때문이다'),
  answer('b', '표본평균의 기댓값이 모평균과 같아서'),
  answer('c', '기댓값이 모평균과 같으니까요'),
];
const OPPOSITE = answer('d', '표본 평균의 기댓값이 모평균과 같지 않기 때문이다', 'Needs_Review');
const OTHER = [answer('e', '표본을 많이 뽑으면 분산이 작아진다', 'Incorrect'), answer('f', '표본이 많으면 분산이 작아지기 때문', 'Incorrect')];

const membersOf = (groups: ReturnType<typeof groupAnswers>) => groups.map((group) => group.answers.map((member) => member.sessionId));

describe('answer groups', () => {
  it('AG1 paraphrases share a group, a contradiction with the same words stands apart, equal texts (blank too) group', () => {
    const groups = groupAnswers(2, [...SAME, OPPOSITE, ...OTHER, answer('g', ''), answer('h', '  ')]);
    expect(membersOf(groups)).toEqual([['d'], ['a', 'b', 'c'], ['e', 'f'], ['g', 'h']]);
    expect(TERM_THRESHOLD).toBe(0.45);
    // Failing-before: without the contradiction check the opposite answer is close enough to join the paraphrases.
    expect(groups.find((group) => group.answers.some((member) => member.sessionId === 'd'))?.answers).toHaveLength(1);
  });

  it('AG1 complete linkage: a chain of neighbours is not one group', () => {
    // x ~ y and y ~ z by embeddings, but x and z are far apart: never all three together.
    const embeddings = [
      [1, 0, 0],
      [0.95, 0.31, 0],
      [0.8, 0.6, 0],
    ];
    const groups = groupAnswers(1, [answer('x', 'x'), answer('y', 'y'), answer('z', 'z')], { embeddings });
    expect(EMBEDDING_THRESHOLD).toBe(0.88);
    expect(groups.every((group) => group.answers.length <= 2)).toBe(true);
    expect(groups.map((group) => group.answers.length).sort()).toEqual([1, 2]);
  });

  it('AG1 with the model\'s embeddings, their cosine decides (not the words)', () => {
    const texts = [answer('p', '평균이 끌려간다'), answer('q', '극단값이 합을 바꾼다'), answer('r', '전혀 다른 말')];
    const embeddings = [
      [1, 0],
      [0.99, 0.14],
      [0, 1],
    ];
    expect(membersOf(groupAnswers(1, texts, { embeddings }))).toEqual([['p', 'q'], ['r']]);
    // The same answers by term vectors share no word: three groups.
    expect(groupAnswers(1, texts)).toHaveLength(3);
  });

  it('AG2 groups holding a Needs_Review answer come first, then larger groups', () => {
    const groups = groupAnswers(2, [...OTHER, ...SAME, answer('n', '기댓값이 모평균과 같기 때문', 'Needs_Review')]);
    expect(groups[0]?.needsReview).toBe(true);
    expect(membersOf(groups)).toEqual([['a', 'b', 'c', 'n'], ['e', 'f']]);
    const settled = groupAnswers(2, [...OTHER, ...SAME]);
    expect(membersOf(settled)).toEqual([['a', 'b', 'c'], ['e', 'f']]);
    expect(settled.every((group) => !group.needsReview)).toBe(true);
  });

  it('AG3 a group id depends on the question and its members only', () => {
    const forward = groupAnswers(2, [...SAME, ...OTHER]);
    const backward = groupAnswers(2, [...OTHER, ...SAME].reverse().map((member) => ({ ...member, status: 'Partial_Correct' as const })));
    expect(new Set(forward.map((group) => group.groupId))).toEqual(new Set(backward.map((group) => group.groupId)));
    expect(forward[0]?.groupId).toBe(answerGroupId(2, ['c', 'a', 'b']));
    expect(forward[0]?.groupId).toMatch(/^[0-9a-f]{12}$/u);
    expect(answerGroupId(3, ['a', 'b', 'c'])).not.toBe(answerGroupId(2, ['a', 'b', 'c']));
    // A new member: another id.
    const joined = groupAnswers(2, [...SAME, answer('k', '기댓값이 모평균과 같아요'), ...OTHER]);
    expect(joined[0]?.answers).toHaveLength(4);
    expect(joined[0]?.groupId).not.toBe(forward[0]?.groupId);
  });

  it('AG4 a moved-out answer stands alone; its former group has a new id', () => {
    const before = groupAnswers(2, [...SAME, ...OTHER]);
    const after = groupAnswers(2, [...SAME, ...OTHER], { detached: new Set(['b']) });
    expect(membersOf(after)).toEqual([['a', 'c'], ['e', 'f'], ['b']]);
    expect(after[2]?.detached).toBe(true);
    expect(after[0]?.detached).toBe(false);
    expect(after[0]?.groupId).not.toBe(before[0]?.groupId);
    expect(after[1]?.groupId).toBe(before[1]?.groupId);
  });
});
