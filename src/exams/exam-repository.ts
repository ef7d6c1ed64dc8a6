import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../kernel/index.js';
import type { PageRequest } from '../protocol/page.js';
import { pageOfIndex, readJsonRecord, type Store } from '../store/index.js';
import {
  ExamPlan,
  ExamProblem,
  ExamRequest,
  FeedbackReport,
  LearnerProfile,
  ResultStatus,
  type EvaluationItem,
  type GeneratedExam,
  type GradeStatus,
} from './exam-types.js';
import { examKeys } from './exam-keys.js';

/**
 * Live exams in the store, everything durable (no TTL; DURABLE_KEYS in store/retention.ts):
 * the exam as generated (editable while a draft), its publication (SET NX: once), each student's drafts (hash, last
 * write wins), submissions (HSETNX per item and `all` for the whole exam: first write wins), grades, the overrides
 * with their append-only audit trail, the answers moved out of their group per item, regrade requests, the feedback report and the grading state, the learner
 * profiles of a class, and the indexes that let the deletion of an exam, its class or its material find every key.
 */

export const EXAM_ID = /^[0-9a-f]{32}$/;

export const ExamPublication = z.object({
  classId: z.string(),
  timeLimitMinutes: z.number().int(),
  publishedAt: z.number(),
  deadline: z.number(),
  /** No deadline; results at each student's own submission (src/exams/self-study-exam.ts). */
  selfStudy: z.boolean().optional(),
  /** A student's own self-study exam: the one session that may see it. */
  student: z.string().optional(),
});
export type ExamPublication = z.infer<typeof ExamPublication>;

export const ExamRecord = z.object({
  examId: z.string(),
  accountId: z.string(),
  materialId: z.string(),
  title: z.string(),
  request: ExamRequest,
  plan: ExamPlan,
  problems: z.array(ExamProblem),
  complaints: z.array(z.object({ id: z.number().int(), message: z.string() })),
  valid: z.boolean(),
  rounds: z.number().int(),
  createdAt: z.number(),
  /** The generation job that made it, when one did. */
  jobId: z.string().optional(),
  /** Items whose open complaints the instructor looked at and accepted as they are (publishing needs none open). */
  accepted: z.array(z.number().int()).optional(),
  /** Fewer sound items than asked: what the generation could make and why (shown with the exam, not only the job). */
  shortfall: z
    .object({ requested: z.number().int(), made: z.number().int(), reason: z.enum(['too-little-material', 'items-refused']), message: z.string() })
    .optional(),
});
export type ExamRecord = z.infer<typeof ExamRecord>;

export type NewExam = GeneratedExam & { accountId: string; materialId: string; title: string; request: ExamRequest; jobId?: string | undefined };

export const StoredAnswer = z.object({ text: z.string(), at: z.number() });
export type StoredAnswer = z.infer<typeof StoredAnswer>;

const GradeStatusSchema = z.enum(['Correct', 'Partial_Correct', 'Incorrect', 'Ungraded', 'Needs_Review']);
export const StoredEvaluation = z.object({
  question_id: z.number().int(),
  result_status: GradeStatusSchema,
  question_content: z.string(),
  user_response: z.string(),
  related_topic: z.string(),
  feedback_message: z.string(),
  evidence: z
    .object({
      keywords: z.array(z.object({ keyword: z.string(), matchedAs: z.string().nullable(), at: z.object({ start: z.number(), end: z.number() }).nullable() })),
      method: z.enum(['keyword', 'math', 'model', 'offline']),
      contradiction: z.string().nullable(),
      confidence: z.number().min(0).max(1).optional(),
      proposed: z.enum(['Correct', 'Partial_Correct', 'Incorrect']).optional(),
    })
    .nullable(),
}) satisfies z.ZodType<EvaluationItem>;

export const ExamOverride = z.object({
  status: ResultStatus,
  reason: z.string(),
  by: z.string(),
  at: z.number(),
  from: GradeStatusSchema,
  /** Set when the teacher graded the answer with its group (answer-groups.ts): the group's id and size then. */
  group: z.object({ id: z.string(), size: z.number().int() }).optional(),
});
export type ExamOverride = z.infer<typeof ExamOverride>;

