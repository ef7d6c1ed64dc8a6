import { expect } from 'vitest';
import { ClassRepository } from '../../src/classroom/index.js';
import { SessionRepository } from '../../src/lecture/session-repository.js';
import type { SelfQuizStartReply, TranscriptItem } from '../../src/protocol/wire/index.js';
import { end, gradedResults, join, PROBLEMS, publish, submit, draft, type Booted } from './exam-class.js';
import { call } from './http-call.js';
import type { QuizClient} from './quiz-client.js';
import { joinRoom, openHost, sampleItems, type JoinedPlayer } from './quiz-client.js';
import { quizKeys } from '../../src/quiz/quiz-keys.js';

/**
 * A class with known data for the analytics tests (AN6–AN8): on the class of bootExamClass (the sample material),
 *
 * - a live quiz room played for real over /quiz by six players, four questions (answers 0, 1, 2, 3), with the
 *   right/wrong pattern of AN2, so its item figures are the hand-computed ones there;
 * - an exam on chapter 0 taken by three class students, graded, and pinned by the instructor's overrides to
 *   C C P / C P I / I C I (totals 2.5, 1.5, 1);
 * - the three students' lecture transcripts and progress, written by the lecture's and the roster's own repositories:
 *   가영 answered chapter 0's question well and chapter 1's badly and raised a hand in chapter 1 (now in chapter 1);
 *   나래 answered chapter 0's question well and finished the lecture; 다온 has not started;
 * - 나래's right first answer to a self-study quiz item on chapter 1 (POST /api/quiz/start and /answer, offline model);
 * - 다온's right first answer (then a wrong one, which does not count) to a class quiz item drawn from chapter 1
 *   (seed 001's /answer on `<quiz id>:0`, the class's own quiz, never played as a room).
 */

/** Players' choices per question (null: no answer); the keys are sampleItems(4)'s answers 0, 1, 2, 3. */
export const ROOM_PLAN: (number | null)[][] = [
  [0, 1, 2, 0],
  [0, 1, 2, 3],
  [0, 2, 2, 0],
  [0, 2, 0, 3],
  [1, 2, 2, 0],
  [null, 2, 0, 3],
];
export const STUDENTS = ['가영', '나래', '다온'] as const;
export const EXAM_STATUSES = [
  ['Correct', 'Correct', 'Partial_Correct'],
  ['Correct', 'Partial_Correct', 'Incorrect'],
  ['Incorrect', 'Correct', 'Incorrect'],
] as const;

export interface SeededClass {
  roomId: string;
  examId: string;
  sessions: string[];
  chapters: { index: number; title: string }[];
}

async function playRoom(booted: Booted, clients: QuizClient[]): Promise<string> {
  const { app, classToken } = booted;
  const bearer = { authorization: `Bearer ${classToken}` };
  const items = sampleItems(4);
  const quiz = await call(`${app.url}/api/quizzes`, 'POST', { headers: bearer, body: { title: '통계 퀴즈', items } });
  expect(quiz.status, JSON.stringify(quiz.body)).toBe(201);
  const room = await call(`${app.url}/api/rooms`, 'POST', { headers: bearer, body: { quizId: quiz.body.quizId, options: { questionSeconds: 30, previewSeconds: 0 } } });
  expect(room.status, JSON.stringify(room.body)).toBe(201);
  const host = await openHost(app.url, String(room.body.hostToken));
  clients.push(host);
  const players: JoinedPlayer[] = [];
  for (const [index] of ROOM_PLAN.entries()) {
    const player = await joinRoom(app.url, String(room.body.code), `선수${index + 1}`);
    clients.push(player.client);
    players.push(player);
  }
  await host.latest<{ playerCount: number }>('room:players', (update) => update.playerCount === ROOM_PLAN.length);
  for (let question = 0; question < items.length; question += 1) {
    const opened = players.map((player) => player.client.next<{ phase: string; question: { index: number } }>('room:question', (payload) => payload.phase === 'open' && payload.question.index === question));
    if (question > 0) expect((await host.emit('room:next')).ok).toBe(true); // reveal -> leaderboard
    expect((await host.emit(question === 0 ? 'room:start' : 'room:next')).ok).toBe(true);
    await Promise.all(opened);
    const reveal = host.next<{ question: { index: number } }>('room:reveal', (payload) => payload.question.index === question);
    for (const [index, player] of players.entries()) {
      const choice = ROOM_PLAN[index]![question];
      if (choice === null || choice === undefined) continue;
      const ack = await player.client.emit('answer:submit', { questionIndex: question, choice });
      expect(ack.ok).toBe(true);
    }
    if (ROOM_PLAN.some((plan) => plan[question] === null)) expect((await host.emit('room:skip')).ok).toBe(true);
    await reveal;
  }
  await host.emit('room:next');
  await host.emit('room:next');
  const ended = players[0]!.client.next('room:ended');
  expect((await host.emit('room:end')).ok).toBe(true);
  await ended;
  return String(room.body.roomId);
}

