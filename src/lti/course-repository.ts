import { z } from 'zod';
import type { Logger } from '../kernel/index.js';
import { readJsonRecord, type Store } from '../store/index.js';
import { ltiKeys } from './lti-keys.js';

/**
 * What lectern keeps of an LMS course linked to one of its classes (all durable, deleted with the class by the data
 * lifecycle through {@link CourseRepository.deleteForClass}):
 * - `lti:class:{classId}`: `course` (platform, context, owner, material, the service URLs of the latest launch) and
 *   `lineitem:{item}` (the gradebook column of an exam, or of the student's own self-study exams);
 * - `lti:class:{classId}:members`: `user:{hash}` → the LMS member (id, name, roles, the class session lectern gave
 *   them), `session:{sessionId}` → the member's hash, so a grade finds its LMS user;
 * - `lti:class:{classId}:grades`: `{examId}|{sessionId}` → the passback state the host page shows;
 * - `lti:grades:pending`: what the sender still has to send, by when.
 */

export const CourseRecord = z.object({
  classId: z.string(),
  platformId: z.string(),
  contextId: z.string(),
  contextTitle: z.string(),
  courseKey: z.string(),
  accountId: z.string(),
  materialId: z.string(),
  /** AGS `lineitems` of the latest launch that carried it (the platform may move it). */
  lineItemsUrl: z.string().optional(),
  /** NRPS `context_memberships_url` of the latest launch that carried it. */
  membershipsUrl: z.string().optional(),
  createdAt: z.number(),
});
export type CourseRecord = z.infer<typeof CourseRecord>;

export const CourseMember = z.object({
  userId: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  active: z.boolean(),
  /** The class session lectern made for them (a student), once there is one. */
  sessionId: z.string().optional(),
});
export type CourseMember = z.infer<typeof CourseMember>;

export const GradeState = z.object({
  /**
   * `waiting`: to be sent (first try, or again after `lastError` at `nextAt`); `sent`: the platform has `score`;
   * `held`: not sent (`reason`: an item waits for grading or a teacher's review); `failed`: the tries are spent.
   */
  state: z.enum(['waiting', 'sent', 'held', 'failed']),
  attempts: z.number().int().min(0),
  lastError: z.string().optional(),
  reason: z.string().optional(),
  nextAt: z.number().optional(),
  score: z.number().optional(),
  maxScore: z.number().optional(),
  sentAt: z.number().optional(),
  updatedAt: z.number(),
});
export type GradeState = z.infer<typeof GradeState>;

export const pendingMember = (classId: string, examId: string, sessionId: string) => `${classId}|${examId}|${sessionId}`;

export class CourseRepository {
  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  async course(classId: string): Promise<CourseRecord | null> {
    const key = ltiKeys.ltiClass(classId);
    return readJsonRecord(await this.store.hget(key, 'course'), CourseRecord, { key, logger: this.logger });
  }

  async saveCourse(course: CourseRecord): Promise<void> {
    await this.store.hset(ltiKeys.ltiClass(course.classId), { course: JSON.stringify(course) });
  }

  async lineItem(classId: string, item: string): Promise<string | null> {
    return this.store.hget(ltiKeys.ltiClass(classId), `lineitem:${item}`);
  }

  async saveLineItem(classId: string, item: string, url: string): Promise<void> {
    await this.store.hset(ltiKeys.ltiClass(classId), { [`lineitem:${item}`]: url });
  }

  // ---- members -----------------------------------------------------------------------------------------------------

  async member(classId: string, userHash: string): Promise<CourseMember | null> {
    const key = ltiKeys.ltiClassMembers(classId);
    return readJsonRecord(await this.store.hget(key, `user:${userHash}`), CourseMember, { key, logger: this.logger });
  }

  async saveMember(classId: string, userHash: string, member: CourseMember): Promise<void> {
    const fields: Record<string, string> = { [`user:${userHash}`]: JSON.stringify(member) };
    if (member.sessionId !== undefined) fields[`session:${member.sessionId}`] = userHash;
    await this.store.hset(ltiKeys.ltiClassMembers(classId), fields);
  }

  /** The LMS member a class session belongs to; null for a session lectern did not make for an LMS user. */
  async memberOfSession(classId: string, sessionId: string): Promise<CourseMember | null> {
    const userHash = await this.store.hget(ltiKeys.ltiClassMembers(classId), `session:${sessionId}`);
    return userHash === null ? null : this.member(classId, userHash);
  }