export const RegradeRequest = z.object({
  questionId: z.number().int(),
  comment: z.string(),
  at: z.number(),
  status: z.enum(['pending', 'done']),
  from: GradeStatusSchema.optional(),
  to: GradeStatusSchema.optional(),
});
export type RegradeRequest = z.infer<typeof RegradeRequest>;

export interface AuditEntry {
  /**
   * What the teacher did to the answer: an override of its status (alone or with its group), or a move out of its
   * answer group or back in. A move changes no status: its `from` and `to` are the status the answer had.
   */
  action: AuditAction;
  sessionId: string;
  questionId: number;
  by: string;
  at: number;
  from: GradeStatus;
  to: GradeStatus;
  reason: string;
  /** The answer group graded in one action, when it was one; for a move, the group the answer left or joined. */
  groupId?: string | undefined;
}

export type AuditAction = 'override' | 'move-out' | 'move-in';

/** A teacher's move of one answer out of its group or back in, as the audit trail keeps it. */
export interface AnswerMove {
  by: string;
  at: number;
  /** The answer's status as it counts at the move (unchanged by it). */
  status: GradeStatus;
  /** The group the answer leaves (move-out) or joins (move-in). */
  groupId: string;
}

/** Where a student's grading is. */
export interface GradingState {
  /** A run started grading (informational: the lease decides who works). */
  claimed: boolean;
  /** Grading passes started (the first one included). */
  attempts: number;
  /** The post-grading steps finished at least once. */
  finalised: boolean;
  state: 'none' | 'pending' | 'graded';
  /** 1, plus one per change after the first grading (override, regrade): the post-grading steps run for each. */
  revision: number;
  /** The revision each post-grading step last finished for, by step name. */
  done: Record<string, number>;
}

/** A student's submitted items and when the whole exam was submitted (null: not yet). */
export interface Submission {
  items: Map<number, StoredAnswer>;
  all: number | null;
}

/** Everything of one student that the results listing reads (ExamRepository.studentRecords). */
export interface StudentRecords {
  submission: Submission;
  grades: Map<number, EvaluationItem>;
  overrides: Map<number, ExamOverride>;
  regrades: RegradeRequest[];
  report: FeedbackReport | null;
  grading: GradingState;
}

const ALL = 'all';

/** Entries written before moves were audited have no action: they are overrides. */
const auditAction = (value: string | undefined): AuditAction => (value === 'move-out' || value === 'move-in' ? value : 'override');
/** Guard fields of a drafts hash (never an item id): the close's, and one per submitted item. */
const GUARD_PREFIX = '~';
const CLOSED_GUARD = '~closed';
const submittedGuard = (id: number) => `~submitted:${id}`;
const pendingMember = (examId: string, sessionId: string) => `${examId}|${sessionId}`;

export class ExamRepository {
  constructor(
    private readonly store: Store,
    private readonly logger?: Logger,
  ) {}

  // ---- the exam --------------------------------------------------------------------------------------------------

  async create(input: NewExam, now: number): Promise<ExamRecord> {
    const record: ExamRecord = {
      examId: randomUUID().replaceAll('-', ''),
      accountId: input.accountId,
      materialId: input.materialId,
      title: input.title,
      request: input.request,
      plan: input.plan,
      problems: input.problems,
      complaints: input.complaints,
      valid: input.valid,
      rounds: input.rounds,
      createdAt: now,
      ...(input.jobId === undefined ? {} : { jobId: input.jobId }),
      ...(input.shortfall === undefined ? {} : { shortfall: input.shortfall }),
    };
    const { store } = this;
    // The record before the indexes: a list never names an exam that is not there.
    await store.set(examKeys.exam(record.examId), JSON.stringify(record));
    await store.zadd(examKeys.materialExams(record.materialId), now, record.examId);
    await store.zadd(examKeys.accountExams(record.accountId), now, record.examId);
    await store.zadd(examKeys.accountExams(record.accountId, record.materialId), now, record.examId);
    return record;
  }

