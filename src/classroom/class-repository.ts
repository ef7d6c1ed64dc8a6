import type { RosterEntry, SelfQuizScore } from '../protocol/classroom.js';
import { PAGE_LIMIT_MAX, type Page, type PageRequest } from '../protocol/page.js';
import { RETENTION, SINGLE_NODE, pageOfIndex, type NodeLiveness, type Store } from '../store/index.js';
import { classKeys } from './class-keys.js';

/**
 * Rosters are kept at least 30 days after the last write, and as long as the students' sessions are (RETENTION_DAYS,
 * see ClassRepository's `rosterTtlMs`), so an instructor can review and export a class for the whole term.
 */
export const ROSTER_TTL_MS = RETENTION.rosterMs;

export interface ClassRecord {
  id: string;
  name: string;
  code: string;
  materialId: string | null;
  createdAt: number;
  /** When the instructor closed the class (its code then admits no one); absent while open. */
  closedAt?: number;
  /** Students join only under a name of the class's roster (see rosterNames). */
  rosterRequired?: boolean;
}

/** Roster fields a monitor may write; the hand is three fields so a student's node and an instructor's never clobber each other. */
export interface StudentFields {
  chapter?: number;
  percent?: number;
  state?: string;
  lastVerdict?: 'good' | 'bad';
  badStreak?: number;
  handRaisedAt?: number;
  handQuestion?: string;
  handAcknowledged?: boolean;
  handAnswered?: boolean;
}

/** Case- and width-insensitive form of a nickname: "Alice", "alice" and "ａｌｉｃｅ" are one name in a class. */
export function foldNickname(nickname: string): string {
  return nickname.normalize('NFKC').toLowerCase();
}

/**
 * Classes and their rosters in the store. A roster entry is a hash of scalar fields, each written by the one party
 * that owns it (the node driving the session: progress, verdicts, the hand; each node holding sockets: its own
 * socket count via HINCRBY; an instructor: the acknowledgement), so no one read-modify-writes a shared blob.
 */
export class ClassRepository {
  constructor(
    private readonly store: Store,
    /** Socket counts are kept per node (`sockets@<nodeId>`); a dead node's count is ignored. */
    private readonly liveness: NodeLiveness = SINGLE_NODE,
    rosterTtlMs: number = ROSTER_TTL_MS,
  ) {
    this.ttl = { ttlMs: Math.max(ROSTER_TTL_MS, rosterTtlMs) };
  }

  private readonly ttl: { ttlMs: number };

  /** Reserves `code` for the class; false when another class holds it (first write wins). */
  reserveCode(code: string, classId: string): Promise<boolean> {
    return this.store.set(classKeys.classCode(code), classId, { nx: true });
  }

  async createClass(record: ClassRecord): Promise<void> {
    await this.store.hset(classKeys.classRecord(record.id), {
      name: record.name,
      code: record.code,
      createdAt: String(record.createdAt),
      ...(record.materialId ? { materialId: record.materialId } : {}),
      ...(record.rosterRequired ? { roster: '1' } : {}),
    });
  }

  /** How many students joined the class (the roster's length). */
  studentCount(id: string): Promise<number> {
    return this.store.zcard(classKeys.classStudents(id));
  }

  /** Makes the class admit only these names (replacing any earlier list); names already taken stay taken. */
  async setRosterNames(classId: string, names: readonly string[]): Promise<void> {
    const fields = Object.fromEntries(names.map((name) => [foldNickname(name), name]));
    await this.store.del(classKeys.classRosterNames(classId));
    await this.store.hset(classKeys.classRosterNames(classId), fields);
    await this.store.hset(classKeys.classRecord(classId), { roster: '1' });
  }

  /** The roster's names in the order written (folded name -> name as written); empty for a class without one. */
  async rosterNames(classId: string): Promise<Map<string, string>> {
    return new Map(Object.entries(await this.store.hgetall(classKeys.classRosterNames(classId))));
  }

