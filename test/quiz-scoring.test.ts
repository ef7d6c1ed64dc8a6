/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - UX1 — Results CSV. Korean headers; one row per player with `N번 선택` (`2. 평균` or `무응답`), `N번 정답 여부` (O/X), `N번 점수`
 *   per question; a blank line, then the question table (text, four choices, answer, counts) …
 * - UX2 — Tie at 0. Players at 0 share the place after the last scorer (1, 2, 2); everybody at 0 share rank 1 in the
 *   JSON and get an empty rank in the CSV.
 */
import { describe, expect, it } from 'vitest';
import { RoomOptions, type QuizItem } from '../src/protocol/quiz.js';
import { applyCommand, dueAt, dueTransition, remainingMs, type PhaseRecord } from '../src/quiz/room-phase.js';
import { resultsCsv } from '../src/quiz/results-csv.js';
import { buildResults } from '../src/quiz/room-results.js';
import type { RoomMeta } from '../src/quiz/room-repository.js';
import { basePoints, computeStandings, standingsHistory, streakBonus, type RecordedAnswer } from '../src/quiz/scoring.js';
import { sampleItems } from './support/quiz-client.js';

const items: QuizItem[] = sampleItems(3); // answers 0, 1, 2
const players = [
  { playerId: 'p1', nickname: '가', joinedAt: 1 },
  { playerId: 'p2', nickname: '나', joinedAt: 2 },
  { playerId: 'p3', nickname: '다', joinedAt: 3 },
];
const answersOf = (...rows: Record<string, RecordedAnswer>[]) => rows.map((row) => new Map(Object.entries(row)));

describe('scoring', () => {
  it('a correct answer scores round(1000 × (1 − (t/T)/2)), a full 1000 under 0.5 s, at least 500 at the deadline', () => {
    expect(basePoints(0, 20_000)).toBe(1000);
    expect(basePoints(499, 20_000)).toBe(1000);
    expect(basePoints(500, 20_000)).toBe(988);
    expect(basePoints(10_000, 20_000)).toBe(750);
    expect(basePoints(20_000, 20_000)).toBe(500);
    expect(basePoints(25_000, 20_000)).toBe(500);
    expect(basePoints(3_333, 10_000)).toBe(Math.round(1000 * (1 - 0.3333 / 2)));
  });

  it('the streak bonus is +100 per consecutive correct answer after the first, capped at +500', () => {
    expect([1, 2, 3, 6, 7, 20].map(streakBonus)).toEqual([0, 100, 200, 500, 500, 500]);
  });

  it('standings: wrong and missing answers score 0 and reset the streak; kicked players are left out', () => {
    const answers = answersOf(
      { p1: { choice: 0, responseMs: 1000 }, p2: { choice: 0, responseMs: 400 }, p3: { choice: 3, responseMs: 100 }, gone: { choice: 0, responseMs: 0 } },
      { p1: { choice: 1, responseMs: 2000 }, p2: { choice: 2, responseMs: 100 } },
      { p1: { choice: 2, responseMs: 20_000 }, p2: { choice: 2, responseMs: 0 } },
    );
    const standings = computeStandings(items, players, answers, 2, { questionMs: 20_000, streakBonus: true, speedBonus: true, roomId: 'r' });
    const [first, second, third] = standings.rows;
    const history = standingsHistory(items, players, answers, 2, { questionMs: 20_000, streakBonus: true, speedBonus: true, roomId: 'r' });
    expect(first).toMatchObject({ playerId: 'p1', rank: 1, correctCount: 3, streak: 3 });
    expect(first!.result).toEqual(history[2]!.get('p1'));
    expect(history.map((results) => results.get('p1')!.points)).toEqual([basePoints(1000, 20_000), basePoints(2000, 20_000) + 100, 500 + 200]);
    expect(second).toMatchObject({ playerId: 'p2', rank: 2, score: 1000 + 0 + 1000, streak: 1 });
    expect(third).toMatchObject({ playerId: 'p3', rank: 3, score: 0 });
    expect(history[1]!.get('p3')).toEqual({ choice: null, correct: false, credit: 0, responseMs: null, points: 0, streakBonus: 0 });
    expect(standings.questions[0]).toEqual({ distribution: [2, 0, 0, 1], answered: 3, correct: 2 });
    expect(standings.rows.some((row) => row.playerId === 'gone')).toBe(false);
  });

  it('ties rank by the lower total response time, then by join order; the bonus can be switched off', () => {
    const answers = answersOf({ p1: { choice: 0, responseMs: 300 }, p2: { choice: 0, responseMs: 200 }, p3: { choice: 0, responseMs: 200 } });
    const standings = computeStandings(items, players, answers, 0, { questionMs: 20_000, streakBonus: false, speedBonus: true, roomId: 'r' });
    expect(standings.rows.map((row) => [row.playerId, row.score, row.rank])).toEqual([
      ['p2', 1000, 1],
      ['p3', 1000, 2],
      ['p1', 1000, 3],
    ]);
    const twice = answersOf({ p1: { choice: 0, responseMs: 0 } }, { p1: { choice: 1, responseMs: 0 } });
    expect(computeStandings(items, players, twice, 1, { questionMs: 20_000, streakBonus: false, speedBonus: true, roomId: 'r' }).rows[0]!.score).toBe(2000);
  });

  it('standings are a pure function of the answers: recomputing gives the same table', () => {
    const answers = answersOf({ p1: { choice: 0, responseMs: 5000 }, p3: { choice: 0, responseMs: 100 } });
    const options = { questionMs: 20_000, streakBonus: true, speedBonus: true, roomId: 'r' };
    expect(computeStandings(items, players, answers, 0, options)).toEqual(computeStandings(items, [...players].reverse(), answers, 0, options));
  });
});