  async get(examId: string): Promise<ExamRecord | null> {
    if (!EXAM_ID.test(examId)) return null;
    return readJsonRecord(await this.store.get(examKeys.exam(examId)), ExamRecord, { key: examKeys.exam(examId), logger: this.logger });
  }

  /** Rewrites the exam (the instructor's edits while it is a draft: problems, complaints, accepted items). */
  async save(exam: ExamRecord): Promise<ExamRecord> {
    await this.store.set(examKeys.exam(exam.examId), JSON.stringify(exam));
    return exam;
  }

  /** One page of an account's exams (of one material when given), newest first. */
  async list(accountId: string, materialId: string | undefined, page: PageRequest): Promise<{ exams: ExamRecord[]; nextCursor: string | null }> {
    const { members, nextCursor } = await pageOfIndex(this.store, examKeys.accountExams(accountId, materialId), page, { reverse: true });
    if (members.length === 0) return { exams: [], nextCursor };
    const raws = await this.store.mget(members.map((examId) => examKeys.exam(examId)));
    const exams = raws.flatMap((raw, index) => {
      const record = readJsonRecord(raw, ExamRecord, { key: examKeys.exam(members[index] ?? ''), logger: this.logger });
      return record ? [record] : [];
    });
    return { exams, nextCursor };
  }

  // ---- publication and closing -----------------------------------------------------------------------------------

  /** Publishes once (SET NX); the publication that holds (this one, or the earlier one) and whether this was it. */
  async publish(examId: string, publication: ExamPublication): Promise<{ publication: ExamPublication; first: boolean }> {
    const { store } = this;
    const first = await store.set(examKeys.examPublication(examId), JSON.stringify(publication), { nx: true });
    if (!first) {
      const held = await this.publication(examId);
      return { publication: held ?? publication, first };
    }
    await store.zadd(examKeys.classExams(publication.classId), publication.publishedAt, examId);
    // A self-study exam has no deadline: nothing for the sweep to close.
    if (publication.selfStudy !== true) await store.zadd(examKeys.examsOpen(), publication.deadline, examId);
    return { publication, first };
  }

  /**
   * Moves the deadline forward to `at` (the instructor ends the exam early): the publication record is rewritten
   * and the exam is due on the list of exams to close. Never moves a deadline later.
   */
  async endAt(examId: string, at: number): Promise<ExamPublication | null> {
    const current = await this.publication(examId);
    if (!current || current.deadline <= at) return current;
    const ended: ExamPublication = { ...current, deadline: at };
    await this.store.set(examKeys.examPublication(examId), JSON.stringify(ended));
    await this.store.zadd(examKeys.examsOpen(), at, examId);
    return ended;
  }

  async publication(examId: string): Promise<ExamPublication | null> {
    return readJsonRecord(await this.store.get(examKeys.examPublication(examId)), ExamPublication, { key: examKeys.examPublication(examId), logger: this.logger });
  }

  async publications(examIds: readonly string[]): Promise<(ExamPublication | null)[]> {
    if (examIds.length === 0) return [];
    const raws = await this.store.mget(examIds.map((examId) => examKeys.examPublication(examId)));
    return raws.map((raw, index) => readJsonRecord(raw, ExamPublication, { key: examKeys.examPublication(examIds[index] ?? ''), logger: this.logger }));
  }

  /** The exams published to a class, newest first (at most `limit`). */
  async classExams(classId: string, limit = 50): Promise<string[]> {
    const members = await this.store.zrange(examKeys.classExams(classId), 0, limit - 1, { reverse: true });
    return members.map(({ member }) => member);
  }

  /** Open exams whose deadline has passed at `now` (the sweep's work). */
  async dueToClose(now: number, limit = 50): Promise<string[]> {
    const members = await this.store.zrange(examKeys.examsOpen(), 0, limit - 1);
    return members.filter(({ score }) => score <= now).map(({ member }) => member);
  }

  /** Published timed exams whose deadline is after `now` (every class's: a short list). */
  async running(now: number): Promise<string[]> {
    const members = await this.store.zrange(examKeys.examsOpen(), 0, -1);
    return members.filter(({ score }) => score > now).map(({ member }) => member);
  }

