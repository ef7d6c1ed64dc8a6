/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AN9 — Polls and word clouds are not items. A room's poll or word cloud (no correct answer) is left out of the item analysis: no item, no
 *   difficulty or discrimination, and nothing of it in the players' totals or the mean score.
 * - AN10 — Room partial credit. A room answer scores its stored credit (multi, ordering, numeric: 0–1) in difficulty,
 *   discrimination and totals, not right/wrong; answers stored without a credit count 1 if correct, else 0.
 * - AN13 — Every room type is an item of its own kind. O/X counts its two choices with the key; multiple answers count
 *   every option picked, each correct option a key (so a wrong option picked more than every key is flagged); ordering,
 *   numeric and short text have no choice counts (no distractors to count); an answer of any shape is answered, only
 *   a missed question is unanswered; each item says its type.
 */
import { describe, expect, it } from 'vitest';
import { analyseRoom, type RoomResultsInput } from '../src/analytics/item-analysis.js';
import { pointBiserial } from '../src/analytics/statistics.js';
import type { RecordedResponse } from '../src/protocol/wire/quiz.js';

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

/** An answer as the room stores it (AnswerResult): `choice` for one-choice answers, `response` for every shape. */
const given = (questionIndex: number, credit: number, response: RecordedResponse) => ({ questionIndex, correct: credit === 1, credit, choice: 'choice' in response ? response.choice : null, response });
const missed = (questionIndex: number) => ({ questionIndex, correct: false, credit: 0, choice: null });

/** Four players over every scored type and a poll; the poll's answers must change nothing. */
const MIXED: RoomResultsInput = {
  roomId: 'r2',
  title: '새 유형 방',
  createdAt: 2,
  questions: [
    { index: 0, type: 'truefalse', question: '평균은 항상 중앙값과 같다.', choices: ['참', '거짓'], answer: 1, solution: { type: 'truefalse', answer: false, correctChoice: 1 } },
    { index: 1, type: 'multi', question: '대푯값을 모두 고르세요', choices: ['평균', '분산', '중앙값', '범위'], answer: -1, solution: { type: 'multi', correctChoices: [0, 2], allOrNothing: false } },
    { index: 2, type: 'ordering', question: '분산을 구하는 순서', choices: ['제곱한다', '평균을 뺀다', '평균을 낸다'], answer: -1, solution: { type: 'ordering', correctOrder: [1, 0, 2] } },
    { index: 3, type: 'numeric', question: '1, 2, 3의 평균은?', choices: [], answer: -1, solution: { type: 'numeric', answer: 2, tolerance: 0, range: 1 } },
    { index: 4, type: 'short', question: '가운데 값의 이름은?', choices: [], answer: -1, solution: { type: 'short', answer: '중앙값', accept: [] } },
    { index: 5, type: 'poll', question: '오늘 수업은?', choices: ['쉬움', '어려움'], answer: -1, solution: { type: 'poll' } },
  ],
  players: [
    {
      playerId: 'p1',
      answers: [given(0, 1, { choice: 1 }), given(1, 1, { choices: [0, 2] }), given(2, 1, { order: [1, 0, 2] }), given(3, 1, { value: 2 }), given(4, 1, { text: '중앙값' }), { ...given(5, 0, { choice: 0 }), credit: null }],
    },
    {
      playerId: 'p2',
      answers: [given(0, 1, { choice: 1 }), given(1, 0, { choices: [0, 1] }), given(2, 1 / 3, { order: [0, 1, 2] }), given(3, 0.5, { value: 2.5 }), given(4, 0, { text: '평균' }), { ...given(5, 0, { choice: 1 }), credit: null }],
    },
    { playerId: 'p3', answers: [given(0, 0, { choice: 0 }), given(1, 0, { choices: [1] }), missed(2), given(3, 0, { value: 9 }), given(4, 1, { text: '중앙 값' }), missed(5)] },
    { playerId: 'p4', answers: [missed(0), given(1, 0, { choices: [1, 3] }), given(2, 0, { order: [2, 1, 0] }), given(3, 1, { value: 2 }), given(4, 0, { text: '최빈값' }), { ...given(5, 0, { choice: 1 }), credit: null }] },
  ],
};

describe('room item analysis of every type', () => {
  it('AN13 O/X and multiple answers count their choices with their keys; ordering, numeric and short text have none; only a missed question is unanswered', () => {
    const analysis = analyseRoom(MIXED);
    expect(analysis.items.map((item) => [item.number, item.type, item.unanswered, item.difficulty])).toEqual([
      [1, 'truefalse', 1, 0.5],
      [2, 'multi', 0, 0.25],
      [3, 'ordering', 1, (1 + 1 / 3) / 4],
      [4, 'numeric', 0, 2.5 / 4],
      [5, 'short', 0, 0.5],
    ]);
    const [truefalse, multi, ordering, numeric, short] = analysis.items;
    expect(truefalse!.choices!.map((choice) => [choice.text, choice.count, choice.correct])).toEqual([
      ['참', 1, false],
      ['거짓', 2, true],
    ]);
    // Every option picked counts: 평균 2, 분산 3 (a wrong option picked more than either key), 중앙값 1, 범위 1.
    expect(multi!.choices!.map((choice) => [choice.text, choice.count, choice.correct])).toEqual([
      ['평균', 2, true],
      ['분산', 3, false],
      ['중앙값', 1, true],
      ['범위', 1, false],
    ]);
    expect(multi!.flags).toContain('distractor-beats-key');
    for (const item of [ordering, numeric, short]) expect(item!.choices).toBeUndefined();
    // Totals by credit, the poll left out: 5; 1 + 0 + 1/3 + 0.5 + 0; 0 + 0 + 0 + 0 + 1; 0 + 0 + 0 + 1 + 0.
    const totals = [5, 1 + 1 / 3 + 0.5, 1, 1];
    expect(multi!.discrimination).toBeCloseTo(pointBiserial([1, 0, 0, 0], totals)!, 10);
    expect(ordering!.discrimination).toBeCloseTo(pointBiserial([1, 1 / 3, 0, 0], totals)!, 10);
    expect(analysis.items.some((item) => item.question === '오늘 수업은?')).toBe(false);
  });
});
