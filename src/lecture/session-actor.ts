import { AppError, toWireError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { TextStream } from '../llm/model.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { ReplyKind, SessionSnapshot, TranscriptItem, TutorEvent } from '../protocol/tutor.js';
import type { FeedHub } from './chapter-feed.js';
import type { LectureGenerator, LectureMaterial } from './lecture-generator.js';
import { parseLecture, type LectureSegment } from './marker-parser.js';
import { createPacer, type Pacer, type PacerEmitMeta, type PacerScheduler } from './pacer.js';
import type { QaTutor } from './qa-tutor.js';
import type { SessionRecord, SessionRepository } from './session-repository.js';
import {
  pendingQuestionId,
  questionId,
  subquestionId,
  toPublicPhase,
  type ActiveState,
  type PendingQuestion,
  type SessionState,
} from './session-state.js';
import type { Store } from '../store/store.js';
import { keys } from '../store/keys.js';

/** Where a session's events go: every socket of the session attached to this node. */
export interface SessionPort {
  emit(event: string, payload: object): void;
}

/** Progress facts for observers (the instructor's monitor); called after the fact is persisted. */
export interface SessionObserver {
  onEvent?(sessionId: string, event: TutorEvent, state: SessionState): void;
}

export interface SessionActorDeps {
  store: Store;
  repository: SessionRepository;
  generator: LectureGenerator;
  feeds: FeedHub;
  tutor: QaTutor;
  material: LectureMaterial;
  scheduler: PacerScheduler;
  logger: Logger;
  port: SessionPort;
  observer?: SessionObserver;
  /** Called when a lecture delta is emitted, with the pacer's timing (benchmarks measure lateness with it). */
  onDelta?: (meta: PacerEmitMeta) => void;
}

type Target =
  | { kind: 'lecture'; chapter: number; pieces: { start: number; length: number }[] }
  | { kind: 'reply'; replyId: string; replyKind: ReplyKind; text: string; chapter: number; at: number };

const commandError = (code: ErrorCode, message: string) => new AppError(code, message, { status: 409 });

/**
 * Drives one student's session on this node: the lecture stream, questions, the Q&A tutor's verdicts,
 * subconcept remediation and replies. Every transition is written to the store before its events are emitted,
 * and every event is logged with its seq before it is emitted, so a reconnecting client (on any node) can be
 * replayed or snapshotted to exactly where it was.
 *
 * Concurrency model: all writes and emits go through one promise queue (order = seq order). The drive loop runs
 * one step at a time; external commands (pause, detach) bump `epoch`, which makes a running step stop at its
 * next check without writing anything further.
 */
export class SessionActor {
  private queue: Promise<void> = Promise.resolve();
  private readonly pacer: Pacer;
  private target: Target | undefined;
  private epoch = 0;
  /** Wakes every wait of the current epoch when it is interrupted. */
  private readonly wakers = new Set<() => void>();
  private abort = new AbortController();
  private driving: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly deps: SessionActorDeps,
    private readonly record: SessionRecord,
  ) {
    this.pacer = createPacer({
      scheduler: deps.scheduler,
      speed: record.speed,
      emit: (text, meta) => this.onPacerEmit(text, meta),
    });
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
        this.transition({ kind: 'finished' }, [{ event: 'lecture:end', payload: {} }]);
      } else {
        this.transition({ kind: 'streaming', chapter: first.index, offset: 0 }, [
          { event: 'lecture:chapter-start', payload: { chapter: first.index, title: first.title } },
        ]);
      }
    }
    this.kick();
    await this.queue;
    return { state: this.record.state.kind };
  }

  async pause(): Promise<{ state: string }> {
    const state = this.record.state;
    if (state.kind === 'streaming') {
      this.interrupt();
      this.pacer.clear();
      this.transition({ kind: 'paused', reason: 'student', previous: state });
    } else if (state.kind === 'tutoring' && (state.step.kind === 'supplement' || state.step.kind === 'remedial')) {
      // A reply keeps generating; only its display holds.
      this.pacer.pause();
      this.transition({ kind: 'paused', reason: 'student', previous: state });
    } else {
      throw commandError(ErrorCode.NOT_STREAMING, '지금은 강의가 흐르고 있지 않아 일시정지할 수 없습니다.');
    }
    await this.queue;
    return { state: this.record.state.kind };
  }

  async resume(): Promise<{ state: string }> {
    const state = this.record.state;
    if (state.kind !== 'paused') throw commandError(ErrorCode.NOT_PAUSED, '일시정지된 상태가 아닙니다.');
    this.deps.generator.ensure(this.deps.material);
    this.transition(state.previous);
    if (this.pacer.paused) this.pacer.resume();
    this.kick();
    await this.queue;
    return { state: this.record.state.kind };
  }

  async setSpeed(tokensPerSecond: number): Promise<{ speed: number }> {
    this.pacer.setSpeed(tokensPerSecond);
    this.record.speed = this.pacer.speed;
    await this.enqueue(() => this.deps.repository.saveSpeed(this.id, this.record.speed));
    return { speed: this.record.speed };
  }

  async submitAnswer(id: string, text: string): Promise<{ questionId: string }> {
    const state = this.record.state;
    const pending = pendingQuestionId(state);
    if (pending === undefined) {
      throw commandError(ErrorCode.NO_PENDING_QUESTION, '지금은 답할 질문이 없습니다.');
    }
    if (pending !== id) throw commandError(ErrorCode.UNKNOWN_QUESTION, '지금 묻고 있는 질문이 아닙니다.');
    const at = await this.displayOffset(state);
    const item: TranscriptItem = { type: 'answer', chapter: at.chapter, at: at.at, questionId: id, text };
    if (state.kind === 'awaiting-answer') {
      this.transition(
        { kind: 'tutoring', chapter: state.chapter, question: state.question, answer: text, step: { kind: 'judging' } },
        [],
        [item],
      );
    } else if (state.kind === 'tutoring' && state.step.kind === 'subquestion') {
      this.transition({ ...state, step: { kind: 'subjudging', index: state.step.index, answer: text } }, [], [item]);
    }
    this.kick();
    await this.queue;
    return { questionId: id };
  }

  /**
   * Brings a (re)connected client up to date: the events after `lastSeq` when the log still has them all,
   * otherwise one `session:state` snapshot. Then the session goes on where it was.
   */
  async catchUp(lastSeq: number, to: SessionPort = this.deps.port): Promise<{ replayed: number; snapshot: boolean; seq: number }> {
    await this.queue;
    let replayed = 0;
    let snapshot = false;
    if (lastSeq < this.record.seq) {
      const log = lastSeq === 0 ? [] : await this.deps.repository.readLog(this.id);
      const missed = log.filter((entry) => entry.seq > lastSeq);
      const complete = missed.length > 0 && missed[0]?.seq === lastSeq + 1 && missed.at(-1)?.seq === this.record.seq;
      if (complete) {
        for (const entry of missed) to.emit(entry.event.event, { seq: entry.seq, ...entry.event.payload });
        replayed = missed.length;
      } else {
        to.emit('session:state', { seq: this.record.seq, state: await this.snapshot() });
        snapshot = true;
      }
    } else if (lastSeq > this.record.seq) {
      // The client saw events this store never recorded (a lost write): only a snapshot is trustworthy.
      to.emit('session:state', { seq: this.record.seq, state: await this.snapshot() });
      snapshot = true;
    }
    this.deps.generator.ensure(this.deps.material);
    this.kick();
    return { replayed, snapshot, seq: this.record.seq };
  }

  /** Stops everything this node does for the session; the store keeps the exact position. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.interrupt();
    this.pacer.clear();
    await this.queue;
  }

  // ---- snapshot -------------------------------------------------------------------------------------------------

  async snapshot(): Promise<SessionSnapshot> {
    const { material } = this.deps;
    const state = this.record.state;
    const active = state.kind === 'paused' ? state.previous : state;
    const transcript = await this.deps.repository.readTranscript(this.id);
    const target = this.target;
    if (target?.kind === 'reply') {
      transcript.push({
        type: 'reply',
        chapter: target.chapter,
        at: target.at,
        replyId: target.replyId,
        kind: target.replyKind,
        text: target.text,
        complete: false,
      });
    }
    const chapters: SessionSnapshot['chapters'] = [];
    const current = 'chapter' in active ? active.chapter : undefined;
    for (const chapter of material.chapters) {
      if (state.kind === 'idle') break;
      const isCurrent = chapter.index === current;
      const upTo = isCurrent ? sourceOffset(active) : Number.POSITIVE_INFINITY;
      const segments = await this.readSegments(chapter.index);
      chapters.push({
        index: chapter.index,
        title: chapter.title,
        text: displayText(segments, upTo),
        complete: !isCurrent,
      });
      if (isCurrent) break;
    }
    return {
      sessionId: this.id,
      nickname: this.record.profile.nickname,
      material: { id: material.id, title: material.title, chapters: material.chapters.map(({ index, title }) => ({ index, title })) },
      phase: toPublicPhase(state),
      speed: this.record.speed,
      chapters,
      transcript,
    };
  }

  // ---- the drive loop -------------------------------------------------------------------------------------------

  private kick(): void {
    if (this.driving || this.closed) return;
    this.driving = this.drive().finally(() => {
      this.driving = undefined;
    });
  }

  private async drive(): Promise<void> {
    for (;;) {
      const epoch = this.epoch;
      const state = this.record.state;
      try {
        const progressed = await this.step(state, epoch);
        if (!progressed || epoch !== this.epoch || this.closed) return;
      } catch (error) {
        if (epoch !== this.epoch || this.closed) return;
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
      case 'tutoring':
        switch (state.step.kind) {
          case 'subquestion':
            return false;
          case 'judging':
            return this.judge(state, epoch);
          case 'splitting':
            return this.split(state, epoch);
          case 'subjudging':
            return this.subjudge(state, state.step.index, state.step.answer, epoch);
          case 'remedial':
            return this.remedial(state, state.step.index, state.step.answer, epoch);
          case 'supplement':
            return this.supplement(state, epoch);
        }
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
      if (epoch !== this.epoch) return false;
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
        this.transition(
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
      if (feed.state === 'failed') {
        if (!(await this.drained(epoch))) return false;
        throw new AppError(
          ErrorCode.MODEL_UNAVAILABLE,
          feed.failure?.message || '강의를 생성하지 못했습니다. 다시 시도해 주세요.',
        );
      }
      await this.interruptible((wake) => feed.subscribe(wake));
    }
  }

  private finishChapter(chapter: number): void {
    const chapters = this.deps.material.chapters;
    const position = chapters.findIndex((candidate) => candidate.index === chapter);
    const next = chapters[position + 1];
    const end: TutorEvent = { event: 'lecture:chapter-end', payload: { chapter } };
    if (next) {
      this.transition({ kind: 'streaming', chapter: next.index, offset: 0 }, [
        end,
        { event: 'lecture:chapter-start', payload: { chapter: next.index, title: next.title } },
      ]);
    } else {
      this.transition({ kind: 'finished' }, [end, { event: 'lecture:end', payload: {} }]);
    }
  }

  private async judge(state: Tutoring, epoch: number): Promise<boolean> {
    const lecture = await this.chapterLecture(state.chapter);
    const context = { question: state.question.text, lecture, ...this.callOptions() };
    const modelAnswer = state.modelAnswer ?? (await this.deps.tutor.modelAnswer(context)).modelAnswer;
    if (epoch !== this.epoch) return false;
    const verdict = await this.deps.tutor.judge({ ...context, modelAnswer, answer: state.answer });
    if (epoch !== this.epoch) return false;
    const at = await this.displayOffset(state);
    this.transition(
      { ...state, modelAnswer, step: verdict.verdict === 'good' ? { kind: 'supplement' } : { kind: 'splitting' } },
      [{ event: 'tutor:verdict', payload: { questionId: state.question.id, verdict: verdict.verdict, feedback: verdict.feedback } }],
      [{ type: 'verdict', ...at, questionId: state.question.id, verdict: verdict.verdict, feedback: verdict.feedback }],
    );
    return true;
  }

  private async split(state: Tutoring, epoch: number): Promise<boolean> {
    const lecture = await this.chapterLecture(state.chapter);
    const subconcepts = await this.deps.tutor.subconcepts({
      question: state.question.text,
      lecture,
      modelAnswer: state.modelAnswer ?? '',
      ...this.callOptions(),
    });
    if (epoch !== this.epoch) return false;
    this.askSubquestion({ ...state, subconcepts }, 0);
    return true;
  }

  private askSubquestion(state: Tutoring, index: number): void {
    const subconcepts = state.subconcepts ?? [];
    const sub = subconcepts[index];
    if (!sub) {
      this.transition({ ...state, step: { kind: 'supplement' } });
      return;
    }
    const id = subquestionId(state.question.id, index);
    const payload = {
      questionId: id,
      parentQuestionId: state.question.id,
      index: index + 1,
      total: subconcepts.length,
      concept: sub.concept,
      text: sub.question,
    };
    const at = this.displayOffsetNow(state);
    this.transition(
      { ...state, step: { kind: 'subquestion', index } },
      [{ event: 'tutor:subquestion', payload }],
      [{ type: 'subquestion', ...at, ...payload }],
    );
  }

  private async subjudge(state: Tutoring, index: number, answer: string, epoch: number): Promise<boolean> {
    const sub = state.subconcepts?.[index];
    if (!sub) {
      this.transition({ ...state, step: { kind: 'supplement' } });
      return true;
    }
    const verdict = await this.deps.tutor.judge({
      question: sub.question,
      lecture: sub.explanation,
      modelAnswer: sub.explanation,
      answer,
      ...this.callOptions(),
    });
    if (epoch !== this.epoch) return false;
    const id = subquestionId(state.question.id, index);
    const at = this.displayOffsetNow(state);
    const events: TutorEvent[] = [
      { event: 'tutor:verdict', payload: { questionId: id, verdict: verdict.verdict, feedback: verdict.feedback } },
    ];
    const items: TranscriptItem[] = [
      { type: 'verdict', ...at, questionId: id, verdict: verdict.verdict, feedback: verdict.feedback },
    ];
    if (verdict.verdict === 'bad') {
      this.transition({ ...state, step: { kind: 'remedial', index, answer } }, events, items);
    } else {
      this.transition(state, events, items);
      this.askSubquestion(state, index + 1);
    }
    return true;
  }

  private async remedial(state: Tutoring, index: number, answer: string, epoch: number): Promise<boolean> {
    const sub = state.subconcepts?.[index];
    if (sub) {
      const done = await this.streamReply('remedial', state, epoch, () =>
        this.deps.tutor.remedial({ subconcept: sub, answer, ...this.callOptions() }),
      );
      if (!done) return false;
    }
    this.askSubquestion(state, index + 1);
    return true;
  }

  private async supplement(state: Tutoring, epoch: number): Promise<boolean> {
    const lecture = await this.chapterLecture(state.chapter);
    const done = await this.streamReply('supplement', state, epoch, () =>
      this.deps.tutor.supplement({
        question: state.question.text,
        lecture,
        modelAnswer: state.modelAnswer ?? '',
        answer: state.answer,
        ...this.callOptions(),
      }),
    );
    if (!done) return false;
    this.transition({ kind: 'streaming', chapter: state.chapter, offset: state.question.end });
    return true;
  }

  /** Streams one model reply through the pacer as tutor:reply-*; false when interrupted. */
  private async streamReply(kind: ReplyKind, state: Tutoring, epoch: number, open: () => TextStream): Promise<boolean> {
    const replyId = `r${this.record.seq + 1}`;
    const at = this.displayOffsetNow(state);
    this.send({ event: 'tutor:reply-start', payload: { replyId, kind } });
    const target: Target = { kind: 'reply', replyId, replyKind: kind, text: '', chapter: at.chapter, at: at.at };
    this.target = target;
    let full = '';
    try {
      const stream = open();
      for await (const delta of stream) {
        if (epoch !== this.epoch) return false;
        full += delta;
        this.pacer.push(delta);
      }
      await stream.result;
      if (!(await this.drained(epoch))) return false;
    } catch (error) {
      if (epoch === this.epoch) {
        // Close the half-shown reply so the client's view stays well-formed, then let the caller pause.
        await this.drained(epoch);
        this.send({ event: 'tutor:reply-end', payload: { replyId } });
        this.enqueue(() =>
          this.deps.repository.appendTranscript(this.id, { type: 'reply', ...at, replyId, kind, text: target.text, complete: false }),
        );
      }
      this.target = undefined;
      throw error;
    }
    this.target = undefined;
    this.enqueue(() =>
      this.deps.repository.appendTranscript(this.id, { type: 'reply', ...at, replyId, kind, text: full, complete: true }),
    );
    this.send({ event: 'tutor:reply-end', payload: { replyId } });
    return true;
  }

  /** A failed step pauses the session with an error; `lecture:resume` retries the step. */
  private async fail(state: SessionState, error: unknown): Promise<void> {
    const { body } = toWireError(error);
    this.deps.logger.warn({ err: error, sessionId: this.id, state: state.kind }, 'session step failed');
    const code = body.code === ErrorCode.INTERNAL ? ErrorCode.INTERNAL : body.code;
    const previous = isActive(state) ? state : undefined;
    if (previous) {
      // The lecture resumes from what was actually shown.
      const resumeAt: ActiveState =
        previous.kind === 'streaming' ? { ...previous } : previous;
      this.pacer.clear();
      this.transition({ kind: 'paused', reason: 'error', previous: resumeAt });
    }
    const modelCodes: string[] = [
      ErrorCode.MODEL_UNAVAILABLE,
      ErrorCode.MODEL_TIMEOUT,
      ErrorCode.MODEL_OUTPUT_INVALID,
      ErrorCode.UNKNOWN_TASK,
    ];
    this.send({
      event: 'session:error',
      payload: {
        code: modelCodes.includes(code) ? ErrorCode.MODEL_UNAVAILABLE : code,
        message: modelCodes.includes(code)
          ? 'AI 모델이 응답하지 않습니다. 잠시 후 "계속"을 눌러 다시 시도해 주세요.'
          : body.message,
      },
    });
    await this.queue.catch(() => undefined);
  }

  // ---- emitting -------------------------------------------------------------------------------------------------

  private onPacerEmit(text: string, meta: PacerEmitMeta): void {
    const target = this.target;
    if (!target) return;
    if (target.kind === 'reply') {
      target.text += text;
      this.send({ event: 'tutor:reply-delta', payload: { replyId: target.replyId, text } });
      return;
    }
    const offset = advancePieces(target.pieces, text.length);
    const state = this.record.state;
    if (state.kind === 'streaming' && state.chapter === target.chapter) state.offset = offset;
    this.send({ event: 'lecture:delta', payload: { chapter: target.chapter, text } }, { chapter: target.chapter, offset });
    this.deps.onDelta?.(meta);
  }

  /** Numbers the event, logs it, then emits it, in queue order. */
  private send(event: TutorEvent, reached?: { chapter: number; offset: number }): void {
    const seq = ++this.record.seq;
    const stateAtSend = this.record.state;
    this.enqueue(async () => {
      await this.deps.repository.appendLog(this.id, { seq, event }, reached);
      this.deps.port.emit(event.event, { seq, ...event.payload });
      this.deps.observer?.onEvent?.(this.id, event, stateAtSend);
    });
  }

  /** Persists the new state, then the transcript items, then emits the events — all in queue order. */
  private transition(state: SessionState, events: TutorEvent[] = [], items: TranscriptItem[] = []): void {
    this.record.state = state;
    this.enqueue(() => this.deps.repository.saveState(this.id, state));
    for (const item of items) this.enqueue(() => this.deps.repository.appendTranscript(this.id, item));
    for (const event of events) this.send(event);
  }

  private enqueue(operation: () => Promise<void>): Promise<void> {
    const run = this.queue.then(operation);
    this.queue = run.catch((error: unknown) => {
      this.deps.logger.error({ err: error, sessionId: this.id }, 'session write failed');
    });
    return run;
  }

  // ---- helpers --------------------------------------------------------------------------------------------------

  private interrupt(): void {
    this.epoch += 1;
    for (const wake of [...this.wakers]) wake();
    this.wakers.clear();
    this.abort.abort();
    this.abort = new AbortController();
  }

  /** Waits until the pacer has shown everything; false when interrupted first. */
  private async drained(epoch: number): Promise<boolean> {
    if (epoch !== this.epoch) return false;
    await this.interruptible((wake) => this.pacer.mark(wake));
    return epoch === this.epoch;
  }

  /** Waits for `subscribe`'s callback or an interruption, whichever comes first. */
  private interruptible(subscribe: (wake: () => void) => (() => void) | void): Promise<void> {
    return new Promise<void>((resolve) => {
      let unsubscribe: (() => void) | void = undefined;
      const wake = () => {
        this.wakers.delete(wake);
        if (unsubscribe) unsubscribe();
        resolve();
      };
      this.wakers.add(wake);
      unsubscribe = subscribe(wake);
    });
  }

  private callOptions() {
    return { attribution: { sessionId: this.id }, signal: this.abort.signal };
  }

  private async readSegments(chapter: number): Promise<LectureSegment[]> {
    const cacheKey = this.deps.generator.cacheKey(this.deps.material.id, chapter);
    const entries = await this.deps.store.xread(keys.lectureText(cacheKey), '0');
    return parseLecture(entries.map((entry) => entry.fields.t ?? '').join(''));
  }

  /** The chapter's lecture as the student sees it (what the tutor judges against). */
  private async chapterLecture(chapter: number): Promise<string> {
    return displayText(await this.readSegments(chapter), Number.POSITIVE_INFINITY);
  }

  private async displayOffset(state: SessionState): Promise<{ chapter: number; at: number }> {
    const active = state.kind === 'paused' ? state.previous : state;
    if (!isActive(active)) return { chapter: 0, at: 0 };
    return { chapter: active.chapter, at: displayText(await this.readSegments(active.chapter), sourceOffset(active)).length };
  }

  /** Like displayOffset, from this node's feed (already loaded while a question is being tutored). */
  private displayOffsetNow(state: ActiveState): { chapter: number; at: number } {
    const feed = this.deps.feeds.get(this.deps.generator.cacheKey(this.deps.material.id, state.chapter));
    return { chapter: state.chapter, at: displayText(feed.segments, sourceOffset(state)).length };
  }
}

type Tutoring = Extract<SessionState, { kind: 'tutoring' }>;

function isActive(state: SessionState): state is ActiveState {
  return state.kind === 'streaming' || state.kind === 'awaiting-answer' || state.kind === 'tutoring';
}

/** Source offset up to which the chapter's lecture text has been shown in this state. */
function sourceOffset(state: SessionState): number {
  switch (state.kind) {
    case 'streaming':
      return state.offset;
    case 'awaiting-answer':
    case 'tutoring':
      return state.question.start;
    case 'paused':
      return sourceOffset(state.previous);
    default:
      return Number.POSITIVE_INFINITY;
  }
}

function displayText(segments: readonly LectureSegment[], upTo: number): string {
  let text = '';
  for (const segment of segments) {
    if (segment.start >= upTo) break;
    if (segment.type === 'text') text += segment.text.slice(0, Math.max(0, upTo - segment.start));
  }
  return text;
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