  /** Marks the exam closed (SET NX): true for the one caller that closes it. */
  async claimClose(examId: string, at: number): Promise<boolean> {
    return this.store.set(examKeys.examClosed(examId), String(at), { nx: true });
  }

  async closedAt(examId: string): Promise<number | null> {
    const raw = await this.store.get(examKeys.examClosed(examId));
    return raw === null ? null : Number(raw);
  }

  /** Whether the exam is still on the list of exams to close. */
  async isOpen(examId: string): Promise<boolean> {
    return (await this.store.zscore(examKeys.examsOpen(), examId)) !== null;
  }

  async forgetOpen(examId: string): Promise<void> {
    await this.store.zrem(examKeys.examsOpen(), examId);
  }

  // ---- students, drafts, submissions -----------------------------------------------------------------------------

  async touchStudent(examId: string, sessionId: string, at: number): Promise<void> {
    if ((await this.store.zscore(examKeys.examStudents(examId), sessionId)) !== null) return;
    await this.store.zadd(examKeys.examStudents(examId), at, sessionId);
  }

  async students(examId: string): Promise<string[]> {
    const count = await this.store.zcard(examKeys.examStudents(examId));
    if (count === 0) return [];
    return (await this.store.zrange(examKeys.examStudents(examId), 0, count - 1)).map(({ member }) => member);
  }

  /**
   * Saves drafts (last write wins) unless the exam's close or the submission of one of these items got there first
   * (their guards in the same hash, written before they read the drafts): false, and nothing saved, then.
   */
  async saveDrafts(examId: string, sessionId: string, answers: Record<number, string>, at: number): Promise<boolean> {
    const fields = Object.fromEntries(Object.entries(answers).map(([id, text]) => [id, JSON.stringify({ text, at } satisfies StoredAnswer)]));
    const guards = [CLOSED_GUARD, ...Object.keys(answers).map((id) => submittedGuard(Number(id)))];
    return this.store.hsetUnless(examKeys.examDrafts(examId, sessionId), fields, guards);
  }

  /**
   * Stops the student's drafts of these items (or of every item: the close) from being saved any more; written
   * before the drafts are read for a submission, so the text submitted is the last draft acknowledged.
   */
  async guardDrafts(examId: string, sessionId: string, items: readonly number[] | 'all', at: number): Promise<void> {
    const fields = items === 'all' ? [CLOSED_GUARD] : items.map(submittedGuard);
    await this.store.hset(examKeys.examDrafts(examId, sessionId), Object.fromEntries(fields.map((field) => [field, String(at)])));
  }

  async drafts(examId: string, sessionId: string): Promise<Map<number, StoredAnswer>> {
    const key = examKeys.examDrafts(examId, sessionId);
    const fields = await this.store.hgetall(key);
    for (const field of Object.keys(fields)) if (field.startsWith(GUARD_PREFIX)) delete fields[field];
    return this.parseAnswers(fields, key);
  }

  /** Submits each item once (HSETNX); returns the ids this call submitted (the others were submitted before). */
  async submitItems(examId: string, sessionId: string, answers: Map<number, string>, at: number): Promise<number[]> {
    const key = examKeys.examSubmitted(examId, sessionId);
    const written: number[] = [];
    for (const [id, text] of answers) {
      if (await this.store.hsetnx(key, String(id), JSON.stringify({ text, at } satisfies StoredAnswer))) written.push(id);
    }
    return written;
  }

  /** Marks the whole exam submitted (HSETNX `all`): true for the one call that did. */
  async submitAll(examId: string, sessionId: string, at: number): Promise<boolean> {
    return this.store.hsetnx(examKeys.examSubmitted(examId, sessionId), ALL, String(at));
  }

  async submissions(examId: string, sessionId: string): Promise<Submission> {
    const key = examKeys.examSubmitted(examId, sessionId);
    return this.parseSubmission(await this.store.hgetall(key), key);
  }

  private parseSubmission(fields: Record<string, string>, key: string): Submission {
    const { [ALL]: allField, ...items } = fields;
    return { items: this.parseAnswers(items, key), all: allField === undefined ? null : Number(allField) };
  }

