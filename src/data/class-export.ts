import { z } from 'zod';
import type { Logger } from '../kernel/index.js';
import { keys, readJsonRecord, type Store } from '../store/index.js';
import { DELETE_BATCH } from './deletion-batches.js';
import { safeJson } from './room-deletion.js';

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

const LmsCourse = z.object({ contextId: z.string(), contextTitle: z.string() });
const LmsMember = z.object({ userId: z.string() });

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
  ) {}

  /** null when there is no such class. */
  async export(classId: string, now = Date.now()): Promise<ClassExport | null> {
    const record = await this.store.hgetall(keys.classRecord(classId));
    if (record.name === undefined || record.code === undefined) return null;
    const [course, lmsUsers] = await this.lmsCourse(classId);
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

  /** What the LMS integration keeps of a course's class (src/lti/course-repository.ts): the course, each student's LMS id. */
  private async lmsCourse(classId: string): Promise<[{ contextId: string; title: string } | null, Map<string, string>]> {
    const course = LmsCourse.safeParse(safeJson((await this.store.hget(keys.ltiClass(classId), 'course')) ?? ''));
    const users = new Map<string, string>();
    if (!course.success) return [null, users];
    const members = await this.store.hgetall(keys.ltiClassMembers(classId));
    for (const [field, userHash] of Object.entries(members)) {
      if (!field.startsWith('session:')) continue;
      const member = LmsMember.safeParse(safeJson(members[`user:${userHash}`] ?? ''));
      if (member.success) users.set(field.slice('session:'.length), member.data.userId);
    }
    return [{ contextId: course.data.contextId, title: course.data.contextTitle }, users];
  }

  private async students(classId: string): Promise<ExportedStudent[]> {
    const students: ExportedStudent[] = [];
    const total = await this.store.zcard(keys.classStudents(classId));
    for (let start = 0; start < total; start += DELETE_BATCH) {
      const batch = await this.store.zrange(keys.classStudents(classId), start, start + DELETE_BATCH - 1);
      for (const { member: sessionId, score } of batch) {
        const entry = await this.store.hgetall(keys.classStudent(classId, sessionId));
        if (entry.nickname === undefined) continue;
        const transcript = await this.store.xread(keys.sessionTranscript(sessionId), '0');
        students.push({
          sessionId,
          nickname: entry.nickname,
          joinedAt: Number(entry.joinedAt ?? score),
          chapter: Number(entry.chapter ?? -1),
          percent: Number(entry.percent ?? 0),
          ...this.readTranscript(transcript.map((item) => item.fields.i ?? '')),
        });
      }
    }
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
    const total = await this.store.zcard(keys.classRooms(classId));
    for (let start = 0; start < total; start += DELETE_BATCH) {
      const batch = await this.store.zrange(keys.classRooms(classId), start, start + DELETE_BATCH - 1);
      const raw = await this.store.mget(batch.map(({ member }) => keys.roomResults(member)));
      raw.forEach((value, index) => {
        const results = readJsonRecord(value, RoomResultsJson, { key: keys.roomResults(batch[index]?.member ?? ''), logger: this.logger });
        if (results) rooms.push(results);
      });
    }
    return rooms;
  }
}
