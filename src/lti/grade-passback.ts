import { isAppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { Store } from '../store/index.js';
import type { CourseRepository, GradeState } from './course-repository.js';
import { gradeHold, HOLD_MESSAGES } from './grade-rules.js';
import type { PlatformClient } from './platform-client.js';
import type { PlatformRepository } from './platform-repository.js';
import { ltiKeys } from './lti-keys.js';

/**
 * Assignment and Grade Services passback: a student's exam score goes to the course's gradebook as a score on the
 * exam's line item (one per exam; the student's own self-study exams share one), after grading and again after an
 * override or a regrade.
 *
 * The exams tell this sender through one hook, {@link GradePassback.resultChanged}: it queues the student on
 * `lti:grades:pending` (durable), and one node at a time (lease `lti:grades:lease`) sends what is due. The score is
 * read at sending time, so the newest result is what goes; a result that changes while a send is under way is
 * queued again (the queue's score moved), so it is sent once more. A failure is retried with a doubling wait
 * (`retryMs`, 2×, 4×…) until `maxAttempts`, then the state is `failed` until someone asks again; every state is shown
 * on the host page. Nothing is sent while {@link gradeHold} holds the result back.
 */

/** A student's result as the sender needs it; the exams' side computes it (app.ts). */
export interface StudentScore {
  score: number;
  maxScore: number;
  items: readonly { result_status: string }[];
  /** The gradebook column: its key among the class's line items, label and AGS resource id. */
  lineItem: { key: string; label: string; resourceId: string };
}

export interface GradePassbackOptions {
  store: Store;
  courses: CourseRepository;
  platforms: PlatformRepository;
  client: PlatformClient;
  /** The current result of a student's exam; null when the exam or the student's data is gone. */
  scoreOf(examId: string, sessionId: string): Promise<StudentScore | null>;
  nodeId: string;
  now: () => number;
  retryMs: number;
  maxAttempts: number;
  /** How often every node looks at the queue (the lease holder sends). */
  sweepMs: number;
  logger: Logger;
}

export class GradePassback {
  private timer: NodeJS.Timeout | undefined;
  private readonly inflight = new Set<Promise<void>>();
  private sending: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: GradePassbackOptions) {}

  /**
   * The hook the exams call when a student's result becomes final or changes (graded, overridden, regraded): queues
   * the score for the course's gradebook when the class is an LMS course's and the session an LMS user's. Sends at
   * once on this node when it can take the lease.
   */
  resultChanged(classId: string, examId: string, sessionId: string): Promise<void> {
    const work = this.queue(classId, examId, sessionId).finally(() => this.inflight.delete(work));
    this.inflight.add(work);
    return work;
  }

  /** Resolves when the changes heard so far are queued and the pass they started has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
    await this.sending?.catch(() => {});
  }

  private async queue(classId: string, examId: string, sessionId: string): Promise<void> {
    const { courses, now } = this.options;
    if (!(await courses.course(classId)) || !(await courses.memberOfSession(classId, sessionId))) return;
    const previous = await courses.gradeState(classId, examId, sessionId);
    await courses.saveGradeState(classId, examId, sessionId, { ...keep(previous), state: 'waiting', attempts: 0, updatedAt: now() });
    await courses.schedule(classId, examId, sessionId, now());
    this.kick();
  }

  /** Queues again the scores of an exam that failed or were held (the host page's 다시 보내기). Answers how many. */
  async retry(classId: string, examId: string): Promise<number> {
    const { courses, now } = this.options;
    let count = 0;
    for (const [sessionId, state] of await courses.gradeStates(classId, examId)) {
      if (state.state !== 'failed' && state.state !== 'held') continue;
      await courses.saveGradeState(classId, examId, sessionId, { ...state, state: 'waiting', attempts: 0, updatedAt: now() });
      await courses.schedule(classId, examId, sessionId, now());
      count += 1;
    }
    if (count > 0) this.kick();
    return count;
  }

  /** One pass over what is due, by the lease holder only. Resolves when it is done (tests await it). */
  sendDue(): Promise<void> {
    this.sending ??= this.sendOnce().finally(() => {
      this.sending = undefined;
    });
    return this.sending;
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.kick(), this.options.sweepMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.settled();
  }

  private kick(): void {
    if (this.stopped) return;
    this.sendDue().catch((error: unknown) => this.options.logger.warn({ err: error }, 'lti grade passback pass failed'));
  }

  private async sendOnce(): Promise<void> {
    const { store, courses, nodeId, now } = this.options;
    // Nothing due (the usual case): no lease is taken, so an idle deployment writes nothing.
    if ((await courses.due(now(), 1)).length === 0) return;
    const leaseMs = Math.max(30_000, this.options.sweepMs * 4);
    if (!(await store.acquireLease(ltiKeys.ltiGradesLease(), nodeId, leaseMs))) return;
    try {
      for (const entry of await courses.due(now(), 50)) {
        const picked = await store.zscore(ltiKeys.ltiGradesPending(), `${entry.classId}|${entry.examId}|${entry.sessionId}`);
        if (picked === null) continue;
        const state = await this.sendOne(entry.classId, entry.examId, entry.sessionId);
        // A change queued meanwhile moved the entry's time: leave it for the next pass.
        const current = await store.zscore(ltiKeys.ltiGradesPending(), `${entry.classId}|${entry.examId}|${entry.sessionId}`);
        if (current !== picked) continue;
        if (state.state === 'waiting' && state.nextAt !== undefined) await courses.schedule(entry.classId, entry.examId, entry.sessionId, state.nextAt);
        else await courses.unschedule(entry.classId, entry.examId, entry.sessionId);
      }
    } finally {
      await store.releaseLease(ltiKeys.ltiGradesLease(), nodeId);
    }
  }

  /** Sends one student's score (or records why not) and answers the state written. */
  private async sendOne(classId: string, examId: string, sessionId: string): Promise<GradeState> {
    const { courses, platforms, client, now, logger } = this.options;
    const previous = await courses.gradeState(classId, examId, sessionId);
    const attempts = (previous?.attempts ?? 0) + 1;
    const write = async (state: GradeState) => {
      await courses.saveGradeState(classId, examId, sessionId, state);
      return state;
    };
    const finalFailure = (message: string) => write({ ...keep(previous), state: 'failed', attempts, lastError: message, updatedAt: now() });

    const [course, member, result] = await Promise.all([courses.course(classId), courses.memberOfSession(classId, sessionId), this.options.scoreOf(examId, sessionId)]);
    if (!course || !member) return finalFailure('이 수업은 더 이상 LMS 강좌와 연결되어 있지 않습니다.');
    if (!result) return finalFailure('시험 또는 학생의 답안이 삭제되었습니다.');
    const hold = gradeHold(result.items);
    if (hold) return write({ ...keep(previous), state: 'held', attempts: 0, reason: HOLD_MESSAGES[hold], updatedAt: now() });
    const platform = await platforms.get(course.platformId);
    if (!platform) return finalFailure('이 강좌의 LMS 등록이 삭제되었습니다.');
    if (!course.lineItemsUrl) return finalFailure('LMS가 이 강좌의 성적 서비스(AGS) 주소를 주지 않았습니다. LMS 도구 설정에서 성적 전송을 켜 주세요.');

    try {
      let lineItemUrl = await courses.lineItem(classId, result.lineItem.key);
      if (lineItemUrl === null) {
        const found = await client.lineItems(platform, course.lineItemsUrl, result.lineItem.resourceId);
        const item =
          found[0] ??
          (await client.createLineItem(platform, course.lineItemsUrl, {
            label: result.lineItem.label,
            scoreMaximum: result.maxScore,
            resourceId: result.lineItem.resourceId,
            tag: 'lectern',
          }));
        lineItemUrl = item.id;
        await courses.saveLineItem(classId, result.lineItem.key, lineItemUrl);
      }
      await client.postScore(platform, lineItemUrl, {
        userId: member.userId,
        scoreGiven: result.score,
        scoreMaximum: result.maxScore,
        timestamp: new Date(now()).toISOString(),
      });
    } catch (error) {
      const message = isAppError(error) ? error.message : 'LMS에 점수를 보내지 못했습니다.';
      if (!isAppError(error)) logger.warn({ err: error, classId, examId }, 'lti grade passback failed unexpectedly');
      if (attempts >= this.options.maxAttempts) return finalFailure(message);
      const nextAt = now() + this.options.retryMs * 2 ** (attempts - 1);
      return write({ ...keep(previous), state: 'waiting', attempts, lastError: message, nextAt, updatedAt: now() });
    }
    return write({ state: 'sent', attempts, score: result.score, maxScore: result.maxScore, sentAt: now(), updatedAt: now() });
  }
}

/** What a new state keeps of the previous one: the score last sent (the host page shows it until a new one goes). */
function keep(previous: GradeState | null): Pick<GradeState, 'score' | 'maxScore' | 'sentAt'> {
  if (!previous) return {};
  return {
    ...(previous.score === undefined ? {} : { score: previous.score }),
    ...(previous.maxScore === undefined ? {} : { maxScore: previous.maxScore }),
    ...(previous.sentAt === undefined ? {} : { sentAt: previous.sentAt }),
  };
}
