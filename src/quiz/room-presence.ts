import { type NodeLiveness, type Store } from '../store/index.js';
import { ROOM_TTL_MS } from './room-repository.js';
import { quizKeys } from './quiz-keys.js';

/**
 * Which players of a room have a live socket: one hash entry per socket (`nodeId|socketId` -> player id), written by
 * the node holding the socket. Entries of a node without a heartbeat (it crashed) are stale: ignored and removed.
 */
export class RoomPresence {
  constructor(
    private readonly store: Store,
    private readonly liveness: NodeLiveness,
  ) {}

  async add(roomId: string, socketId: string, playerId: string): Promise<void> {
    await this.store.hset(quizKeys.roomPresence(roomId), { [this.field(socketId)]: playerId }, { ttlMs: ROOM_TTL_MS });
  }

  async remove(roomId: string, socketId: string): Promise<void> {
    await this.store.hdel(quizKeys.roomPresence(roomId), this.field(socketId));
  }

  /** Ids of the players with at least one socket on a living node. */
  async connectedPlayers(roomId: string): Promise<Set<string>> {
    const key = quizKeys.roomPresence(roomId);
    const connected = new Set<string>();
    const stale: string[] = [];
    for (const [field, playerId] of Object.entries(await this.store.hgetall(key))) {
      if (await this.liveness.isAlive(field.slice(0, field.indexOf('|')))) connected.add(playerId);
      else stale.push(field);
    }
    if (stale.length > 0) await this.store.hdel(key, ...stale);
    return connected;
  }

  private field(socketId: string): string {
    return `${this.liveness.nodeId}|${socketId}`;
  }
}