describe('room phases', () => {
  const options = RoomOptions.parse({ questionSeconds: 10, previewSeconds: 2 });
  const context = (now: number) => ({ options, totalQuestions: 2, now });

  it('walks lobby → preview → open → reveal → leaderboard → … → podium → ended', () => {
    let record: PhaseRecord = { phase: 'lobby', v: 0 };
    record = applyCommand(record, 'room:start', context(1000));
    expect(record).toEqual({ phase: 'preview', v: 1, q: 0, deadline: 3000 });
    expect(dueTransition(record, { ...context(2999), graceMs: 250 })).toBeNull();
    record = dueTransition(record, { ...context(3000), graceMs: 250 })!;
    expect(record).toEqual({ phase: 'open', v: 2, q: 0, openedAt: 3000, deadline: 13_000 });
    expect(dueAt(record, 250)).toBe(13_250);
    expect(dueTransition(record, { ...context(13_100), graceMs: 250 })).toBeNull();
    record = dueTransition(record, { ...context(13_250), graceMs: 250 })!;
    expect(record).toEqual({ phase: 'reveal', v: 3, q: 0 });
    record = applyCommand(record, 'room:next', context(14_000));
    expect(record.phase).toBe('leaderboard');
    record = applyCommand(record, 'room:next', context(15_000));
    expect(record).toMatchObject({ phase: 'preview', q: 1 });
    record = applyCommand(record, 'room:skip', context(15_500));
    expect(record).toMatchObject({ phase: 'open', q: 1, openedAt: 15_500 });
    record = applyCommand(record, 'room:skip', context(16_000));
    expect(record).toMatchObject({ phase: 'reveal', q: 1 });
    record = applyCommand(record, 'room:next', context(17_000));
    record = applyCommand(record, 'room:next', context(18_000));
    expect(record.phase).toBe('podium');
    record = applyCommand(record, 'room:next', context(19_000));
    expect(record).toMatchObject({ phase: 'ended', endedAt: 19_000 });
    expect(() => applyCommand(record, 'room:end', context(20_000))).toThrow(expect.objectContaining({ code: 'WRONG_PHASE' }));
  });

  it('pause freezes the remaining time; resume moves the deadline and the opening by the paused time', () => {
    const open: PhaseRecord = { phase: 'open', v: 5, q: 0, openedAt: 0, deadline: 10_000 };
    const paused = applyCommand(open, 'room:pause', context(4_000));
    expect(paused).toMatchObject({ v: 6, paused: { remainingMs: 6_000, at: 4_000 } });
    if (paused.phase !== 'open') throw new Error('still open');
    expect(remainingMs(paused, 9_000)).toBe(6_000);
    expect(dueAt(paused, 250)).toBeNull();
    expect(dueTransition(paused, { ...context(50_000), graceMs: 250 })).toBeNull();
    expect(() => applyCommand(paused, 'room:pause', context(5_000))).toThrow(expect.objectContaining({ code: 'WRONG_PHASE' }));
    expect(() => applyCommand(paused, 'room:skip', context(5_000)).phase).not.toThrow();
    const resumed = applyCommand(paused, 'room:resume', context(7_000));
    expect(resumed).toEqual({ phase: 'open', v: 7, q: 0, openedAt: 3_000, deadline: 13_000 });
  });

  it('refuses commands that make no sense in the current phase', () => {
    const cases: Array<[PhaseRecord, Parameters<typeof applyCommand>[1]]> = [
      [{ phase: 'lobby', v: 0 }, 'room:next'],
      [{ phase: 'lobby', v: 0 }, 'room:pause'],
      [{ phase: 'open', v: 1, q: 0, openedAt: 0, deadline: 1 }, 'room:next'],
      [{ phase: 'open', v: 1, q: 0, openedAt: 0, deadline: 1 }, 'room:resume'],
      [{ phase: 'reveal', v: 1, q: 0 }, 'room:start'],
      [{ phase: 'podium', v: 1 }, 'room:pause'],
    ];
    for (const [record, command] of cases) {
      expect(() => applyCommand(record, command, context(0)), `${record.phase} ${command}`).toThrow(expect.objectContaining({ code: 'WRONG_PHASE' }));
    }
  });
});