async function takeExam(booted: Booted, students: { sessionId: string; headers: Record<string, string> }[]): Promise<string> {
  const { app, teacher } = booted;
  const exam = await app.exams.create({
    accountId: teacher.accountId,
    materialId: booted.material.id,
    title: '1장 평가',
    request: { count: 3, descriptive: 1, chapters: [0] },
    plan: {
      planning_strategy: '1장을 묻는다.',
      planned_items: PROBLEMS.map((problem) => ({ id: problem.id, target_topic: problem.key_keywords[0] ?? '', question_type: problem.type, intent_type: 'Definition', complexity_level: 'Basic', source_reference_hint: '1장' })),
    },
    problems: PROBLEMS,
    complaints: [],
    valid: true,
    rounds: 1,
  });
  await publish(booted, exam.examId);
  for (const student of students) {
    expect((await draft(booted, exam.examId, student.headers, { 1: '분산', 2: '기댓값이 같다', 3: '평균' })).status).toBe(200);
    expect((await submit(booted, exam.examId, student.headers)).status).toBe(200);
  }
  await end(booted, exam.examId);
  await gradedResults(booted, exam.examId, students.length);
  for (const [index, student] of students.entries()) {
    for (const [item, status] of EXAM_STATUSES[index]!.entries()) {
      const path = `${app.url}/api/exams/${exam.examId}/students/${student.sessionId}/items/${item + 1}/override`;
      const reply = await call(path, 'POST', { headers: teacher.bearer, body: { status, reason: '분석 시험용 채점' } });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
  }
  return exam.examId;
}

async function writeLectures(booted: Booted, sessions: string[]): Promise<void> {
  const { app, classId } = booted;
  const transcripts = new SessionRepository(app.store);
  const roster = new ClassRepository(app.store);
  const item = (fields: Record<string, unknown>) => ({ at: 1, ...fields }) as TranscriptItem;
  const [gayoung, narae] = sessions;
  const lectures: [string, TranscriptItem[], { chapter: number; state: string }][] = [
    [
      gayoung!,
      [
        item({ type: 'question', chapter: 0, questionId: 'a1', text: '평균은 무엇인가요?' }),
        item({ type: 'verdict', chapter: 0, questionId: 'a1', verdict: 'good', feedback: '좋아요' }),
        item({ type: 'question', chapter: 1, questionId: 'a2', text: '분산은 무엇을 재나요?' }),
        item({ type: 'verdict', chapter: 1, questionId: 'a2', verdict: 'bad', feedback: '다시 봐요' }),
        item({ type: 'student', chapter: 1, text: '제곱을 왜 하나요?' }),
        item({ type: 'hand-closed', chapter: 1, kind: 'specific' }),
      ],
      { chapter: 1, state: 'streaming' },
    ],
    [
      narae!,
      [item({ type: 'question', chapter: 0, questionId: 'b1', text: '평균은 무엇인가요?' }), item({ type: 'verdict', chapter: 0, questionId: 'b1', verdict: 'good', feedback: '좋아요' })],
      { chapter: 1, state: 'finished' },
    ],
  ];
  for (const [sessionId, items, progress] of lectures) {
    for (const entry of items) await transcripts.appendTranscript(sessionId, entry);
    await roster.update(classId, sessionId, progress);
  }
}

/** 나래 starts a self-study item on chapter 1 and answers it right (the key read from the stored item). */
async function selfQuiz(booted: Booted, student: { headers: Record<string, string> }): Promise<void> {
  const { app } = booted;
  const started = await call(`${app.url}/api/quiz/start`, 'POST', { headers: student.headers, body: { topic: 'general', materialId: booted.material.id, chapter: 1 } });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const item = (started.body as SelfQuizStartReply).response[0]!;
  const stored = JSON.parse((await app.store.hget(quizKeys.selfQuizItem(item.quiz_id), 'record')) ?? '{}') as { item: { answer: number; sources?: { chapter: number }[] } };
  // The item's chapter is what the mastery map files it under: the one asked for.
  expect(stored.item.sources?.[0]?.chapter ?? 1).toBe(1);
  const answered = await call(`${app.url}/api/quiz/answer`, 'POST', { headers: student.headers, body: { quiz_id: item.quiz_id, answer: stored.item.answer } });
  expect(answered.body.response.is_correct).toBe(true);
}

/** The class's quiz with one item drawn from chapter 1: 다온 answers it right first, then wrong (the first counts). */
async function classQuiz(booted: Booted, student: { headers: Record<string, string> }): Promise<void> {
  const { app } = booted;
  const chapter = booted.material.chapters[1]!;
  const source = { chunkId: `${chapter.index}.0`, chapter: chapter.index, chapterTitle: chapter.title, startPage: chapter.startPage, endPage: chapter.startPage };
  const item = {
    question: CLASS_QUIZ_QUESTION,
    choices: ['음수와 양수가 서로 지워지지 않게 하려고', '평균을 구하려고', '가운데 값을 찾으려고', '자료를 크기순으로 늘어놓으려고'],
    answer: 0,
    explanation: '편차의 합은 0이므로 제곱해 더합니다.',
    difficulty: 'medium',
    sources: [source],
  };
  const quiz = await call(`${app.url}/api/quizzes`, 'POST', { headers: booted.teacher.bearer, body: { title: '2장 수업 퀴즈', items: [item], classId: booted.classId, materialId: booted.material.id } });
  expect(quiz.status, JSON.stringify(quiz.body)).toBe(201);
  for (const choice of [0, 1]) {
    const answered = await call(`${app.url}/api/quiz/answer`, 'POST', { headers: student.headers, body: { quiz_id: `${String(quiz.body.quizId)}:0`, answer: choice } });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
  }
}

export const CLASS_QUIZ_QUESTION = '분산을 구할 때 편차를 제곱하는 까닭은?';

/** Seeds the class (see the file's comment); `clients` collects the sockets the caller closes. */
export async function seedAnalyticsClass(booted: Booted, clients: QuizClient[]): Promise<SeededClass> {
  expect(booted.material.chapters.length).toBeGreaterThanOrEqual(2);
  const students = [];
  for (const nickname of STUDENTS) students.push(await join(booted, nickname));
  const roomId = await playRoom(booted, clients);
  const examId = await takeExam(booted, students);
  const sessions = students.map((student) => student.sessionId);
  await writeLectures(booted, sessions);
  await selfQuiz(booted, students[1]!);
  await classQuiz(booted, students[2]!);
  return { roomId, examId, sessions, chapters: booted.material.chapters.map((chapter) => ({ index: chapter.index, title: chapter.title })) };
}
