import { storeKey as key } from '../store/index.js';

/**
 * Ownership's store keys: who owns each class, quiz, room and material, each account's lists, and the rooms made for
 * a quiz; durable (no TTL), deleted with the thing they name.
 */
export const ownershipKeys = {
  /** The account owning a class, quiz or room (string: account id); no TTL, deleted with the thing. */
  ownerOf: (kind: 'class' | 'quiz' | 'room', id: string) => key('owner', kind, id),
  /** The accounts owning a material (hash: account id -> ms it became theirs; content-addressed: one PDF, many owners); no TTL. */
  materialOwners: (materialId: string) => key('material', materialId, 'owners'),
  /** An account's classes, quizzes, rooms or materials (sorted set of ids scored by creation time): "내 수업" and the rest; no TTL. */
  accountOwned: (accountId: string, kind: 'classes' | 'quizzes' | 'rooms' | 'materials') => key('account', accountId, 'owned', kind),
  /** The rooms made for a quiz (sorted set of room ids scored by creation time); no TTL. */
  quizRooms: (quizId: string) => key('quiz', quizId, 'rooms'),
};