  /** Which of these names are taken in the class (by a student's session or a join under way). */
  async namesTaken(classId: string, names: readonly string[]): Promise<boolean[]> {
    if (names.length === 0) return [];
    const holders = await this.store.hmget(classKeys.classNicknames(classId), names.map(foldNickname));
    return holders.map((holder) => holder !== null);
  }

  async findByCode(code: string): Promise<ClassRecord | null> {
    const id = await this.store.get(classKeys.classCode(code));
    return id ? this.getClass(id) : null;
  }

  async getClass(id: string): Promise<ClassRecord | null> {
    const fields = await this.store.hgetall(classKeys.classRecord(id));
    if (fields.name === undefined || fields.code === undefined) return null;
    return {
      id,
      name: fields.name,
      code: fields.code,
      materialId: fields.materialId ?? null,
      createdAt: Number(fields.createdAt ?? 0),
      ...(fields.closedAt !== undefined ? { closedAt: Number(fields.closedAt) } : {}),
      ...(fields.roster === '1' ? { rosterRequired: true } : {}),
    };
  }

  /** Marks the class closed; the first close wins (a second returns the time already stored). */
  async close(id: string, at: number): Promise<number> {
    const key = classKeys.classRecord(id);
    if (await this.store.hsetnx(key, 'closedAt', String(at))) return at;
    return Number((await this.store.hget(key, 'closedAt')) ?? at);
  }

  /**
   * Points the class at a new code it already reserved (reserveCode), then frees the old one, so the old code stops
   * admitting students as soon as the call returns. The old code is deleted only while it still names this class.
   */
  async replaceCode(id: string, oldCode: string, newCode: string): Promise<void> {
    await this.store.hset(classKeys.classRecord(id), { code: newCode });
    if ((await this.store.get(classKeys.classCode(oldCode))) === id) await this.store.del(classKeys.classCode(oldCode));
  }

  /** Takes a nickname for `holder` in the class; false when it is taken (see foldNickname). */
  async reserveNickname(classId: string, nickname: string, holder: string): Promise<boolean> {
    return this.store.hsetnx(classKeys.classNicknames(classId), foldNickname(nickname), holder, this.ttl);
  }

  async releaseNickname(classId: string, nickname: string): Promise<void> {
    await this.store.hdel(classKeys.classNicknames(classId), foldNickname(nickname));
  }

  async addStudent(classId: string, student: { sessionId: string; nickname: string; joinedAt: number }): Promise<void> {
    const entryKey = classKeys.classStudent(classId, student.sessionId);
    await this.store.hset(
      entryKey,
      {
        nickname: student.nickname,
        joinedAt: String(student.joinedAt),
        chapter: '-1',
        percent: '0',
        state: 'idle',
        badStreak: '0',
      },
      this.ttl,
    );
    // Ranked by a per-class join number, not by joinedAt: students who join in the same millisecond (a class
    // starting, two nodes) still list in the order their joins reached the store. HINCRBY is atomic across nodes.
    const place = await this.store.hincrby(classKeys.classRecord(classId), 'joins', 1);
    await this.store.zadd(classKeys.classStudents(classId), place, student.sessionId, this.ttl);
  }

  /** Whether the session is a student of the class (the check behind every instructor action on a student). */
  isStudent(classId: string, sessionId: string): Promise<boolean> {
    return this.store.exists(classKeys.classStudent(classId, sessionId));
  }

  async student(classId: string, sessionId: string): Promise<RosterEntry | null> {
    const fields = await this.store.hgetall(classKeys.classStudent(classId, sessionId));
    return toEntry(sessionId, fields, await this.connected(fields));
  }

  /** Connected when a live node counts a socket of the student (a crashed node's count does not). */
  private async connected(fields: Record<string, string>): Promise<boolean> {
    for (const [name, value] of Object.entries(fields)) {
      if (name.startsWith(SOCKETS_FIELD) && Number(value) > 0 && (await this.liveness.isAlive(name.slice(SOCKETS_FIELD.length)))) return true;
    }
    return false;
  }