  /**
   * What the results listing needs of each student (submission, grades, overrides, regrade requests, report, grading
   * state), in the order asked, read in six round trips (pipelined HGETALLs and one MGET) whatever the number of
   * students; each part equals what the one-student read of it returns.
   */
  async studentRecords(examId: string, sessionIds: readonly string[]): Promise<StudentRecords[]> {
    const keysOf = (build: (examId: string, sessionId: string) => string) => sessionIds.map((sessionId) => build(examId, sessionId));
    const [submitted, grades, overrides, regrades, grading, reports] = await Promise.all([
      this.store.hgetallMany(keysOf(examKeys.examSubmitted)),
      this.store.hgetallMany(keysOf(examKeys.examGrades)),
      this.store.hgetallMany(keysOf(examKeys.examOverrides)),
      this.store.hgetallMany(keysOf(examKeys.examRegrades)),
      this.store.hgetallMany(keysOf(examKeys.examGrading)),
      this.store.mget(keysOf(examKeys.examReport)),
    ]);
    return sessionIds.map((sessionId, index) => ({
      submission: this.parseSubmission(submitted[index] ?? {}, examKeys.examSubmitted(examId, sessionId)),
      grades: this.parseGrades(grades[index] ?? {}, examKeys.examGrades(examId, sessionId)),
      overrides: this.parseOverrides(overrides[index] ?? {}, examKeys.examOverrides(examId, sessionId)),
      regrades: this.parseRegrades(regrades[index] ?? {}, examKeys.examRegrades(examId, sessionId)),
      report: this.parseReport(reports[index] ?? null, examKeys.examReport(examId, sessionId)),
      grading: parseGradingState(grading[index] ?? {}),
    }));
  }

  // ---- grades, overrides, regrades, reports ----------------------------------------------------------------------

  async saveGrade(examId: string, sessionId: string, item: EvaluationItem): Promise<void> {
    await this.store.hset(examKeys.examGrades(examId, sessionId), { [String(item.question_id)]: JSON.stringify(item) });
  }

  async grades(examId: string, sessionId: string): Promise<Map<number, EvaluationItem>> {
    const key = examKeys.examGrades(examId, sessionId);
    return this.parseGrades(await this.store.hgetall(key), key);
  }

  private parseGrades(fields: Record<string, string>, key: string): Map<number, EvaluationItem> {
    const out = new Map<number, EvaluationItem>();
    for (const [id, raw] of Object.entries(fields)) {
      const item = readJsonRecord(raw, StoredEvaluation, { key, logger: this.logger });
      if (item) out.set(Number(id), item);
    }
    return out;
  }

  /** Records an override: the current one per item, and an entry of the append-only trail. */
  async override(examId: string, sessionId: string, questionId: number, override: ExamOverride): Promise<void> {
    await this.store.xadd(examKeys.examAudit(examId), {
      action: 'override',
      sessionId,
      questionId: String(questionId),
      by: override.by,
      at: String(override.at),
      from: override.from,
      to: override.status,
      reason: override.reason,
      ...(override.group === undefined ? {} : { groupId: override.group.id }),
    });
    await this.store.hset(examKeys.examOverrides(examId, sessionId), { [String(questionId)]: JSON.stringify(override) });
  }

  async overrides(examId: string, sessionId: string): Promise<Map<number, ExamOverride>> {
    const key = examKeys.examOverrides(examId, sessionId);
    return this.parseOverrides(await this.store.hgetall(key), key);
  }

  private parseOverrides(fields: Record<string, string>, key: string): Map<number, ExamOverride> {
    const out = new Map<number, ExamOverride>();
    for (const [id, raw] of Object.entries(fields)) {
      const item = readJsonRecord(raw, ExamOverride, { key, logger: this.logger });
      if (item) out.set(Number(id), item);
    }
    return out;
  }

  /** The audit trail of an exam's overrides, oldest first (of one student when given). */
  async audit(examId: string, sessionId?: string): Promise<AuditEntry[]> {
    const entries = await this.store.xread(examKeys.examAudit(examId), '0', 10_000);
    return entries
      .map(({ fields }) => ({
        action: auditAction(fields.action),
        sessionId: fields.sessionId ?? '',
        questionId: Number(fields.questionId),
        by: fields.by ?? '',
        at: Number(fields.at),
        from: (fields.from ?? 'Ungraded') as GradeStatus,
        to: (fields.to ?? 'Ungraded') as GradeStatus,
        reason: fields.reason ?? '',
        ...(fields.groupId === undefined ? {} : { groupId: fields.groupId }),
      }))
      .filter((entry) => sessionId === undefined || entry.sessionId === sessionId);
  }

