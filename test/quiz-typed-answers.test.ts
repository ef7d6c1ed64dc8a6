/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - TM9 — One verdict per distinct answer. A short-text question's close judges each distinct answer key once
 *   (NFKC, case-blind, spaces collapsed, surrounding quotes and final punctuation dropped; empty answers dropped), the
 *   most given first; past the cap the rest are left unsure for the host. The exact model or accepted answer and a
 *   math-equal answer are certain; the assessor's verdict below CONFIDENT_AT is unsure. Scoring reads the grades:
 *   the host's mark first, an unsure answer 0 and flagged `unsure`, no grade 0.
 * - TM10 — Cloud words. Typed words are counted by key with the first spelling shown, invisible and control
 *   characters removed, capped at CLOUD_WORDS words and MAX_TEXT_ANSWER characters, most typed first; a cloud
 *   answer scores nothing and leaves the streak as it was.
 * - TM28 — Verdicts made while the question is open are the close's. Answers judged as they arrive give the close
 *   the grades it gives judging them all itself (texts and counts from the close); a verdict belongs to its room's
 *   question (another question or room never reuses it), and at most the cap of distinct answers is judged early.
 */
import { describe, expect, it } from 'vitest';
import { CLOUD_WORDS, MAX_TEXT_ANSWER, RoomItem, type ShortItem } from '../src/protocol/quiz.js';
import { recordedResponse } from '../src/quiz/item-types.js';
import { computeStandings, standingsHistory, type RecordedAnswer } from '../src/quiz/scoring.js';
import { gradeShortAnswers, shortCredit } from '../src/quiz/short-answer-judge.js';
import { reviewList, withVerdict } from '../src/quiz/short-review.js';
import { ShortPregrades } from '../src/quiz/short-pregrades.js';
import { answerKey, cleanText, cloudWords } from '../src/quiz/text-answers.js';

const median: ShortItem = { type: 'short', question: '자료의 가운데 값으로, 이상값에 덜 민감한 대푯값은?', answer: '중앙값', accept: ['median'], explanation: '.', difficulty: 'easy' };
const UNSURE = '정렬했을 때 가운데 오는 값';

describe('short-text grades', () => {
  it('TM9 each distinct answer is judged once: exact and accepted answers are certain, the assessor may be unsure', () => {
    const grades = gradeShortAnswers(median, ['중앙값', ' 중앙값. ', '“Median”', 'ＭＥＤＩＡＮ!', UNSURE, '평균', '   ']);
    expect(Object.keys(grades).sort()).toEqual(['median', '중앙값', '평균', UNSURE].sort());
    expect(grades['중앙값']).toMatchObject({ count: 2, credit: 1, method: 'exact', unsure: false });
    expect(grades.median).toMatchObject({ count: 2, text: '“Median”', method: 'exact' });
    expect(grades[UNSURE]).toMatchObject({ method: 'judge', unsure: true });
    expect(grades['평균']).toMatchObject({ method: 'judge', credit: 0, unsure: false });
  });

  it('TM9 a math model answer is compared by value; past the cap the rarest answers wait for the host', () => {
    const equation: ShortItem = { ...median, question: '2x = 6 의 해는?', answer: 'x = 3', accept: [] };
    const grades = gradeShortAnswers(equation, ['3', '6/2', '4', '4', '4'], 2);
    expect(grades['4']).toMatchObject({ count: 3, credit: 0, method: 'math', unsure: false });
    // "3" came first among the once-given answers, so "6/2" is past the cap of 2.
    expect(grades['3']).toMatchObject({ credit: 1, method: 'math' });
    expect(grades['6/2']).toMatchObject({ unsure: true, confidence: 0 });
  });

  it("TM9 credit reads the host's mark first, an unmarked unsure answer is 0; the review list shows unsure answers", () => {
    const grades = gradeShortAnswers(median, [UNSURE, UNSURE, '중앙값']);
    expect(shortCredit(grades, UNSURE)).toBe(0);
    expect(shortCredit(grades, '없던 답')).toBe(0);
    expect(reviewList(grades)).toEqual([{ key: UNSURE, text: UNSURE, count: 2, verdict: null }]);
    const marked = withVerdict(grades, UNSURE, true);
    expect(shortCredit(marked, `${UNSURE}.`)).toBe(1);
    expect(shortCredit(withVerdict(grades, '중앙값', false), '중앙값')).toBe(0);
    expect(() => withVerdict(grades, 'nobody', true)).toThrow();

    const items = [RoomItem.parse(median)];
    const players = [
      { playerId: 'a', nickname: '가', joinedAt: 1 },
      { playerId: 'b', nickname: '나', joinedAt: 2 },
    ];
    const answers = [new Map<string, RecordedAnswer>([['a', { text: UNSURE, responseMs: 1000 }], ['b', { text: '중앙값', responseMs: 1000 }]])];
    const options = { questionMs: 20_000, streakBonus: false, speedBonus: false, roomId: 'r' };
    const before = computeStandings(items, players, answers, 0, { ...options, grades: new Map([[0, grades]]) });
    expect(before.rows.find((row) => row.playerId === 'a')!.result).toMatchObject({ credit: 0, points: 0, unsure: true });
    expect(before.rows.find((row) => row.playerId === 'b')!.result).toMatchObject({ credit: 1, points: 1000 });
    const after = computeStandings(items, players, answers, 0, { ...options, grades: new Map([[0, marked]]) });
    expect(after.rows.find((row) => row.playerId === 'a')!.result).toMatchObject({ credit: 1, points: 1000 });
    expect(after.rows.find((row) => row.playerId === 'a')!.result!.unsure).toBeUndefined();
  });
});