  // ---- grade passback ----------------------------------------------------------------------------------------------

  async gradeState(classId: string, examId: string, sessionId: string): Promise<GradeState | null> {
    const key = ltiKeys.ltiClassGrades(classId);
    return readJsonRecord(await this.store.hget(key, `${examId}|${sessionId}`), GradeState, { key, logger: this.logger });
  }

  /** Every student's passback state of one exam in the class (session id → state). */
  async gradeStates(classId: string, examId: string): Promise<Map<string, GradeState>> {
    const key = ltiKeys.ltiClassGrades(classId);
    const states = new Map<string, GradeState>();
    for (const [field, raw] of Object.entries(await this.store.hgetall(key))) {
      const [fieldExam, sessionId] = field.split('|');
      if (fieldExam !== examId || sessionId === undefined) continue;
      const state = readJsonRecord(raw, GradeState, { key, logger: this.logger });
      if (state) states.set(sessionId, state);
    }
    return states;
  }

  async saveGradeState(classId: string, examId: string, sessionId: string, state: GradeState): Promise<void> {
    await this.store.hset(ltiKeys.ltiClassGrades(classId), { [`${examId}|${sessionId}`]: JSON.stringify(state) });
  }

  async schedule(classId: string, examId: string, sessionId: string, at: number): Promise<void> {
    await this.store.zadd(ltiKeys.ltiGradesPending(), at, pendingMember(classId, examId, sessionId));
  }

  async unschedule(classId: string, examId: string, sessionId: string): Promise<void> {
    await this.store.zrem(ltiKeys.ltiGradesPending(), pendingMember(classId, examId, sessionId));
  }

  /** What is due by `now`, earliest first (at most `limit`). */
  async due(now: number, limit: number): Promise<{ classId: string; examId: string; sessionId: string }[]> {
    const entries = await this.store.zrange(ltiKeys.ltiGradesPending(), 0, limit - 1);
    return entries.flatMap(({ member, score }) => {
      const [classId, examId, sessionId] = member.split('|');
      return score <= now && classId && examId && sessionId ? [{ classId, examId, sessionId }] : [];
    });
  }

  /**
   * Everything of the course kept for a class that is being deleted: its record, members, passback states, what is
   * queued for it, and its place in the platform's map of course classes.
   */
  async deleteForClass(classId: string, forgetCourseClass: (course: CourseRecord) => Promise<void>): Promise<void> {
    const course = await this.course(classId);
    const queued = Object.keys(await this.store.hgetall(ltiKeys.ltiClassGrades(classId))).map((field) => `${classId}|${field}`);
    for (let start = 0; start < queued.length; start += 100) await this.store.zrem(ltiKeys.ltiGradesPending(), ...queued.slice(start, start + 100));
    if (course) await forgetCourseClass(course);
    await this.store.del(ltiKeys.ltiClass(classId), ltiKeys.ltiClassMembers(classId), ltiKeys.ltiClassGrades(classId));
  }

  /**
   * What a class export shows of the course (src/data/class-export.ts): the course's id and title, and each student's
   * LMS user id by session id; null for a class of no course. Read leniently: a member that cannot be read is left out.
   */
  async exportOf(classId: string): Promise<CourseExport | null> {
    const course = ExportedCourse.safeParse(lenientJson((await this.store.hget(ltiKeys.ltiClass(classId), 'course')) ?? ''));
    if (!course.success) return null;
    const users = new Map<string, string>();
    const members = await this.store.hgetall(ltiKeys.ltiClassMembers(classId));
    for (const [field, userHash] of Object.entries(members)) {
      if (!field.startsWith('session:')) continue;
      const member = ExportedMember.safeParse(lenientJson(members[`user:${userHash}`] ?? ''));
      if (member.success) users.set(field.slice('session:'.length), member.data.userId);
    }
    return { course: { contextId: course.data.contextId, title: course.data.contextTitle }, lmsUsers: users };
  }
}

/** A course as a class export shows it: its id and title, and each student's LMS user id by session id. */
export interface CourseExport {
  course: { contextId: string; title: string };
  lmsUsers: Map<string, string>;
}

const ExportedCourse = z.object({ contextId: z.string(), contextTitle: z.string() });
const ExportedMember = z.object({ userId: z.string() });

function lenientJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}
