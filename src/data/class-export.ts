import { z } from 'zod';
import { classLifecycle } from '../classroom/index.js';
import type { Logger } from '../kernel/index.js';
import { lectureLifecycle } from '../lecture/index.js';
import { quizLifecycle } from '../quiz/index.js';
import { readJsonRecord, type Store } from '../store/index.js';
import type { CourseParts } from './owner-parts.js';
import { safeJson } from './safe-json.js';

/** One question the student was asked, with what they answered and how it was judged. */
export interface ExportedAnswer {
  chapter: number;
  questionId: string;
  question: string;
  answers: { at: number; text: string }[];
  verdict: 'good' | 'bad' | null;
  feedback: string | null;
}

/** A line of the raise-hand dialogue: the assistant, the student, or how it ended. */
export interface ExportedHandLine {
  chapter: number;
  at: number;
  speaker: 'assistant' | 'student' | 'closed';
  text: string;
}

export interface ExportedStudent {
  sessionId: string;
  nickname: string;
  joinedAt: number | null;
  chapter: number;
  percent: number;
  answers: ExportedAnswer[];
  hand: ExportedHandLine[];
  /** The tutor's finished replies (supplements, explanations, answers to questions). */
  replies: { chapter: number; at: number; kind: string; text: string }[];
  /** The student's user id in the LMS, for a class of an LMS course (LTI) whose student came from it. */
  lmsUserId?: string;
}

/** A quiz room's results as stored (standings, questions, every player's answers); see quiz/room-results.ts. */
const RoomResultsJson = z
  .object({
    roomId: z.string(),
    title: z.string(),
    code: z.string(),
    createdAt: z.number(),
    endedAt: z.number().nullable(),
    questions: z.array(z.object({ index: z.number(), question: z.string() }).passthrough()),
    players: z.array(
      z
        .object({
          rank: z.number(),
          nickname: z.string(),
          score: z.number(),
          correctCount: z.number(),
          answers: z.array(z.object({ questionIndex: z.number(), choice: z.number().nullable(), correct: z.boolean(), points: z.number() }).passthrough()),
        })
        .passthrough(),
    ),
  })
  .passthrough();
export type ExportedRoom = z.infer<typeof RoomResultsJson>;

export interface ClassExport {
  exportedAt: string;
  class: { id: string; name: string; code: string; materialId: string | null; createdAt: number };
  /** The LMS course the class was made for (LTI), when it was. */
  course?: { contextId: string; title: string };
  students: ExportedStudent[];
  rooms: ExportedRoom[];
}

const Item = z.discriminatedUnion('type', [
  z.object({ type: z.literal('question'), chapter: z.number(), at: z.number(), questionId: z.string(), text: z.string() }),
  z.object({ type: z.literal('subquestion'), chapter: z.number(), at: z.number(), questionId: z.string(), text: z.string() }),
  z.object({ type: z.literal('reask'), chapter: z.number(), at: z.number(), questionId: z.string(), text: z.string() }),
  z.object({ type: z.literal('answer'), chapter: z.number(), at: z.number(), questionId: z.string(), text: z.string() }),
  z.object({ type: z.literal('verdict'), chapter: z.number(), at: z.number(), questionId: z.string(), verdict: z.enum(['good', 'bad']), feedback: z.string() }),
  z.object({ type: z.literal('reply'), chapter: z.number(), at: z.number(), kind: z.string(), text: z.string(), complete: z.boolean() }),
  z.object({ type: z.literal('assistant'), chapter: z.number(), at: z.number(), text: z.string() }),
  z.object({ type: z.literal('student'), chapter: z.number(), at: z.number(), text: z.string() }),
  z.object({ type: z.literal('hand-closed'), chapter: z.number(), at: z.number(), kind: z.string() }),
]);

/**
 * Everything a class holds about its students, for the instructor to keep or hand over: the class, its roster, each
 * student's answers with their verdicts and the raise-hand dialogue (from the session transcripts, which expire 7
 * days after the student's last activity), and the results of the class's quiz rooms. Read a batch at a time.
 */
export class ClassExporter {
  constructor(
    private readonly store: Store,
    private readonly logger?: Logger,
    private readonly courses?: CourseParts,
  ) {}

  /** null when there is no such class. */
  async export(classId: string, now = Date.now()): Promise<ClassExport | null> {
    const record = await classLifecycle.record(this.store, classId);
    if (record.name === undefined || record.code === undefined) return null;
    const lms = (await this.courses?.exportForClass(classId)) ?? null;
    const course = lms?.course;
    const lmsUsers = lms?.lmsUsers ?? new Map<string, string>();
    return {
      exportedAt: new Date(now).toISOString(),
      class: { id: classId, name: record.name, code: record.code, materialId: record.materialId ?? null, createdAt: Number(record.createdAt ?? 0) },
      ...(course ? { course } : {}),
      students: (await this.students(classId)).map((student) => {
        const lmsUserId = lmsUsers.get(student.sessionId);
        return lmsUserId === undefined ? student : { ...student, lmsUserId };
      }),
      rooms: await this.rooms(classId),
    };
  }

  private async students(classId: string): Promise<ExportedStudent[]> {
    const students: ExportedStudent[] = [];
    await classLifecycle.readRoster(this.store, classId, async ({ sessionId, score, entry }) => {
      if (entry.nickname === undefined) return;
      const transcript = await lectureLifecycle.transcript(this.store, sessionId);
      students.push({
        sessionId,
        nickname: entry.nickname,
        joinedAt: Number(entry.joinedAt ?? score),
        chapter: Number(entry.chapter ?? -1),
        percent: Number(entry.percent ?? 0),
        ...this.readTranscript(transcript),
      });
    });
    return students;
  }

  private readTranscript(raw: string[]): Pick<ExportedStudent, 'answers' | 'hand' | 'replies'> {
    const answers = new Map<string, ExportedAnswer>();
    const hand: ExportedHandLine[] = [];
    const replies: ExportedStudent['replies'] = [];
    const question = (id: string, chapter: number) => {
      let found = answers.get(id);
      if (!found) {
        found = { chapter, questionId: id, question: '', answers: [], verdict: null, feedback: null };
        answers.set(id, found);
      }
      return found;
    };
    for (const line of raw) {
      const parsed = Item.safeParse(safeJson(line));
      if (!parsed.success) continue;
      const item = parsed.data;
      if (item.type === 'question' || item.type === 'subquestion' || item.type === 'reask') question(item.questionId, item.chapter).question = item.text;
      else if (item.type === 'answer') question(item.questionId, item.chapter).answers.push({ at: item.at, text: item.text });
      else if (item.type === 'verdict') Object.assign(question(item.questionId, item.chapter), { verdict: item.verdict, feedback: item.feedback });
      else if (item.type === 'reply') {
        if (item.complete) replies.push({ chapter: item.chapter, at: item.at, kind: item.kind, text: item.text });
      } else if (item.type === 'hand-closed') hand.push({ chapter: item.chapter, at: item.at, speaker: 'closed', text: item.kind });
      else hand.push({ chapter: item.chapter, at: item.at, speaker: item.type, text: item.text });
    }
    return { answers: [...answers.values()], hand, replies };
  }

  private async rooms(classId: string): Promise<ExportedRoom[]> {
    const rooms: ExportedRoom[] = [];
    await quizLifecycle.readClassResults(this.store, classId, async (batch) => {
      for (const { raw, key } of batch) {
        const results = readJsonRecord(raw, RoomResultsJson, { key, logger: this.logger });
        if (results) rooms.push(results);
      }
    });
    return rooms;
  }
}