describe('results export', () => {
  it('UX1 CSV: Korean headers, one row per player with choice/O-X/points per question, a question table, BOM, formula guard', () => {
    const meta: RoomMeta = {
      roomId: 'r1',
      classId: 'c1',
      quizId: 'q1',
      code: '123456',
      title: '퀴즈',
      options: RoomOptions.parse({}),
      items: items.slice(0, 2),
      createdAt: 0,
    };
    const tricky = [
      { playerId: 'p1', nickname: '=HYPERLINK("x")', joinedAt: 1 },
      { playerId: 'p2', nickname: '쉼표,이름', joinedAt: 2 },
    ];
    const trickyAnswers = answersOf({ p1: { choice: 0, responseMs: 100 } }, { p2: { choice: 1, responseMs: 100 } });
    const trickyOptions = { questionMs: 20_000, streakBonus: true, speedBonus: true, roomId: 'r' };
    const standings = computeStandings(meta.items, tricky, trickyAnswers, 1, trickyOptions);
    const history = standingsHistory(meta.items, tricky, trickyAnswers, 1, trickyOptions);
    const csv = resultsCsv(buildResults(meta, { phase: 'ended', v: 9, endedAt: 5 }, standings, history));
    expect(csv.startsWith('\ufeff순위,닉네임,총점,맞힌 문항 수,응답 시간 합계(초),1번 선택,1번 정답 여부,1번 점수,2번 선택,')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines.at(-1)).toBe('');
    // Header, two players, a blank line, the question table's header and two questions.
    expect(lines.slice(0, -1)).toHaveLength(1 + 2 + 1 + 1 + 2);
    const [first, second] = [items[0]!, items[1]!];
    expect(lines[1]).toBe(`1,"'=HYPERLINK(""x"")",1000,1,0.1,1. ${first.choices[0]},O,1000,무응답,X,0,p1`);
    // p2 answered question 2 only, with choice 1 (index 1, the right one): a place, since it scored.
    expect(lines[2]).toMatch(new RegExp(`^2,"쉼표,이름",\\d+,1,0\\.1,무응답,X,0,2\\. ${second.choices[1]},O,\\d+,p2$`));
    expect(lines[3]).toBe('');
    expect(lines[4]).toBe('문항,질문,보기 1,보기 2,보기 3,보기 4,정답,응답한 사람,맞힌 사람,해설,유형');
    expect(lines[5]!.startsWith(`1,${first.question},${first.choices.join(',')},1. ${first.choices[0]},1,1,`)).toBe(true);
    // Nobody leaked a runnable formula: every cell starting with = + - @ is prefixed.
    for (const cell of csv.split(/[,\r\n]/)) expect(cell).not.toMatch(/^"?[=+@]/);
  });

  it('UX2 players at 0 share the place after the last scorer (competition ranking); when everybody is at 0 nobody places', () => {
    const meta: RoomMeta = { roomId: 'r2', classId: 'c1', quizId: 'q1', code: '654321', title: '퀴즈', options: RoomOptions.parse({}), items: items.slice(0, 1), createdAt: 0 };
    const options = { questionMs: 20_000, streakBonus: true, speedBonus: true, roomId: 'r' };
    const csvRanks = (standings: ReturnType<typeof computeStandings>) =>
      resultsCsv(buildResults(meta, { phase: 'ended', v: 3, endedAt: 5 }, standings, [])).slice(1).split('\r\n').slice(1, 4).map((line) => line.split(',')[0]);

    // p3 scores; p1 (wrong, faster) and p2 (no answer) tie at 0: both 2nd, not 2nd and 3rd by speed or join order.
    const one = computeStandings(meta.items, players, answersOf({ p1: { choice: 3, responseMs: 100 }, p3: { choice: 0, responseMs: 900 } }), 0, options);
    expect(Object.fromEntries(one.rows.map((row) => [row.playerId, row.rank]))).toEqual({ p3: 1, p1: 2, p2: 2 });
    expect(csvRanks(one)).toEqual(['1', '2', '2']);

    // Nobody scored: all share rank 1 in the JSON, and the CSV shows no rank at all (never "1" for a 0).
    const none = computeStandings(meta.items, players, answersOf({ p1: { choice: 3, responseMs: 100 } }), 0, options);
    expect(none.rows.map((row) => row.rank)).toEqual([1, 1, 1]);
    expect(csvRanks(none)).toEqual(['', '', '']);
  });
});
