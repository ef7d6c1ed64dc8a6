import { z } from 'zod';
import type { Logger } from '../logger.js';
import { RETENTION, keys, readJsonRecord, type Store } from '../store/index.js';
import type { TranscriptItem, TutorEvent } from '../protocol/wire/tutor.js';
import type { SessionState } from './session-state.js';

/** How long an untouched session is kept (its record, log and transcript): every write sets it again. */
export const SESSION_TTL_MS = RETENTION.sessionMs;
const ttl = { ttlMs: SESSION_TTL_MS };
/** Events kept for replay; a client further behind gets a snapshot instead. */
export const SESSION_LOG_MAX = 2_000;

export interface SessionProfile {
  id: string;
  materialId: string;
  nickname: string;
  classId?: string;
  createdAt: number;
}

export interface SessionRecord {
  profile: SessionProfile;
  state: SessionState;
  speed: number;
  /** seq of the last event sent. */
  seq: number;
}

export interface LoggedEvent {
  seq: number;
  event: TutorEvent;
}

const ProfileJson = z.object({
  id: z.string(),
  materialId: z.string(),
  nickname: z.string(),
  classId: z.string().optional(),
  createdAt: z.number(),
});

/**
 * Persistence of tutoring sessions. The log is the source of truth for what the student was sent: a lecture
 * delta's entry carries the source offset it reached, so a session reloaded after a crash continues exactly after
 * the last text the student could have seen (no gap, no duplicate), without writing the state on every delta.
 */
export class SessionRepository {
  constructor(
    private readonly store: Store,
    private readonly logger?: Logger,
  ) {}

  async create(profile: SessionProfile, speed: number): Promise<void> {
    const state: SessionState = { kind: 'idle' };
    await this.store.hset(
      keys.session(profile.id),
      { profile: JSON.stringify(profile), state: JSON.stringify(state), speed: String(speed) },
      ttl,
    );
  }

  async exists(id: string): Promise<boolean> {
    return this.store.exists(keys.session(id));
  }

  /** Loads a session and reconciles its state with the log; null when it does not exist. */
  async load(id: string): Promise<SessionRecord | null> {
    const fields = await this.store.hgetall(keys.session(id));
    if (!fields.profile || !fields.state) return null;
    const stored = readJsonRecord(fields.profile, ProfileJson, { key: `${keys.session(id)} profile`, logger: this.logger });
    if (!stored) return null;
    const profile: SessionProfile = {
      id: stored.id,
      materialId: stored.materialId,
      nickname: stored.nickname,
      createdAt: stored.createdAt,
      ...(stored.classId ? { classId: stored.classId } : {}),
    };
    // Not yet through readJsonRecord: the state, log and transcript have no zod schemas (the state's HandDialogue is
    // being reshaped into a discriminated union); they are written only by this repository from typed values.
    let state = JSON.parse(fields.state) as SessionState;
    const log = await this.store.xread(keys.sessionLog(id), '0');
    let seq = 0;
    let reached: { chapter: number; offset: number } | undefined;
    for (const entry of log) {
      seq = Math.max(seq, Number(entry.fields.s ?? 0));
      if (entry.fields.to !== undefined && entry.fields.c !== undefined) {
        reached = { chapter: Number(entry.fields.c), offset: Number(entry.fields.to) };
      }
    }
    if (state.kind === 'streaming' && reached && reached.chapter === state.chapter && reached.offset > state.offset) {
      state = { ...state, offset: reached.offset };
    }
    if (state.kind === 'paused' && state.previous.kind === 'streaming' && reached) {
      const previous = state.previous;
      if (reached.chapter === previous.chapter && reached.offset > previous.offset) {
        state = { ...state, previous: { ...previous, offset: reached.offset } };
      }
    }
    return { profile, state, speed: Number(fields.speed ?? 25), seq };
  }

  async saveState(id: string, state: SessionState): Promise<void> {
    await this.store.hset(keys.session(id), { state: JSON.stringify(state) }, ttl);
  }

  async saveSpeed(id: string, speed: number): Promise<void> {
    await this.store.hset(keys.session(id), { speed: String(speed) }, ttl);
  }

  /** Records an event before it is emitted; `reached` marks the lecture source offset a delta brings the student to. */
  async appendLog(id: string, logged: LoggedEvent, reached?: { chapter: number; offset: number }): Promise<void> {
    await this.store.xadd(
      keys.sessionLog(id),
      {
        s: String(logged.seq),
        e: JSON.stringify(logged.event),
        ...(reached ? { c: String(reached.chapter), to: String(reached.offset) } : {}),
      },
      { maxLen: SESSION_LOG_MAX, ...ttl },
    );
  }

  async readLog(id: string): Promise<LoggedEvent[]> {
    const entries = await this.store.xread(keys.sessionLog(id), '0');
    return entries.map((entry) => ({ seq: Number(entry.fields.s), event: JSON.parse(entry.fields.e ?? '{}') as TutorEvent }));
  }

  async appendTranscript(id: string, item: TranscriptItem): Promise<void> {
    await this.store.xadd(keys.sessionTranscript(id), { i: JSON.stringify(item) }, ttl);
  }

  async readTranscript(id: string): Promise<TranscriptItem[]> {
    const entries = await this.store.xread(keys.sessionTranscript(id), '0');
    return entries.map((entry) => JSON.parse(entry.fields.i ?? '{}') as TranscriptItem);
  }

  /**
   * Keeps an active session's keys alive when it is attached. Refreshing only: every write already sets the TTL, so a
   * key that does not exist yet (a log before the first event) gets its TTL when it is created.
   */
  async touch(id: string): Promise<void> {
    await Promise.all([
      this.store.expire(keys.session(id), SESSION_TTL_MS),
      this.store.expire(keys.sessionLog(id), SESSION_TTL_MS),
      this.store.expire(keys.sessionTranscript(id), SESSION_TTL_MS),
    ]);
  }
}
