import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { OwnershipRepository } from '../ownership/index.js';
import { keys, type Store } from '../store/index.js';

/** What deletion needs of a live room's fixed record (the quiz folder writes it; see quiz/room-repository.ts). */
const LiveMeta = z.object({ classId: z.string(), quizId: z.string().optional(), code: z.string(), items: z.array(z.unknown()) });
const LivePhase = z.object({ phase: z.string() });
const StoredResults = z.object({ classId: z.string(), quizId: z.string().optional(), totalQuestions: z.number().int().min(0) });

export interface RoomOwner {
  roomId: string;
  classId: string;
  quizId?: string | undefined;
}

/**
 * Deletion of quiz rooms: the live state while it lasts (room hash, code, players, nicknames, presence, answers per
 * question, events, driver and transition leases, the active-rooms entry) and what is kept without expiry (results,
 * list entry, the class's index entry, the retention queue entry, usage). A room still being played is refused
 * (409 ROOM_LIVE): its driver would write it again; the host ends it first.
 */
export class RoomDeletion {
  private readonly ownership: OwnershipRepository;

  constructor(private readonly store: Store) {
    this.ownership = new OwnershipRepository(store);
  }

  /** The class a room belongs to, from its live record or (once that expired) its results; null when neither exists. */
  async owner(roomId: string): Promise<RoomOwner | null> {
    const live = await this.liveMeta(roomId);
    if (live) return { roomId, classId: live.classId, quizId: live.quizId };
    const results = await this.results(roomId);
    return results ? { roomId, classId: results.classId, quizId: results.quizId } : null;
  }

  /** Deletes the room; false when there was nothing of it. Throws ROOM_LIVE while it is played. */
  async delete(roomId: string): Promise<boolean> {
    const { store } = this;
    const [meta, phase, results] = await Promise.all([this.liveMeta(roomId), store.hget(keys.room(roomId), 'phase'), this.results(roomId)]);
    if (!meta && !results) return false;
    if (meta && isLive(phase)) throw roomLive();
    const classId = meta?.classId ?? results?.classId ?? '';
    const questions = Math.max(meta?.items.length ?? 0, results?.totalQuestions ?? 0);
    if (meta) {
      // The code is freed only if it still names this room (codes are reused after the room's TTL).
      if ((await store.get(keys.roomCode(meta.code))) === roomId) await store.del(keys.roomCode(meta.code));
    }
    await store.del(
      keys.room(roomId),
      keys.roomPlayers(roomId),
      keys.roomNicknames(roomId),
      keys.roomPresence(roomId),
      keys.roomEvents(roomId),
      keys.roomDriver(roomId),
      keys.roomTransition(roomId),
      keys.roomResults(roomId),
      keys.roomSummary(roomId),
      keys.usage('room', roomId),
      ...Array.from({ length: questions }, (_, index) => keys.roomAnswers(roomId, index)),
    );
    await store.zrem(keys.activeRooms(), roomId);
    await store.zrem(keys.retentionRooms(), roomId);
    if (classId) await store.zrem(keys.classRooms(classId), roomId);
    await this.ownership.forgetRoom(roomId, meta?.quizId ?? results?.quizId);
    return true;
  }

  /** Whether the room is being played (any phase but 'ended' while its live record lasts). */
  async isLive(roomId: string): Promise<boolean> {
    return isLive(await this.store.hget(keys.room(roomId), 'phase'));
  }

  private async liveMeta(roomId: string) {
    const raw = await this.store.hget(keys.room(roomId), 'meta');
    const parsed = raw === null ? null : LiveMeta.safeParse(safeJson(raw));
    return parsed?.success ? parsed.data : null;
  }

  private async results(roomId: string) {
    const raw = await this.store.get(keys.roomResults(roomId));
    const parsed = raw === null ? null : StoredResults.safeParse(safeJson(raw));
    return parsed?.success ? parsed.data : null;
  }
}

const isLive = (phase: string | null) => {
  const parsed = phase === null ? null : LivePhase.safeParse(safeJson(phase));
  return parsed?.success === true && parsed.data.phase !== 'ended';
};

export const roomLive = () => new AppError(ErrorCode.ROOM_LIVE);

/** A corrupt value is treated as absent (what cannot be read is still deleted by key). */
export function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}
