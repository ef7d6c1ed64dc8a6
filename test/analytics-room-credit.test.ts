/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AN9 — Polls and word clouds are not items. A room's poll or word cloud (no correct answer) is left out of the item analysis: no item, no
 *   difficulty or discrimination, and nothing of it in the players' totals or the mean score.
 * - AN10 — Room partial credit. A room answer scores its stored credit (multi, ordering, numeric: 0–1) in difficulty,
 *   discrimination and totals, not right/wrong; answers stored without a credit count 1 if correct, else 0.
 */
import { describe, expect, it } from 'vitest';
import { analyseRoom, type RoomResultsInput } from '../src/analytics/item-analysis.js';

const answer = (questionIndex: number, credit: number | null, choice?: number) => ({ questionIndex, correct: credit === 1, credit, ...(choice === undefined ? {} : { choice }) });

const room: RoomResultsInput = {
  roomId: 'r1',
  title: '유형 섞인 방',
  createdAt: 1,
  questions: [
    { index: 0, type: 'multi', question: '대푯값을 모두', choices: ['평균', '중앙값', '분산'], answer: -1 },
    { index: 1, type: 'poll', question: '오늘 수업은?', choices: ['쉬움', '어려움'], answer: -1 },
    { index: 2, type: 'choice', question: '평균은?', choices: ['a', 'b', 'c', 'd'], answer: 0 },
    { index: 3, type: 'cloud', question: '떠오르는 낱말은?', choices: [], answer: -1 },
  ],
  players: [
    { playerId: 'p1', answers: [answer(0, 0.5), answer(1, null, 0), answer(2, 1, 0), answer(3, null)] },
    { playerId: 'p2', answers: [answer(0, 0.25), answer(1, null, 1), answer(2, 0, 1), answer(3, null)] },
    { playerId: 'p3', answers: [answer(0, 1), answer(1, null, 1), { questionIndex: 2, correct: true, choice: 0 }, answer(3, null)] },
  ],
};

describe('room item analysis by credit', () => {
  it('AN9 a poll or a word cloud is no item and adds nothing to totals or the mean score', () => {
    const analysis = analyseRoom(room);
    expect(analysis.items.map((item) => item.number)).toEqual([1, 3]);
    // Totals over the two scored items: 1.5, 0.25, 2 → shares 0.75, 0.125, 1 → mean 0.625.
    expect(analysis.meanScore).toBeCloseTo(0.625, 10);
  });

  it('AN10 partial credit is the stored credit, not right or wrong', () => {
    const [multi, choice] = analyseRoom(room).items;
    expect(multi!.difficulty).toBeCloseTo((0.5 + 0.25 + 1) / 3, 10);
    // An answer stored without a credit (before partial credit) counts by `correct`.
    expect(choice!.difficulty).toBeCloseTo(2 / 3, 10);
    expect(multi!.discrimination).not.toBeNull();
  });
});
