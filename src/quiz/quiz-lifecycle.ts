import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { drainIndex, readIndex, type ScoredMember, type Store } from '../store/index.js';
import type { AnswerResult } from '../protocol/quiz.js';
import { withAnswers, type RoomResults } from './room-results.js';
import { quizKeys } from './quiz-keys.js';

/** What deletion needs of a live room's fixed record (see room-repository.ts). */
const LiveMeta = z.object({ classId: z.string(), quizId: z.string().optional(), code: z.string(), items: z.array(z.unknown()) });
const LivePhase = z.object({ phase: z.string() });
const StoredResults = z.object({ classId: z.string(), quizId: z.string().optional(), totalQuestions: z.number().int().min(0) });
// An item's `image` is an uploaded picture's id or a material's page ({kind: 'page', materialId, page}).
const StoredQuiz = z.object({ classId: z.string(), items: z.array(z.object({ image: z.unknown().optional() }).loose()).catch([]) });
const PageImage = z.object({ kind: z.literal('page'), materialId: z.string() });

/** A corrupt value is treated as absent (what cannot be read is still deleted by key). */
function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

const isLive = (phase: string | null) => {
  const parsed = phase === null ? null : LivePhase.safeParse(safeJson(phase));
  return parsed?.success === true && parsed.data.phase !== 'ended';
};

async function liveMeta(store: Store, roomId: string) {
  const raw = await store.hget(quizKeys.room(roomId), 'meta');
  const parsed = raw === null ? null : LiveMeta.safeParse(safeJson(raw));
  return parsed?.success ? parsed.data : null;
}

async function storedResults(store: Store, roomId: string) {
  const raw = await store.get(quizKeys.roomResults(roomId));
  const parsed = raw === null ? null : StoredResults.safeParse(safeJson(raw));
  return parsed?.success ? parsed.data : null;
}

const StoredHead = z.object({ closedQuestions: z.number().int().min(0), questions: z.array(z.object({ type: z.string().optional() }).loose()), players: z.array(z.object({ playerId: z.string() }).loose()) }).loose();
const StoredPart = z.record(z.string(), z.record(z.string(), z.unknown()));

/** A results head's JSON with its per-question results joined in (withAnswers over loosely read records). */
function joinedResults(raw: string | null, parts: Record<string, string>): string | null {
  if (raw === null || Object.keys(parts).length === 0) return raw;
  const head = StoredHead.safeParse(safeJson(raw));
  if (!head.success) return raw;
  const history: Array<ReadonlyMap<string, AnswerResult>> = [];
  for (const [field, part] of Object.entries(parts)) {
    const parsed = StoredPart.safeParse(safeJson(part));
    if (parsed.success) history[Number(field)] = new Map(Object.entries(parsed.data) as unknown as Array<[string, AnswerResult]>);
  }
  return JSON.stringify(withAnswers(head.data as unknown as RoomResults, history));
}

export interface RoomOwner {
  roomId: string;
  classId: string;
  quizId?: string | undefined;
}

export const roomLive = () => new AppError(ErrorCode.ROOM_LIVE);

/**
 * What the data lifecycle (src/data/: deletion, retention, export) needs of quizzes, quiz rooms and self-study items.
 * data/ orders the steps and adds what other owners hold (ownership, quotas, usage); the keys are this folder's.
 */
