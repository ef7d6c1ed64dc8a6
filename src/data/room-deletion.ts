import { deleteUsage } from '../llm/index.js';
import { OwnershipRepository } from '../ownership/index.js';
import { quizLifecycle, type RoomOwner } from '../quiz/index.js';
import type { Store } from '../store/index.js';

export { roomLive } from '../quiz/index.js';
export type { RoomOwner } from '../quiz/index.js';

/**
 * Deletion of quiz rooms: the quiz folder deletes the room's keys (live state, results, list entry, index entries;
 * see quizLifecycle.deleteRoom), then its usage counters and its ownership go. A room still being played is refused
 * (ROOM_LIVE): its driver would write it again; the host ends it first.
 */
export class RoomDeletion {
  private readonly ownership: OwnershipRepository;

  constructor(private readonly store: Store) {
    this.ownership = new OwnershipRepository(store);
  }

  /** The class a room belongs to, from its live record or (once that expired) its results; null when neither exists. */
  owner(roomId: string): Promise<RoomOwner | null> {
    return quizLifecycle.roomOwner(this.store, roomId);
  }

  /** Deletes the room; false when there was nothing of it. Throws ROOM_LIVE while it is played. */
  async delete(roomId: string): Promise<boolean> {
    const owner = await quizLifecycle.deleteRoom(this.store, roomId);
    if (!owner) return false;
    await deleteUsage(this.store, 'room', [roomId]);
    await this.ownership.forgetRoom(roomId, owner.quizId);
    return true;
  }

  /** Whether the room is being played (any phase but 'ended' while its live record lasts). */
  isLive(roomId: string): Promise<boolean> {
    return quizLifecycle.isRoomLive(this.store, roomId);
  }
}
