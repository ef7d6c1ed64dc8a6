import { AppError } from '../kernel/index.js';
import type { ActivityObserver, SessionActivity } from '../lecture/index.js';
import type { Logger } from '../kernel/index.js';
import type { HandServerEvents, MonitorServerEvents } from '../protocol/classroom.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { TutorEvent } from '../protocol/wire/tutor.js';
import type { ClassRepository } from './class-repository.js';
import { rosterProgress, sameProgress, type Progress } from './roster-progress.js';

/**
 * Where monitor events go. The socket.io implementation (realtime/monitor-namespace.ts) emits through the adapter,
 * so an instructor on one node sees students on every node.
 */
export interface MonitorPort {
  toInstructors<K extends keyof MonitorServerEvents>(classId: string, event: K, payload: MonitorServerEvents[K]): void;
  toStudents<K extends keyof HandServerEvents>(classId: string, event: K, payload: HandServerEvents[K]): void;
  toSession<K extends keyof HandServerEvents>(sessionId: string, event: K, payload: HandServerEvents[K]): void;
}

export interface ClassMonitorOptions {
  repository: ClassRepository;
  /** Chapter lists, for percent (MaterialService satisfies it). */
  materials: { get(id: string): Promise<{ chapters: readonly { index: number }[] } | null> };
  logger: Logger;
  now?: () => number;
  /** At most one `student:progress` (and one progress write) per student per this many ms. */
  progressIntervalMs?: number;
}

export interface StudentRef {
  id: string;
  classId: string;
}

/** What this node knows of a student whose session (or socket) it holds; loaded from the roster on first use. */
interface Tracker {
  classId: string;
  sessionId: string;
  /** Serialises the student's store writes and emits, so the instructor sees them in the order they happened. */
  queue: Promise<void>;
  /** false when the session is not on the class roster: then it is ignored. */
  ready: Promise<boolean>;
  /** `ready`'s value once known. */
  onRoster: boolean | undefined;
  badStreak: number;
  hand: { raisedAt: number; question: string | null } | null;
  current: Progress;
  published: Progress;
  timer: NodeJS.Timeout | undefined;
  sockets: number;
}

/**
 * The instructor's live feed. As the lecture's ActivityObserver it turns session events of class members (with the
 * `SessionActivity` the lecture publishes, never its private session state) into roster writes and compact `/monitor` events; the tutor namespace reports sockets coming and going. Progress is throttled
 * per student (leading and trailing edge: the first change goes at once, the last one is never lost), and lecture
 * deltas cost one comparison, never a store write.
 */
export class ClassMonitor implements ActivityObserver {
  private port: MonitorPort | undefined;
  private readonly trackers = new Map<string, Tracker>();
  private readonly chapters = new Map<string, Promise<number[]>>();
  private readonly now: () => number;
  private readonly interval: number;
  private closed = false;

  constructor(private readonly options: ClassMonitorOptions) {
    this.now = options.now ?? Date.now;
    this.interval = options.progressIntervalMs ?? 1_000;
  }

  /** Connects the monitor to socket.io once the server exists; events before that are dropped (nobody watches). */
  attach(port: MonitorPort): void {
    this.port = port;
  }

  onActivity(activity: SessionActivity, event: TutorEvent): void {
    const classId = activity.classId;
    if (!classId) return;
    const known = this.trackers.get(activity.sessionId);
    if (known?.onRoster === false) return;
    // The hot path: a delta while streaming the chapter we already report changes nothing.
    if (event.event === 'lecture:delta' && known?.current.state === 'streaming' && known.current.chapter === activity.chapter) return;
    const tracker = known ?? this.track(classId, activity.sessionId);
    this.enqueue(tracker, async () => {
      await this.handle(tracker, event);
      await this.progressed(tracker, await this.progressOf(activity, tracker.current));
    });
  }

  studentConnected(student: StudentRef): void {
    const tracker = this.track(student.classId, student.id);
    tracker.sockets += 1;
    this.enqueue(tracker, async () => {
      await this.options.repository.addSockets(student.classId, student.id, 1);
      const entry = await this.options.repository.student(student.classId, student.id);
      // Sent on every connect: pages upsert by sessionId, and a stale count (a crashed node) cannot hide a student.
      if (entry) this.port?.toInstructors(student.classId, 'student:joined', { student: entry });
    });
  }

  studentDisconnected(student: StudentRef): void {
    const tracker = this.track(student.classId, student.id);
    tracker.sockets -= 1;
    this.enqueue(tracker, async () => {
      const count = await this.options.repository.addSockets(student.classId, student.id, -1);
      if (count > 0) return;
      if (count < 0) await this.options.repository.addSockets(student.classId, student.id, 1);
      // Counts are per node: the student may still have a socket on another (living) node.
      if ((await this.options.repository.student(student.classId, student.id))?.connected) return;
      this.port?.toInstructors(student.classId, 'student:left', { sessionId: student.id });
    });
  }