export const quizLifecycle = {
  /** The oldest rooms whose results are kept (oldest first, scored by their last results write): the purge's queue. */
  async retainedRooms(store: Store, count: number): Promise<ScoredMember[]> {
    return store.zrange(quizKeys.retentionRooms(), 0, count - 1);
  },

  /** Takes a room off the purge's queue (its results are gone). */
  async forgetRetained(store: Store, roomId: string): Promise<void> {
    await store.zrem(quizKeys.retentionRooms(), roomId);
  },

  /** Puts a room back on the purge's queue, to be looked at again from `at` on. */
  async retainAgain(store: Store, roomId: string, at: number): Promise<void> {
    await store.zadd(quizKeys.retentionRooms(), at, roomId);
  },

  /** The class a room belongs to, from its live record or (once that expired) its results; null when neither exists. */
  async roomOwner(store: Store, roomId: string): Promise<RoomOwner | null> {
    const live = await liveMeta(store, roomId);
    if (live) return { roomId, classId: live.classId, quizId: live.quizId };
    const results = await storedResults(store, roomId);
    return results ? { roomId, classId: results.classId, quizId: results.quizId } : null;
  },

  /** Whether the room is being played (any phase but 'ended' while its live record lasts). */
  isRoomLive: async (store: Store, roomId: string): Promise<boolean> => isLive(await store.hget(quizKeys.room(roomId), 'phase')),

  /**
   * A room's keys: the live state while it lasts (room hash, code, players, nicknames, presence, answers per
   * question, events, driver and transition leases, the active-rooms entry) and what is kept without expiry (results
   * and their per-question part, list entry, the class's index entry, the retention queue entry). A room still being played is refused (ROOM_LIVE):
   * its driver would write it again; the host ends it first. Returns its owner, or null when there was nothing of it.
   */
  async deleteRoom(store: Store, roomId: string): Promise<RoomOwner | null> {
    const [meta, phase, results] = await Promise.all([liveMeta(store, roomId), store.hget(quizKeys.room(roomId), 'phase'), storedResults(store, roomId)]);
    if (!meta && !results) return null;
    if (meta && isLive(phase)) throw roomLive();
    const classId = meta?.classId ?? results?.classId ?? '';
    const questions = Math.max(meta?.items.length ?? 0, results?.totalQuestions ?? 0);
    // The code is freed only if it still names this room (codes are reused after the room's TTL).
    if (meta && (await store.get(quizKeys.roomCode(meta.code))) === roomId) await store.del(quizKeys.roomCode(meta.code));
    await store.del(
      quizKeys.room(roomId),
      quizKeys.roomPlayers(roomId),
      quizKeys.roomNicknames(roomId),
      quizKeys.roomPresence(roomId),
      quizKeys.roomEvents(roomId),
      quizKeys.roomDriver(roomId),
      quizKeys.roomTransition(roomId),
      quizKeys.roomResults(roomId),
      quizKeys.roomQuestionResults(roomId),
      quizKeys.roomSummary(roomId),
      ...Array.from({ length: questions }, (_, index) => quizKeys.roomAnswers(roomId, index)),
    );
    await store.zrem(quizKeys.activeRooms(), roomId);
    await store.zrem(quizKeys.retentionRooms(), roomId);
    if (classId) await store.zrem(quizKeys.classRooms(classId), roomId);
    return { roomId, classId, quizId: meta?.quizId ?? results?.quizId };
  },

  /** Whether any room of the class is being played (read a batch at a time; nothing is changed). */
  async anyLiveRoom(store: Store, classId: string): Promise<boolean> {
    let live = false;
    await readIndex(store, quizKeys.classRooms(classId), async (batch) => {
      for (const { member } of batch) if (!live && (await quizLifecycle.isRoomLive(store, member))) live = true;
    });
    return live;
  },

  /** Drains the class's room index a batch at a time (`each` deletes the rooms). */
  drainClassRooms: (store: Store, classId: string, each: (roomIds: string[]) => Promise<void>): Promise<void> => drainIndex(store, quizKeys.classRooms(classId), each),

  /**
   * The stored results (JSON text with every player's answers, null when gone) of the class's rooms in order, a batch
   * at a time: each head joined with its per-question results (room-results.ts); a corrupt part is left out.
   */
  readClassResults: (store: Store, classId: string, each: (results: { roomId: string; raw: string | null; key: string }[]) => Promise<void>): Promise<void> =>
    readIndex(store, quizKeys.classRooms(classId), async (batch) => {
      const raw = await store.mget(batch.map(({ member }) => quizKeys.roomResults(member)));
      const parts = await Promise.all(batch.map(({ member }, index) => (raw[index] ? store.hgetall(quizKeys.roomQuestionResults(member)) : {})));
      await each(batch.map(({ member }, index) => ({ roomId: member, raw: joinedResults(raw[index] ?? null, parts[index] ?? {}), key: quizKeys.roomResults(member) })));
    }),

  /** The class of the quiz, or null when there is no such quiz. */
  async quizClass(store: Store, quizId: string): Promise<string | null> {
    const raw = await store.get(quizKeys.quiz(quizId));
    const parsed = raw === null ? null : StoredQuiz.safeParse(safeJson(raw));
    return parsed?.success ? parsed.data.classId : null;
  },

  /** The uploaded pictures the quiz's items show (ids, each once); none when there is no such quiz. */
  async quizImages(store: Store, quizId: string): Promise<string[]> {
    const raw = await store.get(quizKeys.quiz(quizId));
    const parsed = raw === null ? null : StoredQuiz.safeParse(safeJson(raw));
    const items = parsed?.success ? parsed.data.items : [];
    return [...new Set(items.flatMap((item) => (typeof item.image === 'string' ? [item.image] : [])))];
  },

  /** The materials whose pages the quiz's items show as pictures (each once); none when there is no such quiz. */
  async quizPageMaterials(store: Store, quizId: string): Promise<string[]> {
    const raw = await store.get(quizKeys.quiz(quizId));
    const parsed = raw === null ? null : StoredQuiz.safeParse(safeJson(raw));
    const items = parsed?.success ? parsed.data.items : [];
    return [...new Set(items.flatMap((item) => PageImage.safeParse(item.image).data?.materialId ?? []))];
  },

  /** The quizzes showing a page of the material as a picture (ids). */
  pictureQuizzes: async (store: Store, materialId: string): Promise<string[]> =>
    (await store.zrange(quizKeys.materialPictureQuizzes(materialId), 0, -1)).map(({ member }) => member),

  /**
   * The quiz (items with solutions), its list entry, its class's index entry and its entries among the quizzes
   * showing a material's page; whether there was a quiz.
   */
  async deleteQuiz(store: Store, quizId: string, classId: string | null): Promise<boolean> {
    for (const materialId of await quizLifecycle.quizPageMaterials(store, quizId)) await store.zrem(quizKeys.materialPictureQuizzes(materialId), quizId);
    const removed = await store.del(quizKeys.quiz(quizId), quizKeys.quizSummary(quizId), quizKeys.classQuizItems(quizId));
    if (classId) await store.zrem(quizKeys.classQuizzes(classId), quizId);
    return removed > 0;
  },

  /** Drains the class's quiz index a batch at a time (`each` deletes the quizzes). */
  drainClassQuizzes: (store: Store, classId: string, each: (quizIds: string[]) => Promise<void>): Promise<void> => drainIndex(store, quizKeys.classQuizzes(classId), each),

  /** The self-study items served to a class's students (with their recorded answers). */
  deleteByClass: (store: Store, classId: string): Promise<void> => deleteSelfQuizzes(store, 'class', classId),

  /**
   * The self-study items served from a material (with their recorded answers), and its list of quizzes showing its
   * pages (a material goes only when no owner is left: those quizzes then show their alt text instead).
   */
  async deleteByMaterial(store: Store, materialId: string): Promise<void> {
    await deleteSelfQuizzes(store, 'material', materialId);
    await store.del(quizKeys.materialPictureQuizzes(materialId));
  },
};

const deleteSelfQuizzes = (store: Store, owner: 'class' | 'material', id: string): Promise<void> =>
  drainIndex(store, quizKeys.selfQuizIndex(owner, id), async (quizIds) => {
    await store.del(...quizIds.map((quizId) => quizKeys.selfQuizItem(quizId)));
  });