  /** Records a regrade request once per item (HSETNX); false when one was already asked. */
  async requestRegrade(examId: string, sessionId: string, request: RegradeRequest): Promise<boolean> {
    return this.store.hsetnx(examKeys.examRegrades(examId, sessionId), String(request.questionId), JSON.stringify(request));
  }

  async updateRegrade(examId: string, sessionId: string, request: RegradeRequest): Promise<void> {
    await this.store.hset(examKeys.examRegrades(examId, sessionId), { [String(request.questionId)]: JSON.stringify(request) });
  }

  async regrades(examId: string, sessionId: string): Promise<RegradeRequest[]> {
    const key = examKeys.examRegrades(examId, sessionId);
    return this.parseRegrades(await this.store.hgetall(key), key);
  }

  private parseRegrades(fields: Record<string, string>, key: string): RegradeRequest[] {
    return Object.values(fields)
      .flatMap((raw) => {
        const request = readJsonRecord(raw, RegradeRequest, { key, logger: this.logger });
        return request ? [request] : [];
      })
      .sort((a, b) => a.at - b.at);
  }

  async saveReport(examId: string, sessionId: string, report: FeedbackReport): Promise<void> {
    await this.store.set(examKeys.examReport(examId, sessionId), JSON.stringify(report));
  }

  async report(examId: string, sessionId: string): Promise<FeedbackReport | null> {
    return this.parseReport(await this.store.get(examKeys.examReport(examId, sessionId)), examKeys.examReport(examId, sessionId));
  }

  private parseReport(raw: string | null, key: string): FeedbackReport | null {
    return readJsonRecord(raw, FeedbackReport, { key, logger: this.logger });
  }

  // ---- answer groups (answer-groups.ts) -------------------------------------------------------------------------

  /**
   * Moves an answer out of its group (it stands alone) or back in; false when it already was where it is moved to.
   * Only a move that changed something gets its entry in the audit trail.
   */
  async setDetached(examId: string, questionId: number, sessionId: string, detached: boolean, at: number): Promise<boolean> {
    const key = examKeys.examDetached(examId, questionId);
    return detached ? this.store.hsetnx(key, sessionId, String(at)) : (await this.store.hdel(key, sessionId)) > 0;
  }

  /** The audit entry of a move (see {@link setDetached}): the answer's status on both sides, no reason. */
  async auditMove(examId: string, questionId: number, sessionId: string, action: Exclude<AuditAction, 'override'>, move: AnswerMove): Promise<void> {
    await this.store.xadd(examKeys.examAudit(examId), {
      action,
      sessionId,
      questionId: String(questionId),
      by: move.by,
      at: String(move.at),
      from: move.status,
      to: move.status,
      reason: '',
      groupId: move.groupId,
    });
  }

  /** The session ids whose answer to the item the teacher moved out of its group. */
  async detached(examId: string, questionId: number): Promise<Set<string>> {
    return new Set(Object.keys(await this.store.hgetall(examKeys.examDetached(examId, questionId))));
  }

  // ---- the grading state ----------------------------------------------------------------------------------------

  /**
   * Takes the student's grading lease for `owner` (one run on one node) for `ttlMs`; false while another run holds
   * it. A node that dies holding it loses it when it lapses, and the next sweep's run takes over.
   */
  async acquireGrading(examId: string, sessionId: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.store.acquireLease(examKeys.examGradingLease(examId, sessionId), owner, ttlMs);
  }

  async renewGrading(examId: string, sessionId: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.store.renewLease(examKeys.examGradingLease(examId, sessionId), owner, ttlMs);
  }

  async releaseGrading(examId: string, sessionId: string, owner: string): Promise<void> {
    await this.store.releaseLease(examKeys.examGradingLease(examId, sessionId), owner);
  }

