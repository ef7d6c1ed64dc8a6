import { AppError, StoreUnavailableError, toWireError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { TextStream } from '../llm/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { ReplyKind, ReplySource, SelfAssessment, TranscriptItem, TutorEvent, Verdict } from '../protocol/wire/tutor.js';
import type { FeedHub } from './chapter-feed.js';
import type { LectureGenerator, LectureMaterial } from './lecture-generator.js';
import { displayText, LectureView } from './lecture-view.js';
import { createPacer, type Pacer, type PacerEmitMeta, type PacerScheduler } from './pacer.js';
import type { QaTutor } from './qa-tutor.js';
import { acceptsAsk, acceptsReply, onAsk, onReply, startDialogue } from './hand/hand-dialogue.js';
import type { SourcedTextStream, StudentAssistant } from './hand/student-assistant.js';
import { runHandStep, type HandHost, type HandRaised, type ReplyOptions } from './hand/hand-steps.js';
import { Interrupts } from './interrupts.js';
import { SessionOutbox } from './session-outbox.js';
import type { SessionPort } from './session-port.js';
import { replayOrSnapshot, sendSnapshot, type ResumeHost } from './session-resume.js';
import { waitForStore } from './store-recovery.js';
import type { SessionProfile, SessionRecord, SessionRepository } from './session-repository.js';
import {
  afterHand,
  isActive,
  pendingQuestionId,
  questionId,
  subquestionId,
  type ActiveState,
  type PendingQuestion,
  type SessionState,
} from './session-state.js';
import { runTutoringStep, selfAssess, type TutoringHost } from './tutoring-steps.js';
import type { Store } from '../store/index.js';

export type { SessionPort };

/** Progress facts for observers (the instructor's monitor); called after the fact is persisted. */
export interface SessionObserver {
  onEvent?(session: SessionProfile, event: TutorEvent, state: SessionState): void;
}

export interface SessionActorDeps {
  store: Store;
  repository: SessionRepository;
  generator: LectureGenerator;
  feeds: FeedHub;
  tutor: QaTutor;
  assistant: StudentAssistant;
  material: LectureMaterial;
  scheduler: PacerScheduler;
  pacerWindowMs?: number;
  logger: Logger;
  port: SessionPort;
  observer?: SessionObserver;
  /** Called when a lecture delta is emitted, with the pacer's timing (benchmarks measure lateness with it). */
  onDelta?: (meta: PacerEmitMeta) => void;
}

type Target =
  | { kind: 'lecture'; chapter: number; pieces: { start: number; length: number }[] }
  | { kind: 'reply'; replyId: string; replyKind: ReplyKind; text: string; chapter: number; at: number };

/** what a student sees when the class's account has spent its model budget for the day (MODEL_DAILY_TOKENS). */
const CLASS_BUDGET_SPENT = '이 수업이 오늘 쓸 수 있는 AI 사용량을 모두 사용했습니다. 내일 다시 이어서 들을 수 있습니다. 선생님께 알려 주세요.';

/**
 * Drives one student's session on this node: the lecture stream, questions, the Q&A tutor's verdicts,
 * subconcept remediation and replies. Every transition is written to the store before its events are emitted,
 * and every event is logged with its seq before it is emitted, so a reconnecting client (on any node) can be
 * replayed or snapshotted to exactly where it was.
 *
 * Concurrency model: all writes and emits go through one promise queue, the outbox (order = seq order). The drive
 * loop runs one step at a time; external commands (pause, detach) interrupt the current epoch (Interrupts), which
 * makes a running step stop at its next check without writing anything further. The steps (hand-steps.ts,
 * tutoring-steps.ts) get those two objects, not callbacks into the actor.
 */
export class SessionActor {
  private readonly pacer: Pacer;
  private target: Target | undefined;
  /** Every write and emit, in one order; numbers the events (see SessionOutbox). */
  private readonly outbox: SessionOutbox;
  /** The epochs that pause, raise-hand, close and store outages interrupt (see Interrupts). */
  private readonly interrupts: Interrupts;
  private driving: Promise<void> | undefined;
  private kicked = false;
  /** A raise-hand step failed and was reported; lecture:resume retries it. */
  private handStepFailed = false;
  private closed = false;
  /** No socket is attached (or none has caught up yet): the display holds, work in flight goes on. */
  private suspended = true;
  /** The student paused while a reply streams: its display holds while it keeps generating. */
  private replyHeld = false;
  private readonly view: LectureView;
  /** Instructor replies are delivered one batch at a time (see deliverInstructorReplies). */
  private delivering: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: SessionActorDeps,
    private readonly record: SessionRecord,
  ) {
    this.pacer = createPacer({
      scheduler: deps.scheduler,
      speed: record.speed,
      ...(deps.pacerWindowMs ? { windowMs: deps.pacerWindowMs } : {}),
      emit: (text, meta) => this.onPacerEmit(text, meta),
    });
    this.pacer.pause();
    this.outbox = new SessionOutbox({
      record,
      repository: deps.repository,
      port: deps.port,
      logger: deps.logger,
      ...(deps.observer?.onEvent ? { observe: deps.observer.onEvent.bind(deps.observer) } : {}),
      onStoreLost: () => this.loseStore(),
    });
    // the session's model calls count against the daily budget of the account it is billed to.
    this.interrupts = new Interrupts({ sessionId: record.profile.id, ...(record.profile.billTo === undefined ? {} : { accountId: record.profile.billTo }) });
    this.view = new LectureView(deps);
  }

  /** A socket is attached and caught up: show what is due and drive the session. */
  wake(): void {
    this.suspended = false;
    this.syncPacer();
    this.kick();
  }

  /** The last socket left: hold the display but let work in flight finish (a reconnect continues seamlessly). */
  suspend(): void {
    this.suspended = true;
    this.syncPacer();
  }

  private syncPacer(): void {
    if (this.suspended || this.replyHeld) this.pacer.pause();
    else this.pacer.resume();
  }

  get id(): string {
    return this.record.profile.id;
  }

  get state(): SessionState {
    return this.record.state;
  }

  get seq(): number {
    return this.record.seq;
  }

  // ---- commands -------------------------------------------------------------------------------------------------

  async start(): Promise<{ state: string }> {
    if (this.record.state.kind === 'idle') {
      const first = this.deps.material.chapters[0];
      if (!first) {
        this.outbox.transition({ kind: 'finished' }, [{ event: 'lecture:end', payload: {} }]);
      } else {
        this.outbox.transition({ kind: 'streaming', chapter: first.index, offset: 0 }, [
          { event: 'lecture:chapter-start', payload: { chapter: first.index, title: first.title } },
        ]);
      }
    }
    this.kick();
    await this.outbox.settled();
    return { state: this.record.state.kind };
  }

  async pause(): Promise<{ state: string }> {
    const state = this.record.state;
    if (state.kind === 'streaming') {
      this.interrupts.interrupt();
      this.pacer.clear();
      this.outbox.transition({ kind: 'paused', reason: 'student', previous: state });
    } else if (state.kind === 'tutoring' && (state.step.kind === 'supplement' || state.step.kind === 'remedial')) {
      // A reply keeps generating; only its display holds.
      this.replyHeld = true;
      this.syncPacer();
      this.outbox.transition({ kind: 'paused', reason: 'student', previous: state });
    } else {
      throw new AppError(ErrorCode.NOT_STREAMING);
    }
    await this.outbox.settled();
    return { state: this.record.state.kind };
  }

  async resume(): Promise<{ state: string }> {
    const state = this.record.state;
    if (state.kind === 'hand-raised' && this.handStepFailed) {
      // A failed dialogue step stays where it was (see fail()): "계속" runs it again.
      this.handStepFailed = false;
      this.kick();
      await this.outbox.settled();
      return { state: state.kind };
    }
    if (state.kind !== 'paused') throw new AppError(ErrorCode.NOT_PAUSED);
    this.deps.generator.ensure(this.deps.material, this.record.profile.billTo);
    this.outbox.transition(state.previous);
    this.replyHeld = false;
    this.syncPacer();
    this.kick();
    await this.outbox.settled();
    return { state: this.record.state.kind };
  }

  async setSpeed(tokensPerSecond: number): Promise<{ speed: number }> {
    this.pacer.setSpeed(tokensPerSecond);
    this.record.speed = this.pacer.speed;
    await this.outbox.enqueue(() => this.deps.repository.saveSpeed(this.id, this.record.speed));
    return { speed: this.record.speed };
  }

  async submitAnswer(id: string, text: string): Promise<{ questionId: string }> {
    const state = this.record.state;
    const pending = pendingQuestionId(state);
    if (pending === undefined) {
      throw new AppError(ErrorCode.NO_PENDING_QUESTION);
    }
    if (pending !== id) throw new AppError(ErrorCode.UNKNOWN_QUESTION);
    const at = await this.view.displayOffset(state);
    const item: TranscriptItem = { type: 'answer', chapter: at.chapter, at: at.at, questionId: id, text };
    if (state.kind === 'awaiting-answer') {
      this.outbox.transition(
        { kind: 'tutoring', chapter: state.chapter, question: state.question, answer: text, step: { kind: 'judging' } },
        [],
        [item],
      );
    } else if (state.kind === 'tutoring' && state.step.kind === 'subquestion') {
      this.outbox.transition({ ...state, step: { kind: 'subjudging', index: state.step.index, answer: text } }, [], [item]);
    } else if (state.kind === 'tutoring' && state.step.kind === 'reasking') {
      this.outbox.transition({ ...state, step: { kind: 'rejudging', answer: text } }, [], [item]);
    }
    this.kick();
    await this.outbox.settled();
    return { questionId: id };
  }

  /** The student's comparison after `tutor:unsure`: a self-assessed verdict, then the tutoring goes on. */
  async selfAssess(id: string, choice: SelfAssessment): Promise<{ questionId: string; verdict: Verdict }> {
    const state = this.record.state;
    if (state.kind !== 'tutoring' || state.step.kind !== 'self-assessing') {
      throw new AppError(ErrorCode.NO_PENDING_QUESTION, '지금은 모범 답안과 비교할 질문이 없습니다.');
    }
    const comparing = state.step.index === undefined ? state.question.id : subquestionId(state.question.id, state.step.index);
    if (comparing !== id) throw new AppError(ErrorCode.UNKNOWN_QUESTION, '지금 비교하고 있는 질문이 아닙니다.');
    const at = this.view.displayOffsetNow(state);
    const verdict = selfAssess(this.tutoringHost, state, choice, at);
    this.kick();
    await this.outbox.settled();
    return { questionId: id, verdict };
  }

  // ---- raise hand (seed 003, 번외 1–4) ---------------------------------------------------------------------------

  /** Pauses the lecture (persisted) and opens the side dialogue; one hand at a time. */
  async raiseHand(): Promise<{ state: string }> {
    const state = this.record.state;
    if (state.kind === 'hand-raised') throw new AppError(ErrorCode.HAND_ALREADY_RAISED);
    const previous = state.kind === 'paused' ? state.previous : isActive(state) ? state : undefined;
    if (!previous || (previous.kind === 'tutoring' && !['subquestion', 'reasking'].includes(previous.step.kind))) {
      throw new AppError(ErrorCode.HAND_NOT_NOW);
    }
    if (state.kind === 'streaming') {
      this.interrupts.interrupt();
      this.pacer.clear();
    }
    const pausedBefore = state.kind === 'paused' && state.reason === 'student' ? { pausedBefore: true as const } : {};
    this.outbox.transition({ kind: 'hand-raised', dialogue: startDialogue(), previous: this.latest(previous), ...pausedBefore });
    this.kick();
    await this.outbox.settled();
    return { state: this.record.state.kind };
  }

  async askHand(text: string): Promise<{ state: string }> {
    const place = await this.handPlace();
    // Checked after the await, in the same tick as the transition: a concurrent command cannot slip in between.
    const state = this.handState();
    if (!acceptsAsk(state.dialogue)) throw new AppError(ErrorCode.NOT_ASKED, '지금은 질문을 받을 차례가 아닙니다.');
    this.outbox.transition(
      { ...state, dialogue: onAsk(state.dialogue, text) },
      [{ event: 'hand:asked', payload: { text } }],
      [{ type: 'student', ...place, text }],
    );
    this.kick();
    await this.outbox.settled();
    return { state: this.record.state.kind };
  }

  async replyHand(text: string): Promise<{ state: string }> {
    const place = await this.handPlace();
    const state = this.handState();
    if (!acceptsReply(state.dialogue)) throw new AppError(ErrorCode.NOT_ASKED, '지금은 답할 확인 질문이 없습니다.');
    this.outbox.transition({ ...state, dialogue: onReply(state.dialogue, text) }, [], [{ type: 'student', ...place, text }]);
    this.kick();
    await this.outbox.settled();
    return { state: this.record.state.kind };
  }

  /** Cancels the dialogue at any point; the lecture goes on where it waited. */
  async lowerHand(): Promise<{ state: string }> {
    const place = await this.handPlace();
    const state = this.handState();
    this.interrupts.interrupt();
    this.pacer.clear();
    const open = this.emittedReplyId();
    if (open) this.outbox.send({ event: 'tutor:reply-end', payload: { replyId: open } });
    this.target = undefined;
    this.outbox.transition(
      afterHand(state),
      [{ event: 'hand:closed', payload: { kind: 'cancelled' } }],
      [{ type: 'hand-closed', ...place, kind: 'cancelled' }],
    );
    this.kick();
    await this.outbox.settled();
    return { state: this.record.state.kind };
  }

  /**
   * Sends the instructor's replies waiting in the session's inbox (see LectureService.sendInstructorReply) as
   * numbered `hand:instructor-reply` events with a transcript item, in the outbox's order. Only the driver (this
   * actor, holding the lease) reads and marks the inbox, so each reply is numbered once. Runs one at a time.
   */
  deliverInstructorReplies(): Promise<void> {
    this.delivering = this.delivering
      .then(() => this.deliverPending())
      .catch((error: unknown) => {
        if (error instanceof StoreUnavailableError) return;
        this.deps.logger.warn({ err: error, sessionId: this.id }, 'instructor reply not delivered yet');
      });
    return this.delivering;
  }

  private async deliverPending(): Promise<void> {
    if (this.closed || this.outbox.storeDown) return;
    const pending = await this.deps.repository.pendingInstructorReplies(this.id);
    for (const reply of pending) {
      if (this.closed) return;
      const state = this.record.state;
      // Where the dialogue (or, once it closed, the lecture) stands; the item sits there in the transcript.
      const place = await this.view.displayOffset(state.kind === 'hand-raised' ? state.previous : state);
      this.outbox.enqueue(() =>
        this.deps.repository.appendTranscript(this.id, { type: 'instructor', ...place, text: reply.text, sentAt: reply.sentAt }),
      );
      this.outbox.send({ event: 'hand:instructor-reply', payload: { text: reply.text, sentAt: reply.sentAt } });
      this.outbox.enqueue(() => this.deps.repository.markDelivered(this.id, reply.entryId));
    }
    await this.outbox.settled();
  }

  private handState(): HandRaised {
    const state = this.record.state;
    if (state.kind !== 'hand-raised') throw new AppError(ErrorCode.HAND_NOT_RAISED);
    return state;
  }

  /**
   * Where the dialogue sits in the lecture's rendered history (the display offset where the lecture stopped), for
   * the transcript. Not from this node's feed alone: right after a session moved here (a reconnect to another node,
   * a restart) the feed may still be loading, and the feed-only offset was 0 — every dialogue item written then was
   * placed at the start of the chapter. displayOffset reads the store when the feed is behind. Throws
   * HAND_NOT_RAISED when no hand is up; callers check the state again after the await.
   */
  private handPlace(state: HandRaised = this.handState()): Promise<{ chapter: number; at: number }> {
    return this.view.displayOffset(state.previous);
  }

  /** The id of a reply started but not ended (as far as queued events go). */
  private emittedReplyId(): string | undefined {
    return this.target?.kind === 'reply' ? this.target.replyId : undefined;
  }

  /** `state` with the freshest offset when it is the streaming state in memory. */
  private latest(state: ActiveState): ActiveState {
    const current = this.record.state;
    return current.kind === state.kind ? (current as ActiveState) : state;
  }

  private get handHost(): HandHost {
    return {
      materialId: this.deps.material.id,
      assistant: this.deps.assistant,
      outbox: this.outbox,
      interrupts: this.interrupts,
      streamReply: (kind, epoch, open, options) => this.streamReply(kind, epoch, open, options),
      place: (state) => this.handPlace(state),
      current: () => this.record.state,
    };
  }

  private get tutoringHost(): TutoringHost {
    return {
      materialId: this.deps.material.id,
      tutor: this.deps.tutor,
      view: this.view,
      outbox: this.outbox,
      interrupts: this.interrupts,
      streamReply: (kind, epoch, open, options) => this.streamReply(kind, epoch, open, options),
    };
  }

  private get resumeHost(): ResumeHost {
    return {
      record: this.record,
      emitted: this.outbox.emitted,
      material: this.deps.material,
      repository: this.deps.repository,
      view: this.view,
    };
  }

  /**
   * Brings a (re)connected client up to date: the events after `lastSeq` when the log still has them all,
   * otherwise one `session:state` snapshot. It runs in the event queue, so nothing is emitted between what it
   * sends and `onReady` (where the caller joins the socket to the session's room): no gap, no duplicate.
   */
  async catchUp(
    lastSeq: number,
    to: SessionPort = this.deps.port,
    onReady?: () => void,
  ): Promise<{ replayed: number; snapshot: boolean; seq: number }> {
    let outcome = { replayed: 0, snapshot: false, seq: 0 };
    await this.outbox.enqueue(async () => {
      outcome = await replayOrSnapshot(this.resumeHost, lastSeq, to);
      onReady?.();
    });
    this.deps.generator.ensure(this.deps.material, this.record.profile.billTo);
    return outcome;
  }

  /** Stops everything this node does for the session; the store keeps the exact position. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.interrupts.interrupt();
    this.pacer.clear();
    await this.outbox.settled();
  }

  // ---- the drive loop -------------------------------------------------------------------------------------------

  private kick(): void {
    if (this.closed || this.outbox.storeDown) return;
    if (this.driving) {
      // The running loop may already have decided to stop (e.g. it saw `idle`): make it look again.
      this.kicked = true;
      return;
    }
    this.driving = (async () => {
      do {
        this.kicked = false;
        await this.drive();
      } while (this.kicked && !this.closed && !this.outbox.storeDown);
    })().finally(() => {
      this.driving = undefined;
    });
  }

  private async drive(): Promise<void> {
    for (;;) {
      const epoch = this.interrupts.epoch;
      const state = this.record.state;
      if (this.outbox.storeDown) return;
      try {
        const progressed = await this.step(state, epoch);
        if (!progressed || !this.interrupts.isCurrent(epoch) || this.closed) return;
      } catch (error) {
        if (!this.interrupts.isCurrent(epoch) || this.closed) return;
        // Not a failed step: the store is away. The session holds and continues by itself when it is back.
        if (error instanceof StoreUnavailableError) return this.loseStore();
        await this.fail(state, error);
        return;
      }
    }
  }

  /** Runs one step of the current state; false when the session must wait for the student. */
  private async step(state: SessionState, epoch: number): Promise<boolean> {
    switch (state.kind) {
      case 'idle':
      case 'finished':
      case 'paused':
      case 'awaiting-answer':
        return false;
      case 'streaming':
        return this.streamLecture(state, epoch);
      case 'hand-raised':
        return runHandStep(this.handHost, state, epoch);
      case 'tutoring':
        return runTutoringStep(this.tutoringHost, state, epoch);
    }
  }

  private async streamLecture(state: Extract<SessionState, { kind: 'streaming' }>, epoch: number): Promise<boolean> {
    const { chapter } = state;
    const feed = this.deps.feeds.get(this.deps.generator.cacheKey(this.deps.material.id, chapter));
    const target: Target = { kind: 'lecture', chapter, pieces: [] };
    this.target = target;
    let queued = state.offset;
    // Segments only grow, so a cursor index avoids rescanning them for every new piece of text.
    let index = 0;
    for (;;) {
      if (!this.interrupts.isCurrent(epoch)) return false;
      while (index < feed.segments.length && (feed.segments[index]?.end ?? 0) <= queued) index += 1;
      const next = feed.segments[index];
      if (next?.type === 'text') {
        const from = Math.max(queued, next.start);
        target.pieces.push({ start: from, length: next.end - from });
        this.pacer.push(next.text.slice(from - next.start));
        queued = next.end;
        continue;
      }
      if (next?.type === 'question') {
        if (!(await this.drained(epoch))) return false;
        const ordinal = feed.segments.filter((segment) => segment.type === 'question' && segment.start < next.start).length;
        const question: PendingQuestion = { id: questionId(chapter, ordinal + 1), text: next.text, start: next.start, end: next.end };
        const at = displayText(feed.segments, next.start).length;
        this.outbox.transition(
          { kind: 'awaiting-answer', chapter, question },
          [{ event: 'lecture:question', payload: { questionId: question.id, chapter, text: question.text } }],
          [{ type: 'question', chapter, at, questionId: question.id, text: question.text }],
        );
        return true;
      }
      if (feed.state === 'done') {
        if (!(await this.drained(epoch))) return false;
        this.finishChapter(chapter);
        return true;
      }
      // A failure the student was already told about is being retried (lecture:resume asked the generator to):
      // wait for the new attempt's text instead of reporting the same failure again at once.
      if (feed.state === 'failed' && feed.failures > (state.failures ?? 0)) {
        if (!(await this.drained(epoch))) return false;
        // Kept in the paused state fail() writes, so a resume on any node knows this failure was reported.
        const current = this.record.state;
        if (current.kind === 'streaming') this.record.state = { ...current, failures: feed.failures };
        throw new AppError(
          // A spent budget stays what it is: the student is told why, not "try again".
          feed.failure?.code === ErrorCode.MODEL_BUDGET_EXCEEDED ? ErrorCode.MODEL_BUDGET_EXCEEDED : ErrorCode.MODEL_UNAVAILABLE,
          feed.failure?.message || '강의를 생성하지 못했습니다. 다시 시도해 주세요.',
        );
      }
      await this.interrupts.wait((wake) => feed.subscribe(wake));
    }
  }

  private finishChapter(chapter: number): void {
    const chapters = this.deps.material.chapters;
    const position = chapters.findIndex((candidate) => candidate.index === chapter);
    const next = chapters[position + 1];
    const end: TutorEvent = { event: 'lecture:chapter-end', payload: { chapter } };
    if (next) {
      this.outbox.transition({ kind: 'streaming', chapter: next.index, offset: 0 }, [
        end,
        { event: 'lecture:chapter-start', payload: { chapter: next.index, title: next.title } },
      ]);
    } else {
      this.outbox.transition({ kind: 'finished' }, [end, { event: 'lecture:end', payload: {} }]);
    }
  }

  /**
   * Streams one model reply through the pacer as tutor:reply-*; resolves with its text, or false when
   * interrupted. The state returned by `withReplyId` is saved before reply-start is sent, so a session reloaded
   * elsewhere knows a reply was under way: that one (its text was never stored) is closed as abandoned, so
   * clients drop it, and written again.
   */
  private async streamReply(kind: ReplyKind, epoch: number, open: () => TextStream | SourcedTextStream, options: ReplyOptions): Promise<string | false> {
    const { place: at } = options;
    if (options.previousReplyId) {
      this.outbox.send({ event: 'tutor:reply-end', payload: { replyId: options.previousReplyId, abandoned: true } });
    }
    const replyId = `r${this.record.seq + 1}`;
    const target: Target = { kind: 'reply', replyId, replyKind: kind, text: '', chapter: at.chapter, at: at.at };
    this.target = target;
    this.outbox.transition(options.withReplyId(replyId));
    this.outbox.send({ event: 'tutor:reply-start', payload: { replyId, kind } }, { reply: { replyId, kind, chapter: at.chapter, at: at.at } });
    let full = '';
    let sources: ReplySource[] = [];
    try {
      const stream = open();
      for await (const delta of stream) {
        if (!this.interrupts.isCurrent(epoch)) return false;
        full += delta;
        this.pacer.push(delta);
      }
      await stream.result;
      if ('sources' in stream) sources = await stream.sources;
      if (!(await this.drained(epoch))) return false;
    } catch (error) {
      if (this.interrupts.isCurrent(epoch)) {
        // Close the half-shown reply so the client's view stays well-formed, then let the caller pause.
        await this.drained(epoch);
        this.outbox.send({ event: 'tutor:reply-end', payload: { replyId } });
        this.outbox.enqueue(() =>
          this.deps.repository.appendTranscript(this.id, { type: 'reply', ...at, replyId, kind, text: target.text, complete: false }),
        );
      }
      this.target = undefined;
      throw error;
    }
    this.target = undefined;
    const cited = sources.length > 0 ? { sources } : {};
    this.outbox.enqueue(() =>
      this.deps.repository.appendTranscript(this.id, { type: 'reply', ...at, replyId, kind, text: full, complete: true, ...cited }),
    );
    this.outbox.send({ event: 'tutor:reply-end', payload: { replyId, ...cited } });
    return full;
  }

  /** A failed step pauses the session with an error; `lecture:resume` retries the step. */
  private async fail(state: SessionState, error: unknown): Promise<void> {
    const { body } = toWireError(error);
    this.deps.logger.warn({ err: error, sessionId: this.id, state: state.kind }, 'session step failed');
    const code = body.code === ErrorCode.INTERNAL ? ErrorCode.INTERNAL : body.code;
    // The in-memory state is the freshest (a streaming state carries the offset actually shown).
    const current = this.record.state;
    const previous = isActive(current) ? current : isActive(state) ? state : undefined;
    if (current.kind === 'hand-raised') this.handStepFailed = true;
    else if (previous) {
      this.pacer.clear();
      this.outbox.transition({ kind: 'paused', reason: 'error', previous });
    }
    const modelCodes: string[] = [
      ErrorCode.MODEL_UNAVAILABLE,
      ErrorCode.MODEL_TIMEOUT,
      ErrorCode.MODEL_OUTPUT_INVALID,
      ErrorCode.UNKNOWN_TASK,
    ];
    this.outbox.send({
      event: 'session:error',
      payload: {
        code: modelCodes.includes(code) ? ErrorCode.MODEL_UNAVAILABLE : code,
        message: modelCodes.includes(code)
          ? 'AI 모델이 응답하지 않습니다. 잠시 후 "계속"을 눌러 다시 시도해 주세요.'
          : code === ErrorCode.MODEL_BUDGET_EXCEEDED
            ? CLASS_BUDGET_SPENT
            : body.message,
      },
    });
    await this.outbox.settled();
  }

  // ---- emitting -------------------------------------------------------------------------------------------------

  private onPacerEmit(text: string, meta: PacerEmitMeta): void {
    const target = this.target;
    if (!target) return;
    if (target.kind === 'reply') {
      target.text += text;
      this.outbox.send({ event: 'tutor:reply-delta', payload: { replyId: target.replyId, text } });
      return;
    }
    const offset = advancePieces(target.pieces, text.length);
    const state = this.record.state;
    // A new state object, never a mutation: states captured for the emitted view must not change afterwards.
    if (state.kind === 'streaming' && state.chapter === target.chapter) this.record.state = { ...state, offset };
    this.outbox.send({ event: 'lecture:delta', payload: { chapter: target.chapter, text } }, { reached: { chapter: target.chapter, offset } });
    this.deps.onDelta?.(meta);
  }

  /** Whether commands can be taken now; they answer STORE_UNAVAILABLE while the session waits for the store. */
  assertStore(): void {
    if (this.outbox.storeDown) throw new StoreUnavailableError();
  }

  /**
   * The store could not be reached for a write (or a read a step needed). What was not written was not emitted, so
   * the client saw exactly what the store holds up to the log's last entry. The session stops everything, tells its
   * sockets once (`session:error` STORE_UNAVAILABLE, `retryable: true`, outside the numbered stream), and waits for
   * the store; then it reloads its record (state and seq, the position reconciled with the log), sends every socket
   * one `session:state` snapshot of that, and goes on — whatever was lost in between, the student's view and the
   * store agree again, and the lecture continues with exact text.
   */
  private loseStore(): void {
    if (this.closed || !this.outbox.markDown()) return;
    this.deps.logger.warn({ sessionId: this.id, state: this.record.state.kind }, 'store unavailable: session held until it is back');
    this.interrupts.interrupt();
    this.pacer.clear();
    this.target = undefined;
    this.deps.port.emit('session:error', {
      seq: 0,
      code: ErrorCode.STORE_UNAVAILABLE,
      message: '저장소에 잠시 연결할 수 없습니다. 다시 연결되면 강의가 저절로 이어집니다.',
      retryable: true,
    });
    void this.recoverStore();
  }

  private async recoverStore(): Promise<void> {
    while (await waitForStore(this.deps.store, () => this.closed)) {
      let record: SessionRecord | null;
      try {
        // Every operation queued meanwhile was skipped; the queue is empty once it settles.
        await this.outbox.settled();
        record = await this.deps.repository.load(this.id);
      } catch (error) {
        if (error instanceof StoreUnavailableError) continue;
        this.deps.logger.error({ err: error, sessionId: this.id }, 'session could not be reloaded after a store outage');
        return;
      }
      if (this.closed) return;
      if (!record) {
        this.deps.logger.warn({ sessionId: this.id }, 'session gone after a store outage');
        return;
      }
      this.record.state = record.state;
      this.record.seq = record.seq;
      this.handStepFailed = false;
      this.replyHeld = false;
      this.outbox.reopen(record);
      try {
        await this.outbox.enqueue(() => sendSnapshot(this.resumeHost, this.deps.port));
      } catch {
        // Away again: that failure started a new wait of its own (loseStore).
        return;
      }
      this.deps.logger.info({ sessionId: this.id, seq: this.record.seq }, 'store back: session reloaded and continuing');
      this.deps.generator.ensure(this.deps.material, this.record.profile.billTo);
      this.syncPacer();
      this.kick();
      return;
    }
  }

  // ---- helpers --------------------------------------------------------------------------------------------------

  /** Waits until the pacer has shown everything; false when interrupted first. */
  private async drained(epoch: number): Promise<boolean> {
    if (!this.interrupts.isCurrent(epoch)) return false;
    await this.interrupts.wait((wake) => this.pacer.mark(wake));
    return this.interrupts.isCurrent(epoch);
  }
}

/** Consumes `length` emitted characters from the pushed pieces; returns the source offset reached. */
function advancePieces(pieces: { start: number; length: number }[], length: number): number {
  let remaining = length;
  let offset = pieces[0]?.start ?? 0;
  while (remaining > 0 && pieces.length > 0) {
    const piece = pieces[0];
    if (!piece) break;
    const take = Math.min(remaining, piece.length);
    piece.start += take;
    piece.length -= take;
    remaining -= take;
    offset = piece.start;
    if (piece.length === 0) pieces.shift();
  }
  return offset;
}