  /** A student was added to the roster (joined the class over HTTP): instructors see them at once, not connected yet. */
  async studentJoined(classId: string, sessionId: string): Promise<void> {
    const entry = await this.options.repository.student(classId, sessionId);
    if (entry) this.port?.toInstructors(classId, 'student:joined', { student: entry });
  }

  /** `class:announce`: every student socket of the class, on every node. */
  /** A quiz room of the class changed phase: the instructor's room list updates live. */
  quizRoomChanged(classId: string, room: { roomId: string; code: string; phase: string; playerCount: number }): void {
    this.port?.toInstructors(classId, 'quiz:room', { ...room, at: Date.now() });
  }

  /**
   * A student of the class answered a self-study item for the first time: counted on the roster and
   * sent to the class's instructors as `student:self-quiz`. A session not on the roster is ignored.
   */
  async selfQuizAnswered(classId: string, sessionId: string, correct: boolean): Promise<void> {
    const score = await this.options.repository.countSelfQuiz(classId, sessionId, correct);
    if (score) this.port?.toInstructors(classId, 'student:self-quiz', { sessionId, ...score });
  }

  /** A student's progress in a live exam: answered and submitted counts, never the answers. */
  examProgress(classId: string, payload: MonitorServerEvents['exam:progress']): void {
    this.port?.toInstructors(classId, 'exam:progress', payload);
  }

  /** A student's exam grading finished (or their result changed): the monitor, and the student's own pages. */
  examGraded(classId: string, payload: MonitorServerEvents['exam:graded']): void {
    this.port?.toInstructors(classId, 'exam:graded', payload);
    this.port?.toSession(payload.sessionId, 'exam:result', { examId: payload.examId });
  }

  /** A live exam closed: every open sheet of the class locks and shows the result. */
  examClosed(classId: string, payload: HandServerEvents['exam:closed']): void {
    this.port?.toStudents(classId, 'exam:closed', payload);
  }

  announce(classId: string, text: string): { at: number } {
    const at = this.now();
    this.port?.toStudents(classId, 'class:announcement', { text, at });
    return { at };
  }

  /** The class was closed: students of the class (every node) and its instructors hear it. */
  classClosed(classId: string, closedAt: number): void {
    this.port?.toStudents(classId, 'class:closed', { at: closedAt });
    this.port?.toInstructors(classId, 'class:closed', { closedAt });
  }

  codeRotated(classId: string, code: string): void {
    this.port?.toInstructors(classId, 'class:code', { code });
  }

  handAnswered(classId: string, sessionId: string, text: string, at: number): void {
    this.port?.toInstructors(classId, 'hand:answered', { sessionId, text, at });
  }

  /** `hand:acknowledge`: only for a student of the instructor's own class whose hand is up. */
  async acknowledge(classId: string, sessionId: string): Promise<{ at: number }> {
    const { repository } = this.options;
    // One answer for "not in your class" and "no such session", so an instructor cannot probe other classes.
    if (!(await repository.isStudent(classId, sessionId))) {
      throw new AppError(ErrorCode.FORBIDDEN, '이 수업의 학생이 아닙니다.');
    }
    const entry = await repository.student(classId, sessionId);
    if (!entry?.hand) throw new AppError(ErrorCode.HAND_NOT_RAISED, '이 학생은 손을 들고 있지 않습니다.');
    await repository.update(classId, sessionId, { handAcknowledged: true });
    const at = this.now();
    this.port?.toSession(sessionId, 'hand:acknowledged', { at });
    this.port?.toInstructors(classId, 'hand:acknowledged', { sessionId, at });
    return { at };
  }

  /** Writes and sends every throttled progress still waiting, then forgets everything. */
  async close(): Promise<void> {
    this.closed = true;
    const trackers = [...this.trackers.values()];
    for (const tracker of trackers) {
      if (tracker.timer) {
        clearTimeout(tracker.timer);
        tracker.timer = undefined;
        this.enqueue(tracker, () => this.publishProgress(tracker));
      }
    }
    await Promise.all(trackers.map((tracker) => tracker.queue));
    this.trackers.clear();
  }

  // ---- internals ------------------------------------------------------------------------------------------------

  private track(classId: string, sessionId: string): Tracker {
    const existing = this.trackers.get(sessionId);
    if (existing) return existing;
    const initial: Progress = { chapter: -1, percent: 0, state: 'idle' };
    const tracker: Tracker = {
      classId,
      sessionId,
      queue: Promise.resolve(),
      ready: Promise.resolve(false),
      onRoster: undefined,
      badStreak: 0,
      hand: null,
      current: initial,
      published: initial,
      timer: undefined,
      sockets: 0,
    };
    // Another node may have driven this session before (failover): continue from what the roster says.
    tracker.ready = this.options.repository.student(classId, sessionId).then((entry) => {
      tracker.onRoster = entry !== null;
      if (!entry) return false;
      tracker.badStreak = entry.badStreak;
      tracker.hand = entry.hand ? { raisedAt: entry.hand.raisedAt, question: entry.hand.question } : null;
      tracker.current = { chapter: entry.chapter, percent: entry.percent, state: entry.state };
      tracker.published = tracker.current;
      return true;
    });
    this.trackers.set(sessionId, tracker);
    return tracker;
  }

