import type { QuizServerEvents } from '../protocol/wire/quiz.js';
import type { PayloadJson, RoomMember } from '../quiz/index.js';
import { emitJsonLocal, emitLocal } from './local-emit.js';
import type { QuizSocket } from './socket-types.js';

/**
 * The quiz runtime's `RoomMember` for a `/quiz` socket that is a host or a player (undefined for a guest). Frames
 * leave from this node only (`emitLocal`): they need no replay, every (re)connection gets a full `room:state`.
 */
export function socketMember(socket: QuizSocket): RoomMember | undefined {
  const data = socket.data;
  if (data.role === 'guest') return undefined;
  const connection = {
    id: socket.id,
    roomId: data.roomId,
    send: <E extends keyof QuizServerEvents>(event: E, payload: QuizServerEvents[E]) => emitLocal(socket, event, payload),
    sendJson: <E extends keyof QuizServerEvents>(event: E, json: PayloadJson<QuizServerEvents[E]>) => emitJsonLocal(socket, event, json),
    close: () => void socket.disconnect(true),
  };
  return data.role === 'host'
    ? { ...connection, role: 'host' }
    : { ...connection, role: 'player', playerId: data.playerId, nickname: data.nickname };
}
