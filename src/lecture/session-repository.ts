import { z } from 'zod';
import type { Logger } from '../kernel/index.js';
import { RETENTION, readJsonRecord, type Store } from '../store/index.js';
import type { TranscriptItem, TutorEvent } from '../protocol/wire/tutor.js';
import type { SessionState } from './session-state.js';
import { lectureKeys } from './lecture-keys.js';

/** How long an untouched self-study session is kept (its record, log and transcript): every write sets it again. */
export const SESSION_TTL_MS = RETENTION.sessionMs;
/** Sessions whose keep-time this node knows (learned at create and load); bounded, oldest forgotten first. */
const KNOWN_TTLS_MAX = 50_000;
/** Events kept for replay; a client further behind gets a snapshot instead. */
export const SESSION_LOG_MAX = 2_000;

export interface SessionProfile {
  id: string;
  materialId: string;
  nickname: string;
  classId?: string;
  createdAt: number;
  /** the account the session's model calls are billed to (the class's owner; the account itself for a preview). */
  billTo?: string;
}

export interface SessionRecord {
  profile: SessionProfile;
  state: SessionState;
  speed: number;
  /** seq of the last event sent. */
  seq: number;
}

/** An instructor's direct reply to the student's raised hand (`hand:reply` on /monitor). */
export interface InstructorReply {
  text: string;
  sentAt: number;
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
  billTo: z.string().optional(),
});

/**
 * Persistence of tutoring sessions. The log is the source of truth for what the student was sent: a lecture
 * delta's entry carries the source offset it reached, so a session reloaded after a crash continues exactly after
 * the last text the student could have seen (no gap, no duplicate), without writing the state on every delta.
 */
