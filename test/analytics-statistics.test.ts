/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AN1 — Point-biserial. Equals (M₁ − M₀)/s·√(pq) (s the population SD of totals) on hand-computed sets; null with
 *   fewer than two students or when the item or the totals do not vary.
 * - AN2 — Room items. Difficulty = share right, discrimination against the number right, every choice counted, no
 *   answer counted as unanswered and wrong; flags: low/negative discrimination, too hard/easy, a distractor chosen
 *   more than the key; `review` lists flagged items worst first.
 * - AN3 — Exam items. Partial credit counts ½; an ungraded item is left out of its figures and of the total.
 * - AN4 — Mastery map. Students × chapters from lecture verdicts (subquestions excluded), self-study answers (chapter
 *   by title) and exam items (the chapters the exam names, else a whole-material column); raised hands are evidence
 *   without a score; an empty cell is null, never 0.
 * - AN12 — The mastery map weighs evidence as the learner profile does. A self-assessed lecture verdict counts
 *   SELF_ASSESSED_WEIGHT (½) against 1 for the tutor's, the question asked again after a remediation is an outcome of
 *   its own at full weight, and a class quiz's answers count beside the self-study ones, each fact naming its source
 *   (`혼자 퀴즈`, `수업 퀴즈`) and a weight below 1; the cell is the weighted mean.
 * - AN5 — Funnel and CSV. Per chapter: reached, completed (later chapter or finished; the transcript stands in for a
 *   lost progress write), hands, students with hands, students remediated; the CSV of each part carries the same
 *   figures.
 */
import { describe, expect, it } from 'vitest';
import { SELF_ASSESSED_WEIGHT } from '../src/protocol/wire/exams.js';
import { analyseExam, analyseRoom, analyticsCsv, lectureFunnel, masteryMap, pointBiserial, WHOLE_MATERIAL, type RoomResultsInput } from '../src/analytics/index.js';
import type { ClassAnalyticsReply, TranscriptItem } from '../src/protocol/wire/index.js';

/**
 * AN1–AN5 (test/SPEC.md): the statistics of the class analytics against figures computed by hand with the textbook
 * formula r_pb = (M₁ − M₀) / s · √(p·q) (s the population SD of the totals), which the code does not use (it
 * computes Pearson's r), so the two routes must agree.
 */

/** A room of six players and four questions; `choices[player][question]`, null = no answer. */
const KEY = [0, 2, 1, 3];
const CHOICES: (number | null)[][] = [
  [0, 2, 1, 0],
  [0, 2, 1, 3],
  [0, 1, 1, 0],
  [0, 1, 0, 3],
  [1, 1, 1, 0],
  [null, 1, 0, 3],
];
const ROOM: RoomResultsInput = {
  roomId: 'room-1',
  title: '1차 퀴즈',
  createdAt: 1000,
  questions: KEY.map((answer, index) => ({ index, question: `문제 ${index + 1}`, choices: ['가', '나', '다', '라'], answer })),
  players: CHOICES.map((row, player) => ({
    playerId: `p${player}`,
    answers: row.map((choice, questionIndex) => ({ questionIndex, choice, correct: choice === KEY[questionIndex] })),
  })),
};