  /** Records when the grading first started and when it first finished (HSETNX: the first time stays). */
  async noteGrading(examId: string, sessionId: string, field: 'claimed' | 'finalised', at: number): Promise<void> {
    await this.store.hsetnx(examKeys.examGrading(examId, sessionId), field, String(at));
  }

  async setGradingState(examId: string, sessionId: string, state: 'pending' | 'graded'): Promise<void> {
    await this.store.hset(examKeys.examGrading(examId, sessionId), { state });
  }

  async countAttempt(examId: string, sessionId: string): Promise<number> {
    return this.store.hincrby(examKeys.examGrading(examId, sessionId), 'attempts', 1);
  }

  /** A change after the first grading (an override, a regrade): the post-grading steps are due again. The new revision. */
  async bumpRevision(examId: string, sessionId: string): Promise<number> {
    return 1 + (await this.store.hincrby(examKeys.examGrading(examId, sessionId), 'changes', 1));
  }

  /** Records that a post-grading step finished for `revision`. */
  async markStep(examId: string, sessionId: string, step: string, revision: number): Promise<void> {
    await this.store.hset(examKeys.examGrading(examId, sessionId), { [`done:${step}`]: String(revision) });
  }

  /** A value one post-grading step leaves for a later one (a field of the grading hash). */
  async stage(examId: string, sessionId: string, name: string, value: string): Promise<void> {
    await this.store.hset(examKeys.examGrading(examId, sessionId), { [`staged:${name}`]: value });
  }

  async staged(examId: string, sessionId: string, name: string): Promise<string | null> {
    return this.store.hget(examKeys.examGrading(examId, sessionId), `staged:${name}`);
  }

  async gradingState(examId: string, sessionId: string): Promise<GradingState> {
    return parseGradingState(await this.store.hgetall(examKeys.examGrading(examId, sessionId)));
  }

  /** Whether the student is on the list of gradings to look at. */
  async isScheduled(examId: string, sessionId: string): Promise<boolean> {
    return (await this.store.zscore(examKeys.examsPending(), pendingMember(examId, sessionId))) !== null;
  }

  /** Puts the student's grading on the retry list, to be looked at again at `at`. */
  async schedule(examId: string, sessionId: string, at: number): Promise<void> {
    await this.store.zadd(examKeys.examsPending(), at, pendingMember(examId, sessionId));
  }

  async unschedule(examId: string, sessionId: string): Promise<void> {
    await this.store.zrem(examKeys.examsPending(), pendingMember(examId, sessionId));
  }

  /** Notes that the exam has gradings under way, to be checked by the sweep's backstop at `at`. */
  async noteGradingExam(examId: string, at: number): Promise<void> {
    await this.store.zadd(examKeys.examsGrading(), at, examId);
  }

  /** Exams with gradings to check at `now` (oldest first). */
  async gradingExamsDue(now: number, limit = 20): Promise<string[]> {
    const members = await this.store.zrange(examKeys.examsGrading(), 0, limit - 1);
    return members.filter(({ score }) => score <= now).map(({ member }) => member);
  }

  async forgetGradingExam(examId: string): Promise<void> {
    await this.store.zrem(examKeys.examsGrading(), examId);
  }

  /** Gradings due for another look at `now`. */
  async duePending(now: number, limit = 50): Promise<{ examId: string; sessionId: string }[]> {
    const members = await this.store.zrange(examKeys.examsPending(), 0, limit - 1);
    return members.flatMap(({ member, score }) => {
      if (score > now) return [];
      const [examId, sessionId] = member.split('|');
      return examId && sessionId ? [{ examId, sessionId }] : [];
    });
  }

  // ---- learner profiles ------------------------------------------------------------------------------------------

  async profile(classId: string, sessionId: string): Promise<LearnerProfile | null> {
    return readJsonRecord(await this.store.get(examKeys.classProfile(classId, sessionId)), LearnerProfile, { key: examKeys.classProfile(classId, sessionId), logger: this.logger });
  }

  async saveProfile(classId: string, sessionId: string, profile: LearnerProfile): Promise<void> {
    await this.store.zadd(examKeys.classProfiles(classId), profile.updated_at, sessionId);
    await this.store.set(examKeys.classProfile(classId, sessionId), JSON.stringify(profile));
  }

