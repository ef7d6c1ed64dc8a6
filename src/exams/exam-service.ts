import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { PageRequest } from '../protocol/page.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { ExamProgressEvent } from '../protocol/wire/exams.js';
import { ExamAnswerGroups } from './answer-group-grading.js';
import { ExamComplaintsOpenError } from './exam-errors.js';
import { ExamGrading, type GradingStep } from './exam-grading.js';
import { postGradingSteps } from './grading-steps.js';
import { type TeacherDecision, teacherDecisions } from './teacher-decisions.js';
import { withoutExamEvidence } from './prior-profile.js';
import { classProfile } from './exam-mix.js';
import { isSelfStudy, resultRevealed, revealsItemsOf, selfStudyPublication, visibleTo } from './self-study-exam.js';
import type { ExamOverride, ExamPublication, ExamRecord, ExamRepository, GradingState, NewExam, RegradeRequest } from './exam-repository.js';
import { examResultsCsv, itemSummaries, resultItems, scoreOf, studentResult, type ItemSummary, type ResultItem, type StudentLogItem, type StudentResult } from './exam-results.js';
import {
  ExamProblem,
  type ChapterRef,
  type ExamFeedbackAgent,
  type ExamItemGrader,
  type ExamType,
  type FeedbackReport,
  type GradeEvidence,
  type LearnerProfile,
  type LearnerSignals,
  type ResultStatus,
  type ScoreWeights,
  type TargetDepth,
  type SourcePassage,
  type SourceQuestion,
} from './exam-types.js';

/**
 * Live exams, the domain without a transport: publication to a class with a time limit on the
 * server's clock, the student's view (never a model answer or a keyword), autosaved drafts, write-once submission,
 * closing at the deadline, the grading pipeline (src/exams/exam-grading.ts), overrides and regrades, results, and
 * the learner profile.
 *
 * The deadline: after it nothing is accepted (EXAM_CLOSED); the drafts as saved at the deadline are submitted and
 * graded (auto-submit), exactly once (the `closed` flag is SET NX), by whichever node notices first: every node's
 * sweep timer, and a check on every read and write of the exam.
 */

/** Where the live progress goes (the class's monitor room); never answer text. */
export interface ExamEvents {
  progress(classId: string, payload: ExamProgressEvent): void;
  /** A student's result is there or changed (the instructor's monitor and the student's open pages). */
  graded(classId: string, payload: { examId: string; sessionId: string }): void;
  /** The exam closed (시험 종료 or the deadline): every open sheet of the class. */
  closed(classId: string, payload: { examId: string; deadline: number }): void;
}

/** One student's row of the monitor's 시험 진행: the `exam:progress` event's fields and whether grading finished. */
export type ExamProgressRow = ExamProgressEvent & { graded: boolean };

/** What the service needs of a class: its students' nicknames (the roster). */
export interface ExamRoster {
  /** The class's students (joined sessions), in join order. */
  students(classId: string): Promise<{ sessionId: string; nickname: string }[]>;
  /** The student's nickname; null when the session is not (or no longer) on the class's roster. */
  nickname(classId: string, sessionId: string): Promise<string | null>;
}

export interface ExamServiceOptions {
  repository: ExamRepository;
  nodeId: string;
  grader: ExamItemGrader;
  feedback: ExamFeedbackAgent;
  roster: ExamRoster;
  chapters(materialId: string): Promise<ChapterRef[]>;
  /** The passages the given questions are about (the feedback report's `source_material`). */
  sourcePassages?(materialId: string, questions: readonly SourceQuestion[]): Promise<SourcePassage[]>;
  /** The material's text the items were drawn from (the grader's pasted-passage check). */
  source?(materialId: string): Promise<string>;
  /** What lectern knows of a student besides exams (lecture verdicts, raised hands, quiz answers). */
  signals?(classId: string, sessionId: string): Promise<Omit<LearnerSignals, 'exams'>>;
  /** `Execute_Generator_PriorProfile`: the profile an exam starts from; the previous one (or a neutral one) without it. */
  priorProfile?(previous: LearnerProfile | null, examType: ExamType, signals: LearnerSignals, now: number): LearnerProfile;
  events?: ExamEvents;
  /** The model's embeddings, given only when they carry meaning: answer groups by meaning (term vectors without). */
  embed?: (texts: string[]) => Promise<number[][]>;
  weights: ScoreWeights;
  sweepMs: number;
  gradeRetries: number;
  gradeRetryMs: number;
  /** How long a node's hold on a student's grading lasts without renewal (another node takes over after it). */
  gradingLeaseMs?: number;
  /**
   * Steps run after the built-in ones (report, profile, notify) each time a student's result is final or changes
   * (an override, a regrade): idempotent, resumed on another node after a crash (exam-grading.ts, GradingStep).
   */
  steps?: readonly GradingStep[];
  now?: () => number;
  logger: Logger;
}

export type ExamStatus = 'draft' | 'published' | 'closed';
export type StudentExamState = 'open' | 'submitted' | 'closed';

export interface StudentExamView {
  examId: string;
  title: string;
  serverNow: number;
  deadline: number;
  /** No deadline (it stays far away); the result shows at the student's own full submission. */
  selfStudy: boolean;
  problems: { id: number; type: ExamProblem['type']; question_content: string }[];
  drafts: Record<string, string>;
  submitted: Record<string, true>;
  submittedAll: boolean;
}

export interface ExamResults {
  examId: string;
  deadline: number;
  closed: boolean;
  students: StudentResult[];
  items: ItemSummary[];
  /** The class's students who never opened the exam (미응시), in join order. */
  absent: { sessionId: string; nickname: string }[];
}

/** How long until `at`, as a message says it (`약 12분 뒤`): no time zone to guess. */
const timeUntil = (at: number, now: number) => `약 ${Math.max(1, Math.ceil((at - now) / 60_000))}분 뒤`;

