import type { ReplyKind, SessionSnapshot } from '../protocol/wire/tutor.js';
import type { LectureMaterial } from './lecture-generator.js';
import { displayText, sourceOffset, type LectureView } from './lecture-view.js';
import { emitNumbered, type SessionPort } from './session-port.js';
import type { SessionRecord, SessionRepository } from './session-repository.js';
import { toPublicPhase, type SessionState } from './session-state.js';

/** What the client has been sent so far (the session actor keeps it up to date right after each emit). */
export interface EmittedView {
  seq: number;
  state: SessionState;
  reply: { replyId: string; kind: ReplyKind; chapter: number; at: number; text: string } | undefined;
}

/** What replay and snapshots read from the session actor; `record` and `emitted` are read live, when used. */
export interface ResumeHost {
  readonly record: Readonly<Pick<SessionRecord, 'profile' | 'speed'>>;
  readonly emitted: Readonly<EmittedView>;
  readonly material: LectureMaterial;
  readonly repository: Pick<SessionRepository, 'readLog' | 'readTranscript'>;
  readonly view: LectureView;
}

export interface CatchUpOutcome {
  replayed: number;
  snapshot: boolean;
  seq: number;
}

/**
 * Sends `to` the events after `lastSeq` when the log still has them all, otherwise one `session:state` snapshot.
 * Call it from the session's event queue, where `emitted` matches exactly what was sent.
 */
export async function replayOrSnapshot(host: ResumeHost, lastSeq: number, to: SessionPort): Promise<CatchUpOutcome> {
  const outcome = { replayed: 0, snapshot: false, seq: 0 };
  const seq = host.emitted.seq;
  outcome.seq = seq;
  if (lastSeq < seq) {
    const log = lastSeq === 0 ? [] : await host.repository.readLog(host.record.profile.id);
    const missed = log.filter((entry) => entry.seq > lastSeq && entry.seq <= seq);
    const complete = missed.length > 0 && missed[0]?.seq === lastSeq + 1 && missed.at(-1)?.seq === seq;
    if (complete) {
      for (const entry of missed) emitNumbered(to, entry.seq, entry.event);
      outcome.replayed = missed.length;
    } else {
      to.emit('session:state', { seq, state: await snapshot(host) });
      outcome.snapshot = true;
    }
  } else if (lastSeq > seq) {
    // The client saw events this store never recorded (a lost write): only a snapshot is trustworthy.
    to.emit('session:state', { seq, state: await snapshot(host) });
    outcome.snapshot = true;
  }
  return outcome;
}

/** Sends `to` one `session:state` snapshot of everything emitted so far (call it from the session's event queue). */
export async function sendSnapshot(host: ResumeHost, to: SessionPort): Promise<void> {
  to.emit('session:state', { seq: host.emitted.seq, state: await snapshot(host) });
}

/** The client's whole view as of the last emitted event (call it from the queue to keep it exact). */
async function snapshot(host: ResumeHost): Promise<SessionSnapshot> {
  const { material } = host;
  const state = host.emitted.state;
  // A raised hand holds the lecture like a pause: its text ends where the lecture stopped (not every chapter whole).
  const active = state.kind === 'paused' || state.kind === 'hand-raised' ? state.previous : state;
  const transcript = await host.repository.readTranscript(host.record.profile.id);
  const reply = host.emitted.reply;
  if (reply) transcript.push({ type: 'reply', ...reply, complete: false });
  const chapters: SessionSnapshot['chapters'] = [];
  const current = 'chapter' in active ? active.chapter : undefined;
  for (const chapter of material.chapters) {
    if (state.kind === 'idle') break;
    const isCurrent = chapter.index === current;
    const upTo = isCurrent ? sourceOffset(active) : Number.POSITIVE_INFINITY;
    const segments = await host.view.readSegments(chapter.index);
    chapters.push({
      index: chapter.index,
      title: chapter.title,
      text: displayText(segments, upTo),
      complete: !isCurrent,
    });
    if (isCurrent) break;
  }
  return {
    sessionId: host.record.profile.id,
    nickname: host.record.profile.nickname,
    material: { id: material.id, title: material.title, chapters: material.chapters.map(({ index, title }) => ({ index, title })) },
    phase: toPublicPhase(state),
    speed: host.record.speed,
    chapters,
    transcript,
  };
}