export class SessionRepository {
  private readonly knownTtls = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly logger?: Logger,
    /**
     * How long a class student's session is kept after its last write: the deployment's RETENTION_DAYS, so an
     * instructor can review and export a class's answers and hand dialogues for the whole term. A self-study session
     * (no class, nobody to review it) keeps {@link SESSION_TTL_MS}.
     */
    private readonly classSessionTtlMs: number = SESSION_TTL_MS,
  ) {}

  async create(profile: SessionProfile, speed: number): Promise<void> {
    const state: SessionState = { kind: 'idle' };
    await this.store.hset(
      lectureKeys.session(profile.id),
      { profile: JSON.stringify(profile), state: JSON.stringify(state), speed: String(speed) },
      { ttlMs: this.remember(profile) },
    );
  }

  /** The session's keep-time, from its profile: every write sets it, so a write never shortens a class session's life. */
  private remember(profile: Pick<SessionProfile, 'id'> & { classId?: string | undefined }): number {
    const ttlMs = profile.classId === undefined ? SESSION_TTL_MS : Math.max(SESSION_TTL_MS, this.classSessionTtlMs);
    this.knownTtls.delete(profile.id);
    this.knownTtls.set(profile.id, ttlMs);
    if (this.knownTtls.size > KNOWN_TTLS_MAX) this.knownTtls.delete(this.knownTtls.keys().next().value!);
    return ttlMs;
  }

  /** The write options of a session's keys; a session this node has not seen yet is read once. */
  private async ttl(id: string): Promise<{ ttlMs: number }> {
    const known = this.knownTtls.get(id);
    if (known !== undefined) return { ttlMs: known };
    const raw = await this.store.hget(lectureKeys.session(id), 'profile');
    const profile = readJsonRecord(raw, ProfileJson, { key: lectureKeys.session(id), logger: this.logger });
    return { ttlMs: profile ? this.remember(profile) : SESSION_TTL_MS };
  }

  async exists(id: string): Promise<boolean> {
    return this.store.exists(lectureKeys.session(id));
  }

  /** Loads a session and reconciles its state with the log; null when it does not exist. */
  async load(id: string): Promise<SessionRecord | null> {
    const fields = await this.store.hgetall(lectureKeys.session(id));
    if (!fields.profile || !fields.state) return null;
    const stored = readJsonRecord(fields.profile, ProfileJson, { key: `${lectureKeys.session(id)} profile`, logger: this.logger });
    if (!stored) return null;
    const profile: SessionProfile = {
      id: stored.id,
      materialId: stored.materialId,
      nickname: stored.nickname,
      createdAt: stored.createdAt,
      ...(stored.classId ? { classId: stored.classId } : {}),
      // Kept across reloads: a session resumed on another node (or after a restart) still bills its class's owner.
      ...(stored.billTo ? { billTo: stored.billTo } : {}),
    };
    this.remember(profile);
    // Not yet through readJsonRecord: the state, log and transcript have no zod schemas (the state's HandDialogue is
    // being reshaped into a discriminated union); they are written only by this repository from typed values.
    let state = JSON.parse(fields.state) as SessionState;
    const log = await this.store.xread(lectureKeys.sessionLog(id), '0');
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
    await this.store.hset(lectureKeys.session(id), { state: JSON.stringify(state) }, await this.ttl(id));
  }

  async saveSpeed(id: string, speed: number): Promise<void> {
    await this.store.hset(lectureKeys.session(id), { speed: String(speed) }, await this.ttl(id));
  }

  /** Records an event before it is emitted; `reached` marks the lecture source offset a delta brings the student to. */
  async appendLog(id: string, logged: LoggedEvent, reached?: { chapter: number; offset: number }): Promise<void> {
    await this.store.xadd(
      lectureKeys.sessionLog(id),
      {
        s: String(logged.seq),
        e: JSON.stringify(logged.event),
        ...(reached ? { c: String(reached.chapter), to: String(reached.offset) } : {}),
      },
      { maxLen: SESSION_LOG_MAX, ...(await this.ttl(id)) },
    );
  }

  async readLog(id: string): Promise<LoggedEvent[]> {
    const entries = await this.store.xread(lectureKeys.sessionLog(id), '0');
    return entries.map((entry) => ({ seq: Number(entry.fields.s), event: JSON.parse(entry.fields.e ?? '{}') as TutorEvent }));
  }

  async appendTranscript(id: string, item: TranscriptItem): Promise<void> {
    await this.store.xadd(lectureKeys.sessionTranscript(id), { i: JSON.stringify(item) }, await this.ttl(id));
  }

  async readTranscript(id: string): Promise<TranscriptItem[]> {
    const entries = await this.store.xread(lectureKeys.sessionTranscript(id), '0');
    return entries.map((entry) => JSON.parse(entry.fields.i ?? '{}') as TranscriptItem);
  }

  /** Leaves an instructor's reply for the session's driver (whichever node that is, or the next one). */
  async postInstructorReply(id: string, reply: InstructorReply): Promise<void> {
    await this.store.xadd(lectureKeys.sessionInbox(id), { t: reply.text, at: String(reply.sentAt) }, await this.ttl(id));
  }

  /** Instructor replies not delivered yet, oldest first, each with its inbox id for `markDelivered`. */
  async pendingInstructorReplies(id: string): Promise<(InstructorReply & { entryId: string })[]> {
    const delivered = (await this.store.hget(lectureKeys.session(id), 'inbox')) ?? '0';
    const entries = await this.store.xread(lectureKeys.sessionInbox(id), delivered);
    return entries.map((entry) => ({ entryId: entry.id, text: entry.fields.t ?? '', sentAt: Number(entry.fields.at ?? 0) }));
  }

  async markDelivered(id: string, entryId: string): Promise<void> {
    await this.store.hset(lectureKeys.session(id), { inbox: entryId }, await this.ttl(id));
  }

  /** One page of the transcript, oldest first; `cursor` is the stream id of the last item of the previous page. */
  async transcriptPage(id: string, cursor: string | undefined, limit: number): Promise<{ items: TranscriptItem[]; nextCursor: string | null }> {
    const entries = await this.store.xread(lectureKeys.sessionTranscript(id), cursor ?? '0', limit + 1);
    const page = entries.slice(0, limit);
    return {
      items: page.map((entry) => JSON.parse(entry.fields.i ?? '{}') as TranscriptItem),
      nextCursor: entries.length > limit ? (page.at(-1)?.id ?? null) : null,
    };
  }

  /**
   * Keeps an active session's keys alive when it is attached. Refreshing only: every write already sets the TTL, so a
   * key that does not exist yet (a log before the first event) gets its TTL when it is created.
   */
  async touch(id: string): Promise<void> {
    const { ttlMs } = await this.ttl(id);
    await Promise.all([
      this.store.expire(lectureKeys.session(id), ttlMs),
      this.store.expire(lectureKeys.sessionLog(id), ttlMs),
      this.store.expire(lectureKeys.sessionTranscript(id), ttlMs),
      this.store.expire(lectureKeys.sessionInbox(id), ttlMs),
    ]);
  }}
