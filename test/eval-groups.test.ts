/*
 * Rule pinned in this file (test/SPEC.md is its index; the tests below are its full statement):
 * - GR22 — What grading by groups saves is measured. `npm run eval:groups` groups each dev question's answers as the
 *   results page does and counts a teacher's actions to grade every answer right: one group grade with the group's
 *   most common gold status, plus one override per member whose gold status differs; purity is the share of answers
 *   whose gold status is their group's. Groups never cost more actions than grading answers one by one, and an answer
 *   that says the opposite with the same words is never in its group. The review queue (answers the offline exam
 *   grader holds) is settled by groups only where a group grade is fewer actions than its held members one by one.
 */
import { describe, expect, it } from 'vitest';
import { groupedMembers, groupingWork, reviewWork } from '../scripts/eval-groups.js';
import type { EvalItem } from '../scripts/eval-support.js';

const item = (questionId: string, answer: string, label3: 'correct' | 'partial' | 'incorrect'): EvalItem => ({
  id: `${questionId}-${answer}`,
  questionId,
  question: '표본의 크기가 커지면 표본평균의 분산은 어떻게 되나요?',
  reference: '표본의 크기가 커지면 표본평균의 분산은 작아진다.',
  alternatives: [],
  keywords: undefined,
  source: undefined,
  answer,
  label3,
  label2: label3 === 'correct' ? 'good' : 'bad',
  contradiction: false,
});

describe('GR22 what grading by groups saves is measured', () => {
  it('GR22 a pure group is one action, a member of another status one more, singletons one each', () => {
    expect(groupingWork([['correct', 'correct', 'correct'], ['incorrect']])).toEqual({ answers: 4, groups: 2, actions: 2, purity: 1 });
    expect(groupingWork([['correct', 'correct', 'partial', 'correct']])).toEqual({ answers: 4, groups: 1, actions: 2, purity: 0.75 });
    expect(groupingWork([['correct'], ['partial'], ['incorrect']])).toEqual({ answers: 3, groups: 3, actions: 3, purity: 1 });
    // A group of two that disagree costs what grading them one by one costs, never more.
    expect(groupingWork([['correct', 'incorrect']]).actions).toBe(2);
  });

  it('GR22 answers are grouped question by question, and an opposite said with the same words stands apart', () => {
    const items = [
      item('q1', '표본평균의 분산이 작아진다.', 'correct'),
      item('q1', '표본평균의 분산이 작아진다', 'correct'),
      item('q1', '표본평균의 분산이 작아지지 않는다.', 'incorrect'),
      item('q2', '표본평균의 분산이 작아진다.', 'correct'),
    ];
    const groups = groupedMembers(items, 0.45).map((group) => group.map((member) => member.gold));
    expect(groups.map((labels) => [...labels].sort())).toEqual(expect.arrayContaining([['correct', 'correct'], ['incorrect'], ['correct']]));
    expect(groups).toHaveLength(3);
    expect(groupingWork(groups)).toEqual({ answers: 4, groups: 3, actions: 3, purity: 1 });
  });

  it('GR22 the review queue: a group holding held answers is graded at once where that is fewer actions', () => {
    const held = (gold: string) => ({ gold, held: true });
    const told = (gold: string) => ({ gold, held: false });
    // Three held answers of one status: one group grade. One held among told ones of another status: one override.
    expect(reviewWork([[held('correct'), held('correct'), held('correct')], [held('partial'), told('correct'), told('correct')], [told('incorrect')]])).toEqual({
      held: 4,
      actions: 2,
    });
    // Held answers of three statuses in one group cost what they cost one by one.
    expect(reviewWork([[held('correct'), held('partial'), held('incorrect')]])).toEqual({ held: 3, actions: 3 });
  });
});
