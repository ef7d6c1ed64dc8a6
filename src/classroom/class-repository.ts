import type { RosterEntry } from '../protocol/classroom.js';
import { PAGE_LIMIT_MAX, type Page, type PageRequest } from '../protocol/page.js';
import { RETENTION, SINGLE_NODE, keys, pageOfIndex, type NodeLiveness, type Store } from '../store/index.js';

/** Rosters outlive the sessions in them (30 days after the last write) so an instructor can still review a class. */
export const ROSTER_TTL_MS = RETENTION.rosterMs;
const ttl = { ttlMs: ROSTER_TTL_MS };

export interface ClassRecord {
  id: string;
  name: string;
  code: string;
  materialId: string | null;
  createdAt: number;
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
  ) {}

  /** Reserves `code` for the class; false when another class holds it (first write wins). */
  reserveCode(code: string, classId: string): Promise<boolean> {
    return this.store.set(keys.classCode(code), classId, { nx: true });
  }

  async createClass(record: ClassRecord): Promise<void> {
    await this.store.hset(keys.classRecord(record.id), {
      name: record.name,
      code: record.code,
      createdAt: String(record.createdAt),
      ...(record.materialId ? { materialId: record.materialId } : {}),
    });
  }

  async findByCode(code: string): Promise<ClassRecord | null> {
    const id = await this.store.get(keys.classCode(code));
    return id ? this.getClass(id) : null;
  }

  async getClass(id: string): Promise<ClassRecord | null> {
    const fields = await this.store.hgetall(keys.classRecord(id));
    if (fields.name === undefined || fields.code === undefined) return null;
    return {
      id,
      name: fields.name,
      code: fields.code,
      materialId: fields.materialId ?? null,
      createdAt: Number(fields.createdAt ?? 0),
    };
  }

  /** Takes a nickname for `holder` in the class; false when it is taken (see foldNickname). */
  async reserveNickname(classId: string, nickname: string, holder: string): Promise<boolean> {
    return this.store.hsetnx(keys.classNicknames(classId), foldNickname(nickname), holder, ttl);
  }

  async releaseNickname(classId: string, nickname: string): Promise<void> {
    await this.store.hdel(keys.classNicknames(classId), foldNickname(nickname));
  }

  async addStudent(classId: string, student: { sessionId: string; nickname: string; joinedAt: number }): Promise<void> {
    const entryKey = keys.classStudent(classId, student.sessionId);
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
      ttl,
    );
    await this.store.zadd(keys.classStudents(classId), student.joinedAt, student.sessionId, ttl);
  }

  /** Whether the session is a student of the class (the check behind every instructor action on a student). */
  isStudent(classId: string, sessionId: string): Promise<boolean> {
    return this.store.exists(keys.classStudent(classId, sessionId));
  }

  async student(classId: string, sessionId: string): Promise<RosterEntry | null> {
    const fields = await this.store.hgetall(keys.classStudent(classId, sessionId));
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
    const { members, nextCursor } = await pageOfIndex(this.store, keys.classStudents(classId), page, { reverse: false });
    const entries = await Promise.all(members.map((member) => this.student(classId, member)));
    return { items: entries.filter((entry): entry is RosterEntry => entry !== null), nextCursor };
  }

  async update(classId: string, sessionId: string, fields: StudentFields): Promise<void> {
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(fields) as [string, unknown][]) {
      if (value === undefined) continue;
      values[name] = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
    }
    if (Object.keys(values).length > 0) await this.store.hset(keys.classStudent(classId, sessionId), values, ttl);
  }

  async clearHand(classId: string, sessionId: string): Promise<void> {
    await this.store.hdel(keys.classStudent(classId, sessionId), 'handRaisedAt', 'handQuestion', 'handAcknowledged');
  }

  /** Counts the student's sockets on this node; returns the new count. Refreshes the entry's TTL. */
  async addSockets(classId: string, sessionId: string, by: 1 | -1): Promise<number> {
    const entryKey = keys.classStudent(classId, sessionId);
    return this.store.hincrby(entryKey, SOCKETS_FIELD + this.liveness.nodeId, by, ttl);
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
        : { raisedAt, question: fields.handQuestion ?? null, acknowledged: fields.handAcknowledged === '1' },
  };
}