/** A neutral starting profile for a student lectern knows nothing of yet. */
export function neutralProfile(now: number): LearnerProfile {
  return {
    learning_goal: { target_depth: 'Conceptual Understanding', description: '' },
    user_status: { proficiency_level: 'Intermediate', weak_topics: [], strong_topics: [] },
    preferred_question_types: [],
    exams_taken: [],
    updated_at: now,
  };
}

export const MAX_ANSWER_LENGTH = 4_000;
/** How many of a class's students its aggregated learner profile reads (in join order). */
export const CLASS_PROFILE_STUDENTS = 200;
/** How many exams a student's list shows (newest first). */
const STUDENT_LIST_LIMIT = 50;
/** How much of a class's exam index is read to find one student's exams (classmates' self-study exams included). */
const CLASS_INDEX_WINDOW = 2_000;
/** How many students are graded at once on a node when an exam closes. */
const GRADING_CONCURRENCY = 4;
/** How many due gradings one sweep looks at. */
const PENDING_WINDOW = 200;
/** A dead node's students are taken over this long after its last renewal (plus a sweep interval). */
export const DEFAULT_GRADING_LEASE_MS = 15_000;

const notFound = () => new AppError(ErrorCode.EXAM_NOT_FOUND);
const closed = () => new AppError(ErrorCode.EXAM_CLOSED);
const questionNotFound = (id: number) => new AppError(ErrorCode.EXAM_QUESTION_NOT_FOUND, `${id}번 문항은 이 시험에 없습니다.`);

/** Evidence without the grader's unconfirmed proposal and confidence (what a student may see of an item under review). */
function withoutProposal(evidence: GradeEvidence): GradeEvidence {
  const { proposed: _proposed, confidence: _confidence, ...rest } = evidence;
  return rest;
}

