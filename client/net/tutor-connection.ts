import type { SessionSnapshot, TutorServerEvents } from '../../src/protocol/wire/index.js';
import { watchConnection, closeSocket, type LifecycleHandlers } from './lifecycle.js';
import { SeqCursor } from './seq-cursor.js';
import { openSocket, sendCommand, type CommandAck } from './socket.js';
import { readTutorFrame, type ClassNotice, type SessionEvent, type TutorCommandName, type TutorCommands, type TutorSocket } from './tutor-protocol.js';

export interface TutorConnectionHandlers extends Omit<LifecycleHandlers, 'closedByServer'> {
  /** The next numbered event, in order: events are never skipped, repeated or applied out of order. */
  event(event: SessionEvent): void;
  /** A snapshot that replaces everything shown (after a reload, a long drop, or a store outage). */
  snapshot(state: SessionSnapshot, seq: number): void;
  /** `session:error` with seq 0: the session cannot open on this socket, or (retryable) the store is away. */
  notice(error: TutorServerEvents['session:error']): void;
  /** A notice of the class (announcement, acknowledged hand). */
  classNotice(notice: ClassNotice): void;
  /** `session:resume` was refused (not sent offline: the next connection resumes anyway). */
  resumeFailed(ack: Extract<CommandAck<object>, { ok: false }>): void;
}

/** How many times a resume that brought nothing new is repeated before the next event or connection. */
const RESUME_RETRIES = 5;
const RESUME_RETRY_MS = 300;

/**
 * A student's live session on `/tutor`. Sequencing: events at or below `lastSeq` are dropped; a jump asks the
 * server for what was missed (`session:resume {lastSeq}`); a `session:state` snapshot replaces everything. Every
 * (re)connection resumes from `lastSeq`, so a page that rendered nothing (a reload) starts from 0 and gets a snapshot.
 */
export class TutorConnection {
  readonly socket: TutorSocket;
  readonly cursor: SeqCursor;
  private resumeInFlight = false;
  private resumeRetries = 0;
  private resumeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(token: string, private readonly handlers: TutorConnectionHandlers, lastSeq = 0) {
    this.cursor = new SeqCursor(lastSeq);
    this.socket = openSocket('/tutor', token);
    watchConnection(this.socket, {
      state: (state) => handlers.state(state),
      connected: () => {
        this.resumeRetries = 0;
        handlers.connected?.();
      },
      // The server refusing the session: the session:error sent before the disconnect explains it.
      closedByServer: () => {},
      refused: (data) => handlers.refused(data),
    });
    this.socket.onAny((name: string, payload: unknown) => this.receive(name, payload));
  }

  get lastSeq(): number {
    return this.cursor.lastSeq;
  }

  command<K extends TutorCommandName>(name: K, payload: TutorCommands[K]['payload']): Promise<CommandAck<TutorCommands[K]['result']>> {
    return sendCommand<TutorCommands, K>(this.socket, name, payload);
  }

  /** Asks for the events after lastSeq (or a snapshot); repeats while the ack says more exists than arrived. */
  async resume(): Promise<void> {
    clearTimeout(this.resumeTimer);
    if (this.resumeInFlight) return;
    this.resumeInFlight = true;
    const before = this.cursor.lastSeq;
    const ack = await this.command('session:resume', { lastSeq: before });
    this.resumeInFlight = false;
    if (!ack.ok) {
      if (ack.error.code !== 'OFFLINE') this.handlers.resumeFailed(ack);
      return;
    }
    this.resumeRetries = this.cursor.lastSeq > before ? 0 : this.resumeRetries + 1;
    const target = Math.max(ack.seq, this.cursor.highestSeen);
    if (this.cursor.lastSeq < target && this.resumeRetries < RESUME_RETRIES) {
      // Events numbered just before the ack may still be on their way: look again shortly.
      this.resumeTimer = setTimeout(() => {
        if (this.cursor.lastSeq < target) void this.resume();
      }, RESUME_RETRY_MS);
    }
  }

  /** Connects again after the server refused or closed the session (the student pressed "다시 연결"). */
  reconnect(): void {
    this.socket.connect();
  }

  close(): void {
    clearTimeout(this.resumeTimer);
    closeSocket(this.socket);
  }

  private receive(name: string, payload: unknown): void {
    const frame = readTutorFrame(name, payload);
    if (!frame) return;
    switch (frame.kind) {
      case 'class':
        this.handlers.classNotice(frame.notice);
        return;
      case 'snapshot':
        this.cursor.accept(frame.payload.seq, true);
        this.handlers.snapshot(frame.payload.state, frame.payload.seq);
        return;
      case 'session': {
        const { event } = frame;
        switch (this.cursor.accept(event.payload.seq)) {
          case 'notice':
            if (event.name === 'session:error') this.handlers.notice(event.payload);
            return;
          case 'gap':
            void this.resume();
            return;
          case 'next':
            this.handlers.event(event);
            return;
          case 'stale':
          case 'snapshot':
            return;
        }
      }
    }
  }
}