describe('word cloud', () => {
  it('TM10 words are counted by key with the first spelling, invisible characters removed, capped and ordered by count', () => {
    expect(cleanText('a\u200bb\u0007  c\u202e')).toBe('ab c');
    expect(cleanText('가'.repeat(MAX_TEXT_ANSWER + 50))).toHaveLength(MAX_TEXT_ANSWER);
    expect(answerKey('  "Hello!" ')).toBe('hello');
    expect(cloudWords(['평균', ' 평균 ', '분산', '', '\u200b', '<img src=x>'])).toEqual([
      { text: '평균', count: 2 },
      { text: '<img src=x>', count: 1 },
      { text: '분산', count: 1 },
    ]);
    expect(cloudWords(Array.from({ length: CLOUD_WORDS + 10 }, (_, index) => `w${index}`))).toHaveLength(CLOUD_WORDS);
  });

  it('TM10 a cloud answer is typed text with no credit; the streak carries over it', () => {
    const cloud = RoomItem.parse({ type: 'cloud', question: '한 단어로?', explanation: '', difficulty: 'easy' });
    expect(recordedResponse(cloud, { text: '  평균 ' })).toEqual({ text: '평균' });
    expect(() => recordedResponse(cloud, { text: '\u200b' })).toThrow();
    expect(() => recordedResponse(cloud, { choice: 0 })).toThrow();
    const truefalse = RoomItem.parse({ type: 'truefalse', question: '참?', answer: true, explanation: '.', difficulty: 'easy' });
    const players = [{ playerId: 'a', nickname: '가', joinedAt: 1 }];
    const answers = [
      new Map<string, RecordedAnswer>([['a', { choice: 0, responseMs: 100 }]]),
      new Map<string, RecordedAnswer>([['a', { text: '평균', responseMs: 100 }]]),
      new Map<string, RecordedAnswer>([['a', { choice: 0, responseMs: 100 }]]),
    ];
    const typed = [truefalse, cloud, truefalse];
    const typedOptions = { questionMs: 20_000, streakBonus: true, speedBonus: false, roomId: 'r' };
    const standings = computeStandings(typed, players, answers, 2, typedOptions);
    const history = standingsHistory(typed, players, answers, 2, typedOptions);
    expect(history[1]!.get('a')).toMatchObject({ credit: null, points: 0 });
    expect(standings.rows[0]!.result).toMatchObject({ points: 1100, streakBonus: 100 });
    expect(standings.questions[1]!.words).toEqual([{ text: '평균', count: 1 }]);
  });
});

describe('short-text verdicts made while the question is open', () => {
  const equation: ShortItem = { type: 'short', question: '2x = 6 일 때 x는?', answer: '3', explanation: '.', difficulty: 'easy' };
  const texts = ['중앙값', ' 중앙값. ', 'median', UNSURE, '평균', UNSURE, '최빈값', '   ', '가운데 값'];

  it('TM28 early verdicts give the close the grades it would give alone, per room and question, up to the cap', () => {
    const pregrades = new ShortPregrades(300);
    // Half the answers arrive (and are judged) before the close; a differently spelled duplicate among them.
    for (const text of texts.slice(0, 5)) pregrades.prejudge('room-a', 2, median, text);
    expect(gradeShortAnswers(median, texts, 300, pregrades.grader('room-a', 2, median))).toEqual(gradeShortAnswers(median, texts, 300));

    // Another room's question 2 is another item: the same words are judged against it, in each room.
    pregrades.prejudge('room-b', 2, equation, '중앙값');
    const other = ['3', '6/2', '중앙값', '4'];
    expect(gradeShortAnswers(equation, other, 300, pregrades.grader('room-b', 2, equation))).toEqual(gradeShortAnswers(equation, other, 300));
    expect(gradeShortAnswers(median, texts, 300, pregrades.grader('room-a', 2, median))).toEqual(gradeShortAnswers(median, texts, 300));
    // room-a moves on to question 3, asked about something else: its question-2 verdicts are not reused.
    pregrades.prejudge('room-a', 3, equation, '중앙값');
    expect(gradeShortAnswers(equation, other, 300, pregrades.grader('room-a', 3, equation))).toEqual(gradeShortAnswers(equation, other, 300));
    expect(gradeShortAnswers(median, texts, 300, pregrades.grader('room-a', 2, median))).toEqual(gradeShortAnswers(median, texts, 300));

    // Past the cap nothing more is judged early; the close's own cap still decides what is judged at all.
    const capped = new ShortPregrades(1);
    for (const text of ['평균', '중앙값']) capped.prejudge('room-c', 0, median, text);
    const grader = capped.grader('room-c', 0, median);
    expect(grader('중앙값', 2)).toEqual(gradeShortAnswers(median, ['중앙값', '중앙값'])[answerKey('중앙값')]);
    expect(gradeShortAnswers(median, texts, 2, grader)).toEqual(gradeShortAnswers(median, texts, 2));
  });
});