  // ---- deletion --------------------------------------------------------------------------------------------------

  /** Deletes an exam and every student's data of it, and its index entries; false when there was no such exam. */
  async delete(examId: string): Promise<boolean> {
    const { store } = this;
    const [record, publication] = await Promise.all([this.get(examId), this.publication(examId)]);
    const students = await this.students(examId);
    if (!record && !publication && students.length === 0) return false;
    for (let start = 0; start < students.length; start += 100) {
      const batch = students.slice(start, start + 100);
      await store.zrem(examKeys.examsPending(), ...batch.map((sessionId) => pendingMember(examId, sessionId)));
      await store.del(
        ...batch.flatMap((sessionId) => [
          examKeys.examDrafts(examId, sessionId),
          examKeys.examSubmitted(examId, sessionId),
          examKeys.examGrades(examId, sessionId),
          examKeys.examOverrides(examId, sessionId),
          examKeys.examRegrades(examId, sessionId),
          examKeys.examReport(examId, sessionId),
          examKeys.examGrading(examId, sessionId),
          examKeys.examGradingLease(examId, sessionId),
        ]),
      );
    }
    await store.zrem(examKeys.examsOpen(), examId);
    await store.zrem(examKeys.examsGrading(), examId);
    if (publication) await store.zrem(examKeys.classExams(publication.classId), examId);
    if (record) {
      await store.zrem(examKeys.materialExams(record.materialId), examId);
      await store.zrem(examKeys.accountExams(record.accountId), examId);
      await store.zrem(examKeys.accountExams(record.accountId, record.materialId), examId);
    }
    if (record) await store.del(...record.problems.map((problem) => examKeys.examDetached(examId, problem.id)));
    await store.del(examKeys.examStudents(examId), examKeys.examAudit(examId), examKeys.examClosed(examId), examKeys.examPublication(examId), examKeys.exam(examId));
    return true;
  }

  /** Everything of a class: the exams published to it (with their students' data) and its learner profiles. */
  async deleteForClass(classId: string): Promise<void> {
    await this.drain(examKeys.classExams(classId), (examId) => this.delete(examId));
    await this.drain(examKeys.classProfiles(classId), async (sessionId) => {
      await this.store.del(examKeys.classProfile(classId, sessionId));
    });
  }

  /** Every exam made from a material (with its students' data). */
  async deleteForMaterial(materialId: string): Promise<void> {
    await this.drain(examKeys.materialExams(materialId), (examId) => this.delete(examId));
  }

  /** How many exams were made from a material (its deletion looks before it deletes). */
  countForMaterial(materialId: string): Promise<number> {
    return this.store.zcard(examKeys.materialExams(materialId));
  }

  private async drain(key: string, each: (member: string) => Promise<unknown>): Promise<void> {
    for (;;) {
      const members = (await this.store.zrange(key, 0, 99)).map((entry) => entry.member);
      if (members.length === 0) break;
      for (const member of members) await each(member);
      await this.store.zrem(key, ...members);
    }
    await this.store.del(key);
  }

  private parseAnswers(fields: Record<string, string>, key: string): Map<number, StoredAnswer> {
    const out = new Map<number, StoredAnswer>();
    for (const [id, raw] of Object.entries(fields)) {
      const answer = readJsonRecord(raw, StoredAnswer, { key, logger: this.logger });
      if (answer) out.set(Number(id), answer);
    }
    return out;
  }
}

function parseGradingState(fields: Record<string, string>): GradingState {
  const state = fields.state === 'graded' || fields.state === 'pending' ? fields.state : 'none';
  const done: Record<string, number> = {};
  for (const [field, value] of Object.entries(fields)) if (field.startsWith('done:')) done[field.slice('done:'.length)] = Number(value) || 0;
  return {
    claimed: fields.claimed !== undefined,
    attempts: Number(fields.attempts ?? 0) || 0,
    finalised: fields.finalised !== undefined,
    state,
    revision: 1 + (Number(fields.changes ?? 0) || 0),
    done,
  };
}