  private enqueue(tracker: Tracker, task: () => Promise<void>): void {
    tracker.queue = tracker.queue
      .then(async () => {
        if (await tracker.ready) await task();
      })
      .catch((error: unknown) => this.options.logger.warn({ err: error, sessionId: tracker.sessionId }, 'monitor update failed'))
      .finally(() => this.forgetIfIdle(tracker));
  }

  /** A tracker lives while this node holds a socket of the student or still owes the instructor a progress event. */
  private forgetIfIdle(tracker: Tracker): void {
    if (tracker.sockets <= 0 && tracker.timer === undefined && this.trackers.get(tracker.sessionId) === tracker) {
      this.trackers.delete(tracker.sessionId);
    }
  }

  private async handle(tracker: Tracker, event: TutorEvent): Promise<void> {
    const { repository } = this.options;
    const { classId, sessionId } = tracker;
    if (event.event === 'tutor:verdict') {
      const { questionId, verdict } = event.payload;
      tracker.badStreak = verdict === 'bad' ? tracker.badStreak + 1 : 0;
      await repository.update(classId, sessionId, { lastVerdict: verdict, badStreak: tracker.badStreak });
      this.port?.toInstructors(classId, 'student:answered', { sessionId, questionId, verdict, badStreak: tracker.badStreak });
      return;
    }
    if (event.event === 'tutor:subquestion') {
      const { concept, index, total } = event.payload;
      this.port?.toInstructors(classId, 'student:remediation', { sessionId, concept, index, total });
      return;
    }
    if (event.event === 'assistant:prompt' || event.event === 'hand:asked') {
      // The prompt raises the hand; the question it asks for arrives with hand:asked (a repeated prompt keeps both).
      const question = event.event === 'hand:asked' ? event.payload.text : null;
      const fresh = tracker.hand === null;
      const hand = tracker.hand ?? { raisedAt: this.now(), question: null };
      if (question !== null) hand.question = question;
      tracker.hand = hand;
      await repository.update(classId, sessionId, {
        handRaisedAt: hand.raisedAt,
        ...(fresh ? { handAcknowledged: false, handAnswered: false } : {}),
        ...(question !== null ? { handQuestion: question } : {}),
      });
      this.port?.toInstructors(classId, 'hand:raised', {
        sessionId,
        raisedAt: hand.raisedAt,
        ...(hand.question !== null ? { question: hand.question } : {}),
      });
    } else if (event.event === 'hand:closed') {
      tracker.hand = null;
      await repository.clearHand(classId, sessionId);
      this.port?.toInstructors(classId, 'hand:resolved', { sessionId, kind: event.payload.kind });
    }
  }

  private async progressOf(activity: SessionActivity, previous: Progress): Promise<Progress> {
    const needsChapters = activity.state !== 'finished' && activity.chapter !== undefined;
    return rosterProgress(needsChapters ? await this.chapterIndexes(activity.materialId) : [], activity, previous);
  }

  private chapterIndexes(materialId: string): Promise<number[]> {
    let cached = this.chapters.get(materialId);
    if (!cached) {
      cached = this.options.materials.get(materialId).then((material) => material?.chapters.map((chapter) => chapter.index) ?? []);
      // A failed read is retried next time rather than cached.
      cached.catch(() => this.chapters.delete(materialId));
      this.chapters.set(materialId, cached);
    }
    return cached;
  }

  /**
   * Records the latest progress. Outside a throttle window it is published at once and opens a window; inside one
   * it waits for the window's end, which publishes whatever is latest then (so the last change is never lost).
   */
  private async progressed(tracker: Tracker, next: Progress): Promise<void> {
    tracker.current = next;
    if (tracker.timer || sameProgress(next, tracker.published)) return;
    await this.publishProgress(tracker);
  }

  private openWindow(tracker: Tracker): void {
    if (this.closed) return;
    tracker.timer = setTimeout(() => {
      tracker.timer = undefined;
      this.enqueue(tracker, () => this.publishProgress(tracker));
    }, this.interval);
    tracker.timer.unref();
  }

  private async publishProgress(tracker: Tracker): Promise<void> {
    const progress = tracker.current;
    if (sameProgress(progress, tracker.published)) return;
    tracker.published = progress;
    this.openWindow(tracker);
    await this.options.repository.update(tracker.classId, tracker.sessionId, progress);
    this.port?.toInstructors(tracker.classId, 'student:progress', { sessionId: tracker.sessionId, ...progress });
  }
}
