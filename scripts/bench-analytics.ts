/**
 * npm run bench:analytics -- [--students 500] [--chapters 10] [--items 40] [--rooms 50] [--players 40] [--questions 20]
 *   [--exams 50] [--problems 10] [--runs 5]
 *
 * The class analytics' computation on the main thread (src/analytics/), with its sources in memory: how long one
 * `GET /api/analytics/classes/:id` holds the event loop once its records are read, for a class at the sizes given
 * (the defaults are the caps: 500 students, the newest 50 rooms and 50 exams). Store reads are not measured here.
 *
 * Prints one JSON line: `{students, rooms, exams, …, computeP50Ms, computeMaxMs, replyKb}`.
 */
import { ClassAnalytics, type AnalyticsSources, type ClassExamInput, type RoomResultsInput } from '../src/analytics/index.js';
import type { TranscriptItem } from '../src/protocol/wire/index.js';
import { numberArg, percentile, round } from './bench-support.js';

const students = numberArg('students', 500);
const chapterCount = numberArg('chapters', 10);
const transcriptItems = numberArg('items', 40);
const roomCount = numberArg('rooms', 50);
const players = numberArg('players', 40);
const questions = numberArg('questions', 20);
const examCount = numberArg('exams', 50);
const problems = numberArg('problems', 10);
const runs = numberArg('runs', 5);

/** A fixed pseudo-random sequence, so two runs compute the same class. */
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

const chapters = Array.from({ length: chapterCount }, (_, index) => ({ index, title: `${index + 1}장 제목` }));
const roster = Array.from({ length: students }, (_, index) => ({ sessionId: `s${index}`, nickname: `학생${index}`, chapter: index % chapterCount, state: index % 7 === 0 ? 'finished' : 'streaming' }));
const transcripts = new Map(
  roster.map((student) => {
    const items: TranscriptItem[] = [];
    for (let index = 0; items.length < transcriptItems; index += 1) {
      const chapter = index % chapterCount;
      items.push({ type: 'question', chapter, at: index, questionId: `q${index}`, text: `질문 ${index}` });
      items.push({ type: 'verdict', chapter, at: index, questionId: `q${index}`, verdict: random() < 0.6 ? 'good' : 'bad', feedback: '' });
      if (random() < 0.2) items.push({ type: 'student', chapter, at: index, text: '왜 그런가요?' }, { type: 'hand-closed', chapter, at: index, kind: 'specific' });
    }
    return [student.sessionId, items];
  }),
);
const rooms: RoomResultsInput[] = Array.from({ length: roomCount }, (_, room) => ({
  roomId: `r${room}`,
  title: `퀴즈 ${room}`,
  createdAt: room,
  questions: Array.from({ length: questions }, (_, index) => ({ index, question: `문제 ${index}`, choices: ['가', '나', '다', '라'], answer: index % 4 })),
  players: Array.from({ length: players }, (_, player) => ({
    playerId: `p${player}`,
    answers: Array.from({ length: questions }, (_, index) => {
      const choice = random() < 0.1 ? null : Math.floor(random() * 4);
      return { questionIndex: index, choice, correct: choice === index % 4 };
    }),
  })),
}));
const statuses = ['Correct', 'Partial_Correct', 'Incorrect', 'Ungraded'];
const exams: ClassExamInput[] = Array.from({ length: examCount }, (_, exam) => ({
  examId: `e${exam}`,
  title: `시험 ${exam}`,
  publishedAt: 1_000 + exam,
  chapters: [exam % chapterCount],
  problems: Array.from({ length: problems }, (_, index) => ({ id: index + 1, question_content: `서술 ${index}` })),
  students: roster.map((student) => ({
    sessionId: student.sessionId,
    items: Array.from({ length: problems }, (_, index) => ({ question_id: index + 1, result_status: statuses[Math.floor(random() * 4)]!, question_content: `서술 ${index}` })),
  })),
}));

const sources: AnalyticsSources = {
  classInfo: async () => ({ name: '벤치 반', materialId: 'm', students: roster }),
  chapters: async () => chapters,
  transcript: async (_classId, sessionId) => transcripts.get(sessionId) ?? [],
  quizAnswers: () => async () => [
    { question: '혼자 퀴즈', correct: random() < 0.5, topic: chapters[0]!.title, source: '혼자 퀴즈' },
    { question: '수업 퀴즈', correct: random() < 0.5, topic: chapters[1 % chapterCount]!.title, source: '수업 퀴즈' },
  ],
  rooms: async () => rooms,
  exams: async () => exams,
};

const analytics = new ClassAnalytics({ sources });
const times: number[] = [];
let replyBytes = 0;
for (let run = 0; run < runs; run += 1) {
  const started = performance.now();
  const reply = await analytics.forClass('c');
  times.push(performance.now() - started);
  replyBytes = Buffer.byteLength(JSON.stringify(reply));
}
times.sort((left, right) => left - right);
process.stdout.write(
  `${JSON.stringify({
    students,
    chapters: chapterCount,
    transcriptItems,
    rooms: roomCount,
    players,
    questions,
    exams: examCount,
    problems,
    runs,
    computeP50Ms: round(percentile(times, 50)),
    computeMaxMs: round(times.at(-1) ?? 0),
    replyKb: round(replyBytes / 1024),
  })}\n`,
);
