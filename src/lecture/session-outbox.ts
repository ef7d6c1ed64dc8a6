import { StoreUnavailableError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { ReplyKind, TranscriptItem, TutorEvent } from '../protocol/wire/tutor.js';
import { emitNumbered, type SessionPort } from './session-port.js';
import type { SessionProfile, SessionRecord, SessionRepository } from './session-repository.js';
import type { EmittedView } from './session-resume.js';
import type { SessionState } from './session-state.js';

export interface OutboxDeps {
  /** The session's record: the outbox numbers events with `record.seq` and sets `record.state` on transitions. */
  record: SessionRecord;
  repository: SessionRepository;
  port: SessionPort;
  logger: Logger;
  /** Told every event once it is emitted (the instructor's monitor). */
  observe?: (session: SessionProfile, event: TutorEvent, state: SessionState) => void;
  /** A write failed because the store is unreachable: the session must hold (see SessionActor.loseStore). */
  onStoreLost: () => void;
}

/** Where a reply sits in the transcript, given with its `tutor:reply-start` so snapshots can show it half-written. */
export interface ReplyPlace {
  replyId: string;
  kind: ReplyKind;
  chapter: number;
  at: number;
}

/**
 * A session's ordered way out: every state write, transcript item and event goes through one promise queue, so the
 * store and the clients see them in one order (order = seq order). An event is numbered when it is queued, logged
 * with its seq, then emitted; a state is saved before the events that follow it. `emitted` is what clients have been
 * sent so far, updated in the queue right after each emit, so a snapshot or replay built in the queue matches the
 * events exactly (the in-memory record runs ahead of the queue). After a write is lost to a store outage nothing
 * queued behind it reaches the store or a client (it would follow a gap) until `reopen()`.
 */
export class SessionOutbox {
  private queue: Promise<void> = Promise.resolve();
  private down = false;
  readonly emitted: EmittedView;

  constructor(private readonly deps: OutboxDeps) {
    this.emitted = { seq: deps.record.seq, state: deps.record.state, reply: undefined };
  }

  /** True between a lost write and `reopen()`. */
  get storeDown(): boolean {
    return this.down;
  }

  /** Marks the store lost (from a failed write here, or a failed read elsewhere); false if it already was. */
  markDown(): boolean {
    if (this.down) return false;
    this.down = true;
    return true;
  }

  /** The store is back and the record was reloaded from it: what clients were sent is what it holds. */
  reopen(record: Pick<SessionRecord, 'seq' | 'state'>): void {
    Object.assign(this.emitted, { seq: record.seq, state: record.state, reply: undefined });
    this.down = false;
  }

  /** Resolves once everything queued so far has run (a failed operation does not reject it). */
  settled(): Promise<void> {
    return this.queue;
  }

  /** Persists the new state, then the transcript items, then emits the events — all in queue order. */
  transition(state: SessionState, events: TutorEvent[] = [], items: TranscriptItem[] = []): void {
    const { record, repository } = this.deps;
    record.state = state;
    this.enqueue(async () => {
      await repository.saveState(record.profile.id, state);
      this.emitted.state = state;
    });
    for (const item of items) this.enqueue(() => repository.appendTranscript(record.profile.id, item));
    for (const event of events) this.send(event);
  }

  /**
   * Numbers the event, logs it, then emits it, in queue order. `reached` is the lecture position the event shows
   * (saved with a delta); `reply` the place of the reply a `tutor:reply-start` opens.
   */
  send(event: TutorEvent, options: { reached?: { chapter: number; offset: number }; reply?: ReplyPlace } = {}): void {
    const { record, repository, port } = this.deps;
    const seq = ++record.seq;
    const stateAtSend = record.state;
    this.enqueue(async () => {
      await repository.appendLog(record.profile.id, { seq, event }, options.reached);
      emitNumbered(port, seq, event);
      this.track(seq, event, stateAtSend, options.reply);
      this.deps.observe?.(record.profile, event, stateAtSend);
    });
  }

  /** Runs `operation` in queue order (skipped, and the store marked lost, while the store is away). */
  enqueue(operation: () => Promise<void>): Promise<void> {
    const run = this.queue.then(() => {
      if (this.down) throw new StoreUnavailableError();
      return operation();
    });
    this.queue = run.catch((error: unknown) => {
      if (error instanceof StoreUnavailableError) this.deps.onStoreLost();
      else this.deps.logger.error({ err: error, sessionId: this.deps.record.profile.id }, 'session write failed');
    });
    return run;
  }

  private track(seq: number, event: TutorEvent, state: SessionState, reply: ReplyPlace | undefined): void {
    this.emitted.seq = seq;
    this.emitted.state = state;
    if (event.event === 'tutor:reply-start' && reply) {
      this.emitted.reply = { ...reply, text: '' };
    } else if (event.event === 'tutor:reply-delta' && this.emitted.reply) {
      this.emitted.reply.text += event.payload.text;
    } else if (event.event === 'tutor:reply-end') {
      this.emitted.reply = undefined;
    }
  }
}