export class ExamService {
  readonly repository: ExamRepository;
  readonly grading: ExamGrading;
  /** The teacher grades groups of answers (answer-group-grading.ts), through applyOverride. */
  readonly groups: ExamAnswerGroups;
  private readonly now: () => number;
  /** How long after a grading started the backstop checks its exam. */
  private readonly backstopMs: number;
  private timer: NodeJS.Timeout | undefined;
  private readonly inflight = new Set<Promise<void>>();
  private readonly queue: (() => Promise<void>)[] = [];
  /** The students whose grading run is queued or working on this node. */
  private readonly gradingHere = new Set<string>();
  private running = 0;
  private sweeping: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: ExamServiceOptions) {
    this.repository = options.repository;
    this.now = options.now ?? Date.now;
    this.backstopMs = 2 * (options.gradingLeaseMs ?? DEFAULT_GRADING_LEASE_MS);
    const steps = postGradingSteps({
      repository: options.repository,
      feedback: options.feedback,
      chapters: options.chapters,
      ...(options.sourcePassages ? { sources: options.sourcePassages } : {}),
      profileBefore: (classId, sessionId, examId) => this.profile(classId, sessionId, { excludeExam: examId }),
      notify: (exam, classId, sessionId) => this.options.events?.graded(classId, { examId: exam.examId, sessionId }),
    });
    this.grading = new ExamGrading({
      repository: options.repository,
      grader: options.grader,
      steps: [...steps, ...(options.steps ?? [])],
      ...(options.source ? { source: options.source } : {}),
      nodeId: options.nodeId,
      leaseMs: options.gradingLeaseMs ?? DEFAULT_GRADING_LEASE_MS,
      now: this.now,
      retries: options.gradeRetries,
      retryMs: options.gradeRetryMs,
      logger: options.logger,
    });
    this.groups = new ExamAnswerGroups({
      repository: options.repository,
      nickname: (classId, sessionId) => options.roster.nickname(classId, sessionId),
      embed: options.embed,
      applyOverride: (exam, sessionId, questionId, decision) => this.applyOverride(exam, sessionId, questionId, decision),
      now: this.now,
      logger: options.logger,
    });
  }

  // ---- the instructor's exam -------------------------------------------------------------------------------------

  /** Stores a generated exam (the generation job's `saveExam`). */
  async create(input: NewExam): Promise<ExamRecord> {
    return this.repository.create(input, this.now());
  }

  /** The exam of `accountId`; another account's answers 404 like a missing one. */
  async owned(examId: string, accountId: string): Promise<ExamRecord> {
    const exam = await this.repository.get(examId);
    if (!exam || exam.accountId !== accountId) throw notFound();
    return exam;
  }

  async status(exam: ExamRecord, publication?: ExamPublication | null): Promise<ExamStatus> {
    const held = publication === undefined ? await this.repository.publication(exam.examId) : publication;
    if (!held) return 'draft';
    return this.now() >= held.deadline ? 'closed' : 'published';
  }

  async list(accountId: string, materialId: string | undefined, page: PageRequest) {
    const { exams, nextCursor } = await this.repository.list(accountId, materialId, page);
    const publications = await this.repository.publications(exams.map((exam) => exam.examId));
    const now = this.now();
    return {
      exams: exams.map((exam, index) => {
        const publication = publications[index] ?? null;
        const status: ExamStatus = !publication ? 'draft' : now >= publication.deadline ? 'closed' : 'published';
        return {
          examId: exam.examId,
          materialId: exam.materialId,
          title: exam.title,
          count: exam.problems.length,
          status,
          createdAt: exam.createdAt,
          ...(publication ? { classId: publication.classId, deadline: publication.deadline } : {}),
          ...(publication && isSelfStudy(publication) ? { selfStudy: true, ...(publication.student === undefined ? {} : { student: publication.student }) } : {}),
        };
      }),
      nextCursor,
    };
  }

  /** Changes one problem while the exam is a draft (question, model answer, keywords, intent). */
  async editProblem(
    exam: ExamRecord,
    id: number,
    patch: { question_content?: string | undefined; model_answer?: string | undefined; key_keywords?: string[] | undefined; intent_diagnosis?: string | undefined },
  ): Promise<ExamProblem> {
    if (await this.repository.publication(exam.examId)) {
      throw new AppError(ErrorCode.EXAM_ALREADY_PUBLISHED);
    }
    const index = exam.problems.findIndex((problem) => problem.id === id);
    const current = exam.problems[index];
    if (!current) throw questionNotFound(id);
    const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    const next = ExamProblem.parse({ ...current, ...defined });
    const problems = exam.problems.map((problem, at) => (at === index ? next : problem));
    // An edited item is the instructor's answer to its complaints: they leave it (the validator's text was about the
    // item as it was).
    await this.repository.save({ ...exam, problems, complaints: exam.complaints.filter((complaint) => complaint.id !== id) });
    return next;
  }

  /** The validator's complaints the instructor has neither fixed (edited the item) nor accepted. */
  openComplaints(exam: ExamRecord): ExamRecord['complaints'] {
    const accepted = new Set(exam.accepted ?? []);
    return exam.complaints.filter((complaint) => !accepted.has(complaint.id));
  }

  /** The instructor accepts an item as it is, its complaints read: they no longer hold the exam back. */
  async acceptItem(exam: ExamRecord, id: number): Promise<ExamRecord> {
    if (await this.repository.publication(exam.examId)) {
      throw new AppError(ErrorCode.EXAM_ALREADY_PUBLISHED, '이미 게시된 시험입니다.');
    }
    if (!exam.problems.some((problem) => problem.id === id)) throw questionNotFound(id);
    return this.repository.save({ ...exam, accepted: [...new Set([...(exam.accepted ?? []), id])].sort((left, right) => left - right) });
  }

  /** Publishing (timed or as self-study) needs every complaint fixed or accepted. */
  private assertPublishable(exam: ExamRecord): void {
    const open = [...new Set(this.openComplaints(exam).map((complaint) => complaint.id))];
    if (open.length > 0) throw new ExamComplaintsOpenError(open.sort((left, right) => left - right));
  }

  /** Publishes to a class (owned by the caller: checked by the caller) with a deadline on the server's clock. */
  async publish(exam: ExamRecord, classId: string, timeLimitMinutes: number): Promise<ExamPublication> {
    this.assertPublishable(exam);
    const publishedAt = this.now();
    const { publication, first } = await this.repository.publish(exam.examId, { classId, timeLimitMinutes, publishedAt, deadline: publishedAt + timeLimitMinutes * 60_000 });
    if (!first) throw new AppError(ErrorCode.EXAM_ALREADY_PUBLISHED, '이미 게시된 시험입니다.');
    return publication;
  }

  /**
   * Publishes as self-study (src/exams/self-study-exam.ts): no deadline, results at each student's own submission;
   * `student`: a student's own exam, seen by that session only.
   */
  async publishSelfStudy(exam: ExamRecord, classId: string, student?: string): Promise<ExamPublication> {
    // The instructor's exam opened as self-study is checked like a timed one; a student's own is theirs to take.
    if (student === undefined) this.assertPublishable(exam);
    const { publication, first } = await this.repository.publish(exam.examId, selfStudyPublication(classId, this.now(), student));
    if (!first) throw new AppError(ErrorCode.EXAM_ALREADY_PUBLISHED, '이미 게시된 시험입니다.');
    return publication;
  }

  /**
   * Ends a published exam now (the instructor's 시험 종료): the deadline becomes now on the server's clock, so the
   * drafts as saved are submitted and graded, and the students' results are revealed, exactly as at a deadline.
   */
  async endNow(exam: ExamRecord): Promise<ExamPublication> {
    const held = await this.repository.publication(exam.examId);
    if (!held) throw new AppError(ErrorCode.EXAM_NOT_PUBLISHED, '아직 게시하지 않은 시험입니다.');
    if (isSelfStudy(held)) throw new AppError(ErrorCode.EXAM_SELF_STUDY);
    // The close's flag before the new deadline: from here no draft is acknowledged (saveDraft reads the flag).
    if (this.now() < held.deadline) await this.repository.claimClose(exam.examId, this.now());
    const ended = (await this.repository.endAt(exam.examId, this.now())) ?? held;
    await this.closeIfDue(exam, ended);
    return ended;
  }

  /** The class's timed exams running now that were made from the material. */
  async runningExams(classId: string, materialId: string): Promise<{ exam: ExamRecord; deadline: number }[]> {
    const examIds = await this.repository.running(this.now());
    const publications = await this.repository.publications(examIds);
    const running: { exam: ExamRecord; deadline: number }[] = [];
    for (const [index, examId] of examIds.entries()) {
      const publication = publications[index];
      if (!publication || publication.classId !== classId || isSelfStudy(publication)) continue;
      const exam = await this.repository.get(examId);
      if (exam?.materialId === materialId) running.push({ exam, deadline: publication.deadline });
    }
    return running;
  }

  /**
   * Refuses a student's self-study exam on a material while a class exam on it runs in their class: generated on the
   * same material and size it could be the running exam itself, and its result would name that exam's answers.
   */
  async assertNoRunningExam(classId: string, materialId: string): Promise<void> {
    const running = await this.runningExams(classId, materialId);
    if (running.length === 0) return;
    const until = Math.max(...running.map((entry) => entry.deadline));
    throw new AppError(ErrorCode.EXAM_RUNNING, `같은 자료로 수업 시험이 진행 중입니다. 혼자 시험은 그 시험이 끝난 뒤(${timeUntil(until, this.now())})에 만들 수 있습니다.`);
  }

  async delete(exam: ExamRecord): Promise<void> {
    await this.repository.delete(exam.examId);
  }

  // ---- the student's side ----------------------------------------------------------------------------------------

  /** The exams published to the student's class (and their own self-study exams), newest first. */
  async studentExams(
    classId: string,
    sessionId: string,
  ): Promise<{ serverNow: number; exams: { examId: string; title: string; count: number; deadline: number; state: StudentExamState; selfStudy: boolean }[] }> {
    const exams = [];
    for (const { examId, publication } of (await this.visibleExams(classId, sessionId)).slice(0, STUDENT_LIST_LIMIT)) {
      const exam = await this.repository.get(examId);
      if (!exam) continue;
      await this.closeIfDue(exam, publication);
      const { all } = await this.repository.submissions(examId, sessionId);
      const state: StudentExamState = this.now() >= publication.deadline ? 'closed' : all !== null ? 'submitted' : 'open';
      exams.push({ examId, title: exam.title, count: exam.problems.length, deadline: publication.deadline, state, selfStudy: isSelfStudy(publication) });
    }
    return { serverNow: this.now(), exams };
  }

  /** The exam as a student of its class sees it: questions only, their drafts and what they submitted. */
  async studentView(examId: string, classId: string, sessionId: string): Promise<StudentExamView> {
    const { exam, publication } = await this.forStudent(examId, classId, sessionId);
    await this.closeIfDue(exam, publication);
    const [drafts, { items, all }] = await Promise.all([this.repository.drafts(examId, sessionId), this.repository.submissions(examId, sessionId)]);
    if (this.now() < publication.deadline) await this.repository.touchStudent(examId, sessionId, this.now());
    return {
      examId,
      title: exam.title,
      serverNow: this.now(),
      deadline: publication.deadline,
      selfStudy: isSelfStudy(publication),
      problems: exam.problems.map(({ id, type, question_content }) => ({ id, type, question_content })),
      drafts: Object.fromEntries([...drafts].map(([id, answer]) => [String(id), answer.text])),
      submitted: Object.fromEntries([...items.keys()].map((id) => [String(id), true as const])),
      submittedAll: all !== null,
    };
  }

  /** Autosave: last write wins; refused after the deadline and for items already submitted. */
  async saveDraft(examId: string, classId: string, sessionId: string, answers: Record<string, string>): Promise<{ savedAt: number; serverNow: number }> {
    // The time that counts against the deadline is the request's arrival, not the end of its reads.
    const savedAt = this.now();
    const { exam, publication } = await this.forStudent(examId, classId, sessionId);
    if (savedAt >= publication.deadline) await this.refuseAfterDeadline(exam, publication);
    const parsed = this.answerIds(exam, Object.keys(answers));
    const { items } = await this.repository.submissions(examId, sessionId);
    const already = parsed.filter((id) => items.has(id));
    if (already.length > 0) {
      throw new AppError(ErrorCode.EXAM_ALREADY_SUBMITTED, `이미 제출한 문항입니다: ${already.join(', ')}번`);
    }
    await this.repository.touchStudent(examId, sessionId, savedAt);
    // A close that began meanwhile (시험 종료, the deadline) may have listed the students before this one's touch:
    // it writes its flag before listing them, so the flag is seen here.
    if ((await this.repository.closedAt(examId)) !== null) throw closed();
    // Atomic against the close's and a submission's guards: a draft acknowledged here is one they read.
    if (!(await this.repository.saveDrafts(examId, sessionId, Object.fromEntries(parsed.map((id) => [id, answers[String(id)] ?? ''])), savedAt))) {
      if ((await this.repository.closedAt(examId)) !== null) throw closed();
      throw new AppError(ErrorCode.EXAM_ALREADY_SUBMITTED, `제출했거나 제출 중인 문항입니다: ${parsed.join(', ')}번`);
    }
    await this.publishProgress(exam, publication, sessionId);
    return { savedAt, serverNow: this.now() };
  }

  /**
   * Submits the saved drafts of the named items, or of every item (`questionIds` absent): each item once (first
   * write wins); the whole exam once every item is submitted, which starts its grading.
   */
  async submit(examId: string, classId: string, sessionId: string, questionIds?: number[]): Promise<{ submitted: Record<string, true>; submittedAll: boolean }> {
    const { exam, publication } = await this.forStudent(examId, classId, sessionId);
    await this.refuseAfterDeadline(exam, publication);
    const ids = questionIds === undefined ? exam.problems.map((problem) => problem.id) : this.answerIds(exam, questionIds.map(String));
    const at = this.now();
    await this.repository.touchStudent(examId, sessionId, at);
    // No draft of these items is saved from here on: the text submitted is the last draft acknowledged.
    await this.repository.guardDrafts(examId, sessionId, ids, at);
    const drafts = await this.repository.drafts(examId, sessionId);
    await this.repository.submitItems(examId, sessionId, new Map(ids.map((id) => [id, drafts.get(id)?.text ?? ''])), at);
    let { items, all } = await this.repository.submissions(examId, sessionId);
    if (all === null && exam.problems.every((problem) => items.has(problem.id))) {
      await this.repository.submitAll(examId, sessionId, at);
      ({ items, all } = await this.repository.submissions(examId, sessionId));
    }
    if (all !== null) await this.startGrading(exam, classId, sessionId);
    await this.publishProgress(exam, publication, sessionId);
    return { submitted: Object.fromEntries([...items.keys()].map((id) => [String(id), true as const])), submittedAll: all !== null };
  }

  /** The student's result, once they submitted everything or the deadline passed. */
  async studentResult(
    examId: string,
    classId: string,
    sessionId: string,
  ): Promise<{
    status: 'pending' | 'graded';
    score: number;
    maxScore: number;
    log: { evaluation_items: StudentLogItem[] };
    report: FeedbackReport | null;
    regrades: { questionId: number; status: 'pending' | 'done' }[];
  }> {
    const { exam, publication } = await this.forStudent(examId, classId, sessionId);
    await this.closeIfDue(exam, publication);
    const { items, all } = await this.repository.submissions(examId, sessionId);
    // A timed exam's results are revealed at the deadline (or when the instructor ends the exam), not at a student's
    // own submission: statuses and feedback name the key keywords, which are the answers classmates still write. A
    // self-study exam's at the student's own full submission.
    if (!resultRevealed(publication, all !== null, this.now())) {
      const when = isSelfStudy(publication) ? '모든 문항을 제출하면 공개됩니다.' : '시험이 끝난 뒤에 공개됩니다.';
      throw new AppError(ErrorCode.EXAM_RESULT_NOT_READY, `아직 결과를 볼 수 없습니다. 결과는 ${when}`);
    }
    // A self-study result never names an answer (a keyword, a model answer) of a class exam still running.
    if (isSelfStudy(publication)) {
      const running = (await this.runningExams(classId, exam.materialId)).filter((entry) => revealsItemsOf(exam.problems, entry.exam.problems));
      if (running.length > 0) {
        const until = Math.max(...running.map((entry) => entry.deadline));
        throw new AppError(ErrorCode.EXAM_RESULT_NOT_READY, `진행 중인 수업 시험과 답이 겹치는 문항이 있어, 결과는 그 시험이 끝난 뒤(${timeUntil(until, this.now())})에 볼 수 있습니다.`);
      }
    }
    await this.healGrading(exam, classId, sessionId);
    const [grades, overrides, report, regrades] = await Promise.all([
      this.repository.grades(examId, sessionId),
      this.repository.overrides(examId, sessionId),
      this.repository.report(examId, sessionId),
      this.repository.regrades(examId, sessionId),
    ]);
    // The student sees that the instructor changed the grader's status, and why (the latest reason); not who (an
    // account id) nor when.
    // An item under review shows no provisional status: the grader's proposal and confidence are the teacher's.
    const log = resultItems(exam, { submitted: items, grades, overrides })
      .map((item) => (item.result_status === 'Needs_Review' && item.evidence !== null ? { ...item, evidence: withoutProposal(item.evidence) } : item))
      .map(({ overridden, ...item }): StudentLogItem =>
        overridden ? { ...item, instructor_review: { from: grades.get(item.question_id)?.result_status ?? overridden.from, reason: overridden.reason } } : item,
      );
    const { score, maxScore, pending } = scoreOf(log, this.options.weights);
    return {
      status: pending ? 'pending' : 'graded',
      score,
      maxScore,
      log: { evaluation_items: log },
      report,
      regrades: regrades.map(({ questionId, status }) => ({ questionId, status })),
    };
  }

  /** A student asks for one item to be graded again, with a comment: recorded once per item, then regraded in the background. */
  async requestRegrade(examId: string, classId: string, sessionId: string, questionId: number, comment: string): Promise<RegradeRequest> {
    const { exam, publication } = await this.forStudent(examId, classId, sessionId);
    await this.closeIfDue(exam, publication);
    if (!exam.problems.some((problem) => problem.id === questionId)) throw questionNotFound(questionId);
    // A regrade answers with the item's status: before the results are revealed it would reveal them early.
    const revealed = isSelfStudy(publication) ? (await this.repository.submissions(examId, sessionId)).all !== null : this.now() >= publication.deadline;
    if (!revealed) {
      throw new AppError(ErrorCode.EXAM_RESULT_NOT_READY, '결과가 공개된 뒤(시험이 끝난 뒤)에 재채점을 요청할 수 있습니다.');
    }
    const grades = await this.repository.grades(examId, sessionId);
    const current = grades.get(questionId);
    if (!current) {
      throw new AppError(ErrorCode.EXAM_RESULT_NOT_READY, '아직 채점되지 않은 문항입니다. 채점이 끝난 뒤에 재채점을 요청해 주세요.');
    }
    const request: RegradeRequest = { questionId, comment, at: this.now(), status: 'pending', from: current.result_status };
    if (!(await this.repository.requestRegrade(examId, sessionId, request))) {
      throw new AppError(ErrorCode.EXAM_REGRADE_EXISTS);
    }
    this.background(async () => {
      const regraded = await this.grading.regradeItem(exam, sessionId, questionId);
      // A failed regrade leaves the request pending for the instructor (never a default status).
      if (!regraded) return;
      await this.repository.updateRegrade(examId, sessionId, { ...request, status: 'done', to: regraded.result_status });
      await this.regraded(exam, sessionId);
    });
    return request;
  }

  // ---- results and overrides -------------------------------------------------------------------------------------

  async results(exam: ExamRecord): Promise<ExamResults> {
    const publication = await this.repository.publication(exam.examId);
    if (!publication) throw new AppError(ErrorCode.EXAM_NOT_PUBLISHED);
    await this.closeIfDue(exam, publication);
    // Every student's records in a few batched reads (not a round trip per student and record), then the nicknames
    // and the grading checks of all students at once.
    const sessionIds = await this.repository.students(exam.examId);
    const [records, nicknames] = await Promise.all([
      this.repository.studentRecords(exam.examId, sessionIds),
      Promise.all(sessionIds.map((sessionId) => this.options.roster.nickname(publication.classId, sessionId))),
    ]);
    await Promise.all(
      sessionIds.map((sessionId, index) => {
        const record = records[index]!;
        return record.submission.all === null ? undefined : this.healGrading(exam, publication.classId, sessionId, record.grading);
      }),
    );
    const students = sessionIds.map((sessionId, index): StudentResult => {
      const { submission, grades, overrides, regrades, report } = records[index]!;
      const nickname = nicknames[index] ?? null;
      return studentResult(
        exam,
        { sessionId, nickname: nickname ?? '', submittedAll: submission.all, submitted: submission.items, grades, overrides, regrades, report },
        this.options.weights,
      );
    });
    const started = new Set(students.map((student) => student.sessionId));
    // A student's own self-study exam is theirs alone: nobody else of the class is missing from it.
    const expected = publication.student === undefined ? await this.options.roster.students(publication.classId) : [];
    const absent = expected.filter((student) => !started.has(student.sessionId));
    // The teacher's list puts students with an item waiting for review first (stable otherwise).
    const waiting = (student: StudentResult) => (student.items.some((item) => item.result_status === 'Needs_Review') ? 0 : 1);
    const ordered = students.map((student, index) => ({ student, index })).sort((a, b) => waiting(a.student) - waiting(b.student) || a.index - b.index).map(({ student }) => student);
    return { examId: exam.examId, deadline: publication.deadline, closed: this.now() >= publication.deadline, students: ordered, items: itemSummaries(exam, ordered), absent };
  }

  /** The teacher's overrides of this exam as labelled data (teacher-decisions.ts). */
  teacherDecisions(exam: ExamRecord): Promise<TeacherDecision[]> {
    return teacherDecisions(this.repository, exam);
  }

  async resultsCsv(exam: ExamRecord): Promise<string> {
    const results = await this.results(exam);
    return examResultsCsv(exam, results.students, results.items, results.absent);
  }

  /** The instructor's override of one item's status, with a reason: the trail keeps every change. */
  async override(exam: ExamRecord, sessionId: string, questionId: number, status: ResultStatus, reason: string, by: string): Promise<{ item: ResultItem; audit: Awaited<ReturnType<ExamRepository['audit']>> }> {
    const item = await this.applyOverride(exam, sessionId, questionId, { status, reason, by });
    return { item, audit: (await this.repository.audit(exam.examId, sessionId)).filter((entry) => entry.questionId === questionId) };
  }

  /**
   * The one path of a teacher's decision on one answer, alone or with its group (answer-groups.ts): the override
   * and its audit entry, then a new revision of the student's result (report, profile, and `events.graded`, which
   * updates the student's open pages live).
   */
  async applyOverride(exam: ExamRecord, sessionId: string, questionId: number, decision: { status: ResultStatus; reason: string; by: string; group?: ExamOverride['group'] }): Promise<ResultItem> {
    if (!exam.problems.some((problem) => problem.id === questionId)) throw questionNotFound(questionId);
    const submission = await this.repository.submissions(exam.examId, sessionId);
    if (submission.items.size === 0) throw new AppError(ErrorCode.EXAM_STUDENT_NOT_FOUND, '이 시험을 제출한 학생을 찾을 수 없습니다.');
    const [grades, overrides] = await Promise.all([this.repository.grades(exam.examId, sessionId), this.repository.overrides(exam.examId, sessionId)]);
    const from = overrides.get(questionId)?.status ?? grades.get(questionId)?.result_status ?? 'Ungraded';
    const override: ExamOverride = { status: decision.status, reason: decision.reason, by: decision.by, at: this.now(), from, ...(decision.group === undefined ? {} : { group: decision.group }) };
    await this.repository.override(exam.examId, sessionId, questionId, override);
    await this.regraded(exam, sessionId);
    overrides.set(questionId, override);
    const item = resultItems(exam, { submitted: submission.items, grades, overrides }).find((candidate) => candidate.question_id === questionId);
    if (!item) throw questionNotFound(questionId);
    return item;
  }

  // ---- learner profiles ------------------------------------------------------------------------------------------

  /**
   * `Execute_Generator_PriorProfile`: the stored profile brought up to date with what lectern knows of the student
   * (the prior one when nothing is stored; not stored until an exam or a goal). `excludeExam`: the exam being fed
   * back, whose log the feedback agent adds itself.
   */
  async profile(classId: string, sessionId: string, options: { excludeExam?: string } = {}): Promise<LearnerProfile> {
    const stored = await this.repository.profile(classId, sessionId);
    const prior = this.options.priorProfile;
    if (!prior) return stored ?? neutralProfile(this.now());
    return this.priorFrom(stored, await this.signals(classId, sessionId), options.excludeExam);
  }

  /**
   * The class's aggregated learner profile (exam-mix.ts `classProfile`), the planner's input for an instructor's
   * exam for the class: over its first {@link CLASS_PROFILE_STUDENTS} students that lectern knows something of (a
   * stored profile, or a lecture verdict, quiz answer or exam); null when there is none. `students`: how many counted.
   */
  async classProfile(classId: string): Promise<{ profile: LearnerProfile | null; students: number }> {
    const profiles: LearnerProfile[] = [];
    for (const { sessionId } of (await this.options.roster.students(classId)).slice(0, CLASS_PROFILE_STUDENTS)) {
      const stored = await this.repository.profile(classId, sessionId);
      if (!this.options.priorProfile) {
        if (stored) profiles.push(stored);
        continue;
      }
      const signals = await this.signals(classId, sessionId);
      if (stored === null && signals.lectureVerdicts.length + signals.quizAnswers.length + signals.exams.length === 0) continue;
      profiles.push(this.priorFrom(stored, signals));
    }
    return { profile: classProfile(profiles, this.now()), students: profiles.length };
  }

  private priorFrom(stored: LearnerProfile | null, signals: LearnerSignals, excludeExam?: string): LearnerProfile {
    const prior = this.options.priorProfile;
    if (!prior) return stored ?? neutralProfile(this.now());
    const exams = signals.exams.filter((exam) => exam.examId !== excludeExam);
    // The exams' evidence comes back from their items as they count now (overrides and regrades included), never
    // from what an earlier grading wrote.
    return prior(stored && withoutExamEvidence(stored), 'short_answer', { ...signals, exams }, this.now());
  }

  /** Whether the session is a student of the class (on its roster, or with a stored profile). */
  async isStudent(classId: string, sessionId: string): Promise<boolean> {
    if ((await this.options.roster.nickname(classId, sessionId)) !== null) return true;
    return (await this.repository.profile(classId, sessionId)) !== null;
  }

  /** The instructor's learning goal for the student. */
  async setGoal(classId: string, sessionId: string, goal: { target_depth: TargetDepth; description: string }): Promise<LearnerProfile> {
    const current = await this.profile(classId, sessionId);
    const next: LearnerProfile = { ...current, learning_goal: { target_depth: goal.target_depth, description: goal.description }, updated_at: this.now() };
    await this.repository.saveProfile(classId, sessionId, next);
    return next;
  }

  /** LearnerSignals: the lecture's (verdicts, raised hands, quiz answers) and this student's earlier exams in the class. */
  async signals(classId: string, sessionId: string): Promise<LearnerSignals> {
    const base = (await this.options.signals?.(classId, sessionId)) ?? { lectureVerdicts: [], handTopics: [], quizAnswers: [] };
    const exams: LearnerSignals['exams'] = [];
    const examIds = (await this.visibleExams(classId, sessionId)).slice(0, 200).map(({ examId }) => examId).reverse();
    for (const examId of examIds) {
      const [grades, overrides] = await Promise.all([this.repository.grades(examId, sessionId), this.repository.overrides(examId, sessionId)]);
      if (grades.size === 0 && overrides.size === 0) continue;
      const items = [...grades.values()].map((item) => {
        const override = overrides.get(item.question_id);
        return override ? { ...item, result_status: override.status } : item;
      });
      exams.push({ examId, log: { evaluation_items: items.sort((a, b) => a.question_id - b.question_id) } });
    }
    return { ...base, exams };
  }

  /**
   * The class's exams this student may see, newest first: its timed and opened-as-self-study exams and the student's
   * own self-study ones. The class's index also holds every classmate's self-study exams, so a wide window of it is
   * read (one MGET of publications) before the student's are picked.
   */
  private async visibleExams(classId: string, sessionId: string): Promise<{ examId: string; publication: ExamPublication }[]> {
    const examIds = await this.repository.classExams(classId, CLASS_INDEX_WINDOW);
    const publications = await this.repository.publications(examIds);
    return examIds.flatMap((examId, index) => {
      const publication = publications[index];
      return publication && visibleTo(publication, classId, sessionId) ? [{ examId, publication }] : [];
    });
  }

  // ---- closing and the sweep -------------------------------------------------------------------------------------

  /**
   * Closes the exam when its deadline has passed: every student's drafts as saved are submitted (items submitted
   * earlier keep their first submission) and graded, each student once across nodes (the grading's claim).
   */
  async closeIfDue(exam: ExamRecord, publication: ExamPublication): Promise<void> {
    const now = this.now();
    if (now < publication.deadline) return;
    // The flag records the close once; a closer that died half way left the exam on `exams:open`, and the work is
    // idempotent (HSETNX submissions, a grading claimed once), so whoever sees it there finishes it.
    const first = await this.repository.claimClose(exam.examId, now);
    if (!first && !(await this.repository.isOpen(exam.examId))) return;
    for (const sessionId of await this.repository.students(exam.examId)) {
      // No draft is saved from here on (the flag above stops a student not listed yet): what is graded is the last
      // draft acknowledged.
      await this.repository.guardDrafts(exam.examId, sessionId, 'all', now);
      const drafts = await this.repository.drafts(exam.examId, sessionId);
      await this.repository.submitItems(exam.examId, sessionId, new Map(exam.problems.map((problem) => [problem.id, drafts.get(problem.id)?.text ?? ''])), publication.deadline);
      await this.repository.submitAll(exam.examId, sessionId, publication.deadline);
      await this.startGrading(exam, publication.classId, sessionId);
      await this.publishProgress(exam, publication, sessionId);
    }
    await this.repository.forgetOpen(exam.examId);
    this.options.events?.closed(publication.classId, { examId: exam.examId, deadline: publication.deadline });
  }

  /** One pass: close the exams past their deadline, and retry the gradings that are due (one node at a time). */
  async sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    const { repository } = this.options;
    for (const examId of await repository.dueToClose(this.now())) {
      const [exam, publication] = await Promise.all([repository.get(examId), repository.publication(examId)]);
      if (!exam || !publication) {
        await repository.forgetOpen(examId);
        continue;
      }
      await this.closeIfDue(exam, publication);
    }
    await this.checkGradingExams();
    // Every node looks at the due gradings; the student's lease lets one run work at a time, and a run whose node
    // died is taken over once its lease lapsed.
    const found = new Map<string, { exam: ExamRecord; publication: ExamPublication } | null>();
    for (const { examId, sessionId } of await repository.duePending(this.now(), PENDING_WINDOW)) {
      if (!found.has(examId)) {
        const [exam, publication] = await Promise.all([repository.get(examId), repository.publication(examId)]);
        found.set(examId, exam && publication ? { exam, publication } : null);
      }
      const held = found.get(examId);
      if (!held) {
        await repository.unschedule(examId, sessionId);
        continue;
      }
      this.runGrading(held.exam, held.publication.classId, sessionId);
    }
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => {
      this.sweep().catch((error: unknown) => this.options.logger.warn({ err: error }, 'exam sweep failed'));
    }, this.options.sweepMs);
    this.timer.unref();
  }

  /** Stops the sweep and waits for the grading under way on this node (what is left, another node's sweep finishes). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
    await this.sweeping?.catch(() => {});
    await Promise.allSettled([...this.inflight]);
  }

  /** Resolves when the background work started so far (grading, regrades) has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.inflight.size > 0 || this.queue.length > 0) await Promise.allSettled([...this.inflight]);
  }

  // ---- internals -------------------------------------------------------------------------------------------------

  /**
   * Puts the student's grading on the pending list — first, so that a node dying from here on leaves the student
   * to the sweep — and runs it on this node in the background.
   */
  private async startGrading(exam: ExamRecord, classId: string, sessionId: string): Promise<void> {
    await this.repository.schedule(exam.examId, sessionId, this.now());
    await this.repository.noteGradingExam(exam.examId, this.now() + this.backstopMs);
    this.runGrading(exam, classId, sessionId);
  }

  /**
   * The sweep's backstop: exams whose gradings started a while ago are checked student by student; one who
   * submitted as a whole, is not finished and is on no pending list is put back. An exam with every student finished
   * leaves the list; one with students still working is checked again later.
   */
  private async checkGradingExams(): Promise<void> {
    const { repository } = this.options;
    for (const examId of await repository.gradingExamsDue(this.now())) {
      const [exam, publication] = await Promise.all([repository.get(examId), repository.publication(examId)]);
      if (!exam || !publication) {
        await repository.forgetGradingExam(examId);
        continue;
      }
      let unfinished = 0;
      for (const sessionId of await repository.students(examId)) {
        if ((await repository.submissions(examId, sessionId)).all === null) continue;
        if (this.grading.finished(await repository.gradingState(examId, sessionId))) continue;
        unfinished += 1;
        if (!(await repository.isScheduled(examId, sessionId))) await this.startGrading(exam, publication.classId, sessionId);
      }
      if (unfinished === 0) await repository.forgetGradingExam(examId);
      else await repository.noteGradingExam(examId, this.now() + this.backstopMs);
    }
  }

  /** One run of the student's grading on this node at a time (a run already queued or working here is enough). */
  private runGrading(exam: ExamRecord, classId: string, sessionId: string): void {
    const key = `${exam.examId}|${sessionId}`;
    if (this.gradingHere.has(key) || this.stopped) return;
    this.gradingHere.add(key);
    this.background(() => this.grading.run(exam, classId, sessionId).finally(() => this.gradingHere.delete(key)));
  }

  /**
   * A student who submitted as a whole, whose grading is unfinished and on no list (left so by a node that died
   * between two writes, or by an older version): put back on the list and graded.
   */
  private async healGrading(exam: ExamRecord, classId: string, sessionId: string, known?: GradingState): Promise<void> {
    const state = known ?? (await this.repository.gradingState(exam.examId, sessionId));
    if (this.grading.finished(state) || (await this.repository.isScheduled(exam.examId, sessionId))) return;
    await this.startGrading(exam, classId, sessionId);
  }

  /** A change after grading (an override, a regrade): report, profile and events are redone on the new statuses. */
  private async regraded(exam: ExamRecord, sessionId: string): Promise<void> {
    const publication = await this.repository.publication(exam.examId);
    if (!publication) return;
    await this.repository.bumpRevision(exam.examId, sessionId);
    if ((await this.repository.submissions(exam.examId, sessionId)).all !== null) await this.startGrading(exam, publication.classId, sessionId);
  }

  private async forStudent(examId: string, classId: string, sessionId: string): Promise<{ exam: ExamRecord; publication: ExamPublication }> {
    const [exam, publication] = await Promise.all([this.repository.get(examId), this.repository.publication(examId)]);
    // Not published to the student's class (or another student's self-study exam): 404 like a missing one.
    if (!exam || !publication || !visibleTo(publication, classId, sessionId)) throw notFound();
    return { exam, publication };
  }

  private async refuseAfterDeadline(exam: ExamRecord, publication: ExamPublication): Promise<void> {
    if (this.now() < publication.deadline) return;
    await this.closeIfDue(exam, publication);
    throw closed();
  }

  private answerIds(exam: ExamRecord, ids: readonly string[]): number[] {
    return ids.map((raw) => {
      const id = Number(raw);
      if (!exam.problems.some((problem) => problem.id === id)) throw questionNotFound(Number.isFinite(id) ? id : 0);
      return id;
    });
  }

  private async publishProgress(exam: ExamRecord, publication: ExamPublication, sessionId: string): Promise<void> {
    const events = this.options.events;
    if (!events) return;
    const { graded: _graded, ...progress } = await this.progressOf(exam, publication, sessionId);
    events.progress(publication.classId, progress);
  }

  /**
   * A student's progress as the monitor shows it: items answered — with a non-blank text, the submitted one once the
   * item is submitted, else its draft (a blank or never-written item is submitted too, empty, and is not answered) —
   * never the text.
   */
  private async progressOf(exam: ExamRecord, publication: ExamPublication, sessionId: string): Promise<ExamProgressRow> {
    const [drafts, { items, all }, nickname, grading] = await Promise.all([
      this.repository.drafts(exam.examId, sessionId),
      this.repository.submissions(exam.examId, sessionId),
      this.options.roster.nickname(publication.classId, sessionId),
      this.repository.gradingState(exam.examId, sessionId),
    ]);
    const answered = exam.problems.filter((problem) => ((items.get(problem.id) ?? drafts.get(problem.id))?.text.trim() ?? '') !== '').length;
    return {
      examId: exam.examId,
      sessionId,
      nickname: nickname ?? '',
      answered,
      total: exam.problems.length,
      submittedAll: all !== null,
      deadline: publication.deadline,
      graded: grading.state === 'graded',
    };
  }

  /**
   * Every student's progress now (the monitor's table after a reload; the live events update it from there). Like
   * the events, no answer text.
   */
  async progress(exam: ExamRecord): Promise<{ examId: string; deadline: number; serverNow: number; students: ExamProgressRow[] }> {
    const publication = await this.repository.publication(exam.examId);
    if (!publication) throw new AppError(ErrorCode.EXAM_NOT_PUBLISHED);
    await this.closeIfDue(exam, publication);
    const students = await Promise.all((await this.repository.students(exam.examId)).map((sessionId) => this.progressOf(exam, publication, sessionId)));
    return { examId: exam.examId, deadline: publication.deadline, serverNow: this.now(), students };
  }

  /** Runs background work with a bounded number at once on this node; failures are logged (the sweep retries). */
  private background(work: () => Promise<void>): void {
    if (this.stopped) return;
    this.queue.push(work);
    this.pump();
  }

  private pump(): void {
    while (this.running < GRADING_CONCURRENCY && this.queue.length > 0) {
      const work = this.queue.shift();
      if (!work) return;
      this.running += 1;
      const promise: Promise<void> = work()
        .catch((error: unknown) => this.options.logger.warn({ err: error }, 'exam background work failed; the sweep retries it'))
        .finally(() => {
          this.running -= 1;
          this.inflight.delete(promise);
          this.pump();
        });
      this.inflight.add(promise);
    }
  }
}