describe('point-biserial', () => {
  it('AN1 agrees with (M1 − M0) / s · √(pq) on hand-computed sets, and is null where r is undefined', () => {
    // totals 5..1, right by the top three: M1 = 4, M0 = 1.5, s = √2, p = .6 -> 2.5/√2 · √.24 = √3/2.
    expect(pointBiserial([1, 1, 1, 0, 0], [5, 4, 3, 2, 1])).toBeCloseTo(Math.sqrt(3) / 2, 10);
    // M1 = 3, M0 = 2, s = √1.25, p = q = .5 -> 1/√5; reversed, −2/√5.
    expect(pointBiserial([0, 1, 0, 1], [1, 2, 3, 4])).toBeCloseTo(1 / Math.sqrt(5), 10);
    expect(pointBiserial([1, 1, 0, 0], [1, 2, 3, 4])).toBeCloseTo(-2 / Math.sqrt(5), 10);
    // Everyone right, or every total equal, or one student: no correlation to speak of.
    expect(pointBiserial([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(pointBiserial([1, 0, 1], [2, 2, 2])).toBeNull();
    expect(pointBiserial([1], [1])).toBeNull();
    expect(() => pointBiserial([1, 0], [1])).toThrow(RangeError);
  });
});

describe('item analysis', () => {
  it('AN2 a room: share correct, point-biserial against the number right, every choice counted, unanswered, flags', () => {
    const analysis = analyseRoom(ROOM);
    // Totals (number right) per player: 3, 4, 2, 2, 1, 1.
    expect(analysis.students).toBe(6);
    expect(analysis.meanScore).toBeCloseTo(13 / 24, 10);
    const [q1, q2, q3, q4] = analysis.items;
    // q1: right by players 1–4 (M1 = 11/4), wrong by 5–6 (M0 = 1), s = √(41/36), p = 2/3 -> 1.75/1.0672 · 0.4714 = 0.773021 by hand.
    expect(q1!.difficulty).toBeCloseTo(4 / 6, 10);
    expect(q1!.discrimination).toBeCloseTo(0.7730207, 6);
    expect(q1!.unanswered).toBe(1);
    expect(q1!.choices!.map((choice) => choice.count)).toEqual([4, 1, 0, 0]);
    expect(q1!.flags).toEqual([]);
    // q2: the key (3rd choice) chosen twice, a distractor four times.
    expect(q2!.difficulty).toBeCloseTo(2 / 6, 10);
    expect(q2!.discrimination).toBeCloseTo(0.8834522, 6);
    expect(q2!.choices!.map((choice) => [choice.count, choice.correct])).toEqual([[0, false], [4, false], [2, true], [0, false]]);
    expect(q2!.flags).toEqual(['distractor-beats-key']);
    expect(q3!.discrimination).toBeCloseTo(0.4417261, 6);
    expect(q3!.flags).toEqual([]);
    // q4: half right, barely related to the total; a distractor ties the key (not beats it).
    expect(q4!.difficulty).toBe(0.5);
    expect(q4!.discrimination).toBeCloseTo(0.1561738, 6);
    expect(q4!.flags).toEqual(['low-discrimination']);
    expect(analysis.items.map((item) => item.number)).toEqual([1, 2, 3, 4]);
    // A distractor beating the key is looked at before a weak discrimination.
    expect(analysis.review).toEqual([2, 4]);
  });

  it('AN3 an exam: partial credit counts ½, an ungraded item is left out of its figures and of the total', () => {
    const analysis = analyseExam({
      examId: 'exam-1',
      title: '단원 평가',
      publishedAt: 2000,
      problems: [1, 2, 3].map((id) => ({ id, question_content: `서술 ${id}` })),
      students: [
        ['Correct', 'Correct', 'Partial_Correct'],
        ['Correct', 'Partial_Correct', 'Incorrect'],
        ['Incorrect', 'Correct', 'Incorrect'],
        ['Correct', 'Incorrect', 'Ungraded'],
      ].map((statuses, student) => ({ sessionId: `s${student}`, items: statuses.map((result_status, index) => ({ question_id: index + 1, result_status })) })),
    });
    // Totals 2.5, 1.5, 1, 1.
    const [first, second, third] = analysis.items;
    expect(first!.difficulty).toBe(0.75);
    expect(first!.discrimination).toBeCloseTo(0.4714045, 6);
    expect(second!.difficulty).toBe(0.625);
    expect(second!.discrimination).toBeCloseTo(0.4923660, 6);
    expect(third!.respondents).toBe(3);
    expect(third!.difficulty).toBeCloseTo(1 / 6, 10);
    expect(third!.discrimination).toBeCloseTo(0.9449112, 6);
    expect(third!.flags).toEqual(['too-hard']);
    expect(first!.choices).toBeUndefined();
    expect(analysis.meanScore).toBeCloseTo(0.5416667, 6);
    expect(analysis.review).toEqual([3]);
  });
});

const CHAPTERS = [
  { index: 0, title: '평균' },
  { index: 1, title: '분산' },
  { index: 2, title: '정규분포' },
];
const t = (item: Partial<TranscriptItem> & { type: TranscriptItem['type']; chapter: number }) => ({ at: 0, ...item }) as TranscriptItem;

/** A student who answered chapter 0's question well, chapter 1's badly (with a remediation subquestion) and raised a hand in chapter 1. */
const TRANSCRIPT: TranscriptItem[] = [
  t({ type: 'question', chapter: 0, questionId: 'q1', text: '평균이란?' }),
  t({ type: 'verdict', chapter: 0, questionId: 'q1', verdict: 'good', feedback: '' }),
  t({ type: 'question', chapter: 1, questionId: 'q2', text: '분산이란?' }),
  t({ type: 'verdict', chapter: 1, questionId: 'q2', verdict: 'bad', feedback: '' }),
  t({ type: 'subquestion', chapter: 1, questionId: 'q2.1', parentQuestionId: 'q2', index: 0, total: 2, concept: '편차', text: '편차란?' }),
  t({ type: 'verdict', chapter: 1, questionId: 'q2.1', verdict: 'good', feedback: '' }),
  t({ type: 'student', chapter: 1, text: '제곱은 왜 하나요?' }),
  t({ type: 'hand-closed', chapter: 1, kind: 'specific' }),
];

describe('mastery map', () => {
  it('AN4 students × chapters: verdicts, quiz answers and exam items scored, hands shown unscored, each with its evidence', () => {
    const map = masteryMap(CHAPTERS, [
      {
        sessionId: 's1',
        nickname: '가영',
        transcript: TRANSCRIPT,
        quizAnswers: [
          { question: '분산의 단위는?', correct: true, topic: '분산', source: '혼자 퀴즈' },
          { question: '어느 장도 아닌 문제', correct: false, topic: null, source: '혼자 퀴즈' },
        ],
        exams: [
          { title: '2장 평가', chapters: [1], items: [{ question: '분산 공식', status: 'Partial_Correct' }, { question: '미채점', status: 'Ungraded' }] },
          { title: '종합 평가', chapters: undefined, items: [{ question: '종합', status: 'Incorrect' }] },
        ],
      },
      { sessionId: 's2', nickname: '나래', transcript: [], quizAnswers: [], exams: [] },
    ]);
    expect(map.chapters.map((chapter) => chapter.index)).toEqual([0, 1, 2, WHOLE_MATERIAL]);
    const [first, second] = map.students;
    expect(first!.cells.map((cell) => cell.mastery)).toEqual([1, 0.5, null, 0]);
    // Chapter 1: the bad verdict (0), the quiz answer (1), the exam item (½) — and the hand, unscored. The
    // subquestion's good verdict is remediation, not a question of its own.
    expect(first!.cells[1]!.evidence.map((evidence) => [evidence.kind, evidence.score, evidence.text])).toEqual([
      ['lecture', 0, '분산이란?'],
      ['hand', null, '제곱은 왜 하나요?'],
      ['quiz', 1, '분산의 단위는?'],
      ['exam', 0.5, '분산 공식'],
    ]);
    expect(second!.cells.every((cell) => cell.mastery === null && cell.evidence.length === 0)).toBe(true);
  });

  it('AN12 a self-assessed verdict counts ½, the re-asked question after a remediation counts on its own, class quiz answers count beside self-study ones', () => {
    expect(SELF_ASSESSED_WEIGHT).toBe(0.5);
    const transcript: TranscriptItem[] = [
      t({ type: 'question', chapter: 0, questionId: 'q1', text: '평균이란?' }),
      t({ type: 'verdict', chapter: 0, questionId: 'q1', verdict: 'good', feedback: '' }),
      t({ type: 'question', chapter: 0, questionId: 'q2', text: '중앙값이란?' }),
      t({ type: 'unsure', chapter: 0, questionId: 'q2', text: '비교해 보세요', modelAnswer: '가운데 값' }),
      t({ type: 'verdict', chapter: 0, questionId: 'q2', verdict: 'bad', feedback: '', selfAssessed: true }),
      t({ type: 'question', chapter: 1, questionId: 'q3', text: '분산이란?' }),
      t({ type: 'verdict', chapter: 1, questionId: 'q3', verdict: 'bad', feedback: '' }),
      t({ type: 'subquestion', chapter: 1, questionId: 'q3.1', parentQuestionId: 'q3', index: 0, total: 1, concept: '편차', text: '편차란?' }),
      t({ type: 'verdict', chapter: 1, questionId: 'q3.1', verdict: 'good', feedback: '' }),
      t({ type: 'reask', chapter: 1, questionId: 'q3.r', parentQuestionId: 'q3', text: '이제 분산이란?' }),
      t({ type: 'verdict', chapter: 1, questionId: 'q3.r', verdict: 'good', feedback: '' }),
    ];
    const map = masteryMap(CHAPTERS, [
      {
        sessionId: 's1',
        nickname: '가영',
        transcript,
        quizAnswers: [
          { question: '분산의 단위는?', correct: false, topic: '분산', source: '수업 퀴즈' },
          { question: '표준편차는?', correct: true, topic: '분산', source: '혼자 퀴즈' },
        ],
        exams: [],
      },
    ]);
    const [cells] = map.students.map((student) => student.cells);
    // Chapter 0: the tutor's good verdict (1 × 1) and the self-assessed bad one (0 × ½): 1 / 1.5.
    expect(cells![0]!.mastery).toBeCloseTo(1 / 1.5, 10);
    expect(cells![0]!.evidence.map((evidence) => [evidence.text, evidence.score, evidence.weight ?? 1])).toEqual([
      ['평균이란?', 1, 1],
      ['중앙값이란?', 0, 0.5],
    ]);
    // Chapter 1: bad (0), asked again after the remediation and right (1), the class quiz wrong (0), self-study right (1).
    expect(cells![1]!.mastery).toBe(0.5);
    expect(cells![1]!.evidence.map((evidence) => [evidence.kind, evidence.text, evidence.score, evidence.source])).toEqual([
      ['lecture', '분산이란?', 0, '강의 2장 분산'],
      ['lecture', '이제 분산이란?', 1, '강의 2장 분산 · 보충 후 다시 물음'],
      ['quiz', '분산의 단위는?', 0, '수업 퀴즈'],
      ['quiz', '표준편차는?', 1, '혼자 퀴즈'],
    ]);
  });
});

describe('lecture funnel', () => {
  it('AN5 per chapter: reached, went past, hands and remediation, with the transcript standing in for a lost progress write', () => {
    const funnel = lectureFunnel(CHAPTERS, [
      { chapter: 1, state: 'streaming', transcript: TRANSCRIPT },
      { chapter: 2, state: 'finished', transcript: [] },
      { chapter: -1, state: 'idle', transcript: [] },
      // The roster says chapter 0, the transcript shows the student in chapter 1.
      { chapter: 0, state: 'paused', transcript: [t({ type: 'student', chapter: 1, text: '질문' }), t({ type: 'hand-closed', chapter: 1, kind: 'vague' }), t({ type: 'hand-closed', chapter: 1, kind: 'cancelled' })] },
    ]);
    expect(funnel.students).toBe(4);
    expect(funnel.steps.map((step) => [step.chapter, step.reached, step.completed, step.hands, step.handStudents, step.remediated])).toEqual([
      [0, 3, 3, 0, 0, 0],
      [1, 3, 1, 3, 2, 1],
      [2, 1, 1, 0, 0, 0],
    ]);
  });

  it('AN5 the CSV of each part carries the same figures (BOM, CRLF, formulas neutralised)', () => {
    const reply: ClassAnalyticsReply = {
      classId: 'c',
      name: '반',
      generatedAt: 0,
      assessments: [{ ...analyseRoom({ ...ROOM, title: '=SUM(A1)' }) }],
      mastery: masteryMap(CHAPTERS, [{ sessionId: 's1', nickname: '가영', transcript: TRANSCRIPT, quizAnswers: [], exams: [] }]),
      funnel: lectureFunnel(CHAPTERS, [{ chapter: 1, state: 'streaming', transcript: TRANSCRIPT }]),
    };
    const items = analyticsCsv(reply, 'items').split('\r\n');
    expect(items[0]).toBe('\uFEFF구분,제목,문항,유형,문제,응답자,정답률,변별도,무응답,보기별 선택,검토 필요');
    expect(items[2]).toBe("퀴즈,'=SUM(A1),2,객관식,문제 2,6,0.333,0.883,0,1:0 2:4 3(정답):2 4:0,distractor-beats-key");
    expect(analyticsCsv(reply, 'mastery').split('\r\n')[1]).toBe('가영,1,0,');
    expect(analyticsCsv(reply, 'funnel').split('\r\n')[2]).toBe('2,분산,1,0,1,1,1');
  });
});