  /**
   * Every student in join order (the monitor's snapshot), read a page at a time: never more than a page's worth of
   * reads in flight, however large the class, so a big roster does not hold up everyone else's commands.
   */
  async roster(classId: string): Promise<RosterEntry[]> {
    const all: RosterEntry[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.rosterPage(classId, { cursor, limit: PAGE_LIMIT_MAX });
      all.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return all;
  }

  /** One page of the roster, in join order. */
  async rosterPage(classId: string, page: PageRequest): Promise<Page<RosterEntry>> {
    const { members, nextCursor } = await pageOfIndex(this.store, classKeys.classStudents(classId), page, { reverse: false });
    const entries = await Promise.all(members.map((member) => this.student(classId, member)));
    return { items: entries.filter((entry): entry is RosterEntry => entry !== null), nextCursor };
  }

  async update(classId: string, sessionId: string, fields: StudentFields): Promise<void> {
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(fields) as [string, unknown][]) {
      if (value === undefined) continue;
      values[name] = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
    }
    if (Object.keys(values).length > 0) await this.store.hset(classKeys.classStudent(classId, sessionId), values, this.ttl);
  }

  async clearHand(classId: string, sessionId: string): Promise<void> {
    await this.store.hdel(classKeys.classStudent(classId, sessionId), 'handRaisedAt', 'handQuestion', 'handAcknowledged', 'handAnswered');
  }

  /**
   * Counts one first answer to a self-study item on the student's roster entry: HINCRBY, so answers
   * handled by several nodes at once all count. Null when the session is not on the class's roster.
   */
  async countSelfQuiz(classId: string, sessionId: string, correct: boolean): Promise<SelfQuizScore | null> {
    if (!(await this.isStudent(classId, sessionId))) return null;
    const entryKey = classKeys.classStudent(classId, sessionId);
    // The correct count first: a reader never sees more right answers than answers.
    const right = await this.store.hincrby(entryKey, 'selfQuizCorrect', correct ? 1 : 0, this.ttl);
    const answered = await this.store.hincrby(entryKey, 'selfQuizAnswered', 1, this.ttl);
    return { answered, correct: right };
  }

  /** Counts the student's sockets on this node; returns the new count. Refreshes the entry's TTL. */
  async addSockets(classId: string, sessionId: string, by: 1 | -1): Promise<number> {
    const entryKey = classKeys.classStudent(classId, sessionId);
    return this.store.hincrby(entryKey, SOCKETS_FIELD + this.liveness.nodeId, by, this.ttl);
  }
}

const SOCKETS_FIELD = 'sockets@';

function toEntry(sessionId: string, fields: Record<string, string>, connected: boolean): RosterEntry | null {
  if (fields.nickname === undefined) return null;
  const raisedAt = fields.handRaisedAt === undefined ? undefined : Number(fields.handRaisedAt);
  return {
    sessionId,
    nickname: fields.nickname,
    connected,
    chapter: Number(fields.chapter ?? -1),
    percent: Number(fields.percent ?? 0),
    state: fields.state ?? 'idle',
    lastVerdict: fields.lastVerdict === 'good' || fields.lastVerdict === 'bad' ? fields.lastVerdict : null,
    badStreak: Number(fields.badStreak ?? 0),
    hand:
      raisedAt === undefined
        ? null
        : {
            raisedAt,
            question: fields.handQuestion ?? null,
            acknowledged: fields.handAcknowledged === '1',
            answered: fields.handAnswered === '1',
          },
    ...(fields.selfQuizAnswered === undefined
      ? {}
      : { selfQuiz: { answered: Number(fields.selfQuizAnswered), correct: Number(fields.selfQuizCorrect ?? 0) } }),
  };
}
