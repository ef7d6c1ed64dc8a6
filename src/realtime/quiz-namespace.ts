import { authorizeToken, TokenRefusal, type TokenSigner } from '../auth/index.js';
import type { CredentialChecks } from '../ownership/index.js';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { HOST_COMMANDS, QUIZ_COMMANDS } from '../protocol/quiz.js';
import type { HostCommand, QuizCommands } from '../protocol/wire/quiz.js';
import type { RoomMember, RoomRuntime, RoomService } from '../quiz/index.js';
import { handshakeToken } from './auth.js';
import { clientAddress } from './client-address.js';
import { httpStatusOf, isWrongCode, type JoinAttempts } from '../boundary/index.js';
import { IdentityBuckets, type CommandLimit } from './command-limits.js';
import { commandsOf } from './commands.js';
import { connectRefusal } from './connect-refusal.js';
import { socketMember } from './quiz-member.js';
import { TokenBucket } from './rate-limiter.js';
import type { QuizNamespace, QuizSocket, QuizSocketData } from './socket-types.js';

export interface QuizJoinLimit {
  /** Join attempts per client address: burst, then per second. A classroom behind one NAT joins at once. */
  capacity: number;
  refillPerSecond: number;
}

/**
 * `/quiz`: live rooms. A socket without a token is a guest that may only `room:join`; a host token (from
 * `POST /api/rooms`) or player token (from `room:join`) in the handshake makes it that room's host or player.
 * The middleware runs on recovered connections too, and a kicked player's token is refused. Every host command
 * is registered on every socket and refused unless the socket is this room's host: the server decides.
 */
export function registerQuizNamespace(
  namespace: QuizNamespace,
  deps: {
    rooms: RoomService;
    runtime: RoomRuntime;
    signer: TokenSigner;
    /** host tokens name their account; it must own the room and be active, on every use. */
    checks: CredentialChecks;
    logger: Logger;
    joinLimit: QuizJoinLimit;
    /** room codes guessed per address, shared by every node (failures cost more). */
    joinAttempts?: JoinAttempts;
    /** command budget per host/player identity, shared by its sockets on this node. */
    commandLimit?: CommandLimit;
  },
): void {
  const { rooms, runtime, signer, logger } = deps;
  const joinBuckets = new AddressBuckets(deps.joinLimit);
  const commandBuckets = deps.commandLimit ? new IdentityBuckets(deps.commandLimit) : undefined;

  namespace.use((socket, next) => {
    authenticate(socket, signer, rooms, deps.checks).then(
      () => next(),
      (error: unknown) => next(connectRefusal(error)),
    );
  });

  namespace.on('connection', (socket: QuizSocket) => {
    // The runtime's view of this socket once it is a host or a player (RoomMember: no socket.io in the runtime).
    let member: RoomMember | undefined;
    const sendState = async (entered: RoomMember) => {
      entered.send('room:state', await runtime.snapshot(entered));
      // Through the adapter, unlike every other quiz frame: with the Redis streams adapter this is the frame that
      // carries a stream offset, without which a dropped connection could never be recovered (on any node).
      socket.emit('room:recoverable', {});
    };
    const enter = async () => {
      // A socket gone before it entered (it left right after joining) must not be registered after its detach.
      if (socket.disconnected) return;
      member = socketMember(socket);
      if (!member) return;
      const entered = member;
      await runtime.attach(entered);
      await sendState(entered);
    };
    let joining = false;
    if (socket.data.role !== 'guest') {
      enter().catch((error: unknown) => {
        logger.warn({ err: error }, 'quiz socket could not enter its room');
        socket.disconnect(true);
      });
    }
    socket.on('disconnect', () => {
      if (member) runtime.detach(member);
    });

    // A guest has no identity yet: its own socket is the budget until it joins (room:join is limited per address).
    const identity = () => {
      const data = socket.data;
      return data.role === 'player' ? `player:${data.roomId}:${data.playerId}` : data.role === 'host' ? `host:${data.roomId}` : `socket:${socket.id}`;
    };
    const on = commandsOf<QuizCommands, QuizSocket>(socket, QUIZ_COMMANDS, {
      logger,
      ...(commandBuckets ? { shared: { buckets: commandBuckets, identity } } : {}),
    });
    on('room:join', async ({ code, nickname }) => {
      // One join per socket at a time: two racing joins would leave an orphan player counted in the room.
      if (socket.data.role !== 'guest' || joining) {
        throw new AppError(ErrorCode.FORBIDDEN, '이미 방에 들어와 있습니다. 다른 방은 새 연결로 들어가세요.');
      }
      if (!joinBuckets.take(clientAddress(socket))) {
        throw new AppError(ErrorCode.RATE_LIMITED, '입장 시도가 너무 많습니다. 잠시 후 다시 시도해 주세요.');
      }
      joining = true;
      const joined = await (async () => {
        const attempt = await deps.joinAttempts?.begin(clientAddress(socket));
        return rooms.join(code, nickname).catch(async (error: unknown) => {
          // A wrong code costs more than a join, so guessing codes runs dry quickly.
          if (error instanceof AppError && isWrongCode(httpStatusOf(error))) await attempt?.failed().catch(() => undefined);
          throw error;
        });
      })().finally(() => {
        joining = false;
      });
      socket.data = { role: 'player', roomId: joined.roomId, playerId: joined.playerId, nickname };
      // The ack goes first (with the token the client keeps for reconnects), then the room state.
      setImmediate(() => {
        enter().catch((error: unknown) => logger.warn({ err: error }, 'joined player could not enter its room'));
      });
      return joined;
    });

    on('answer:submit', async (payload) => {
      const data = socket.data;
      if (data.role !== 'player') throw new AppError(ErrorCode.FORBIDDEN, '참가자만 답할 수 있습니다.');
      return rooms.submit(data.roomId, data.playerId, payload, runtime.cachedPhase(data.roomId));
    });

    on('team:pick', async ({ team }) => {
      const data = socket.data;
      if (data.role !== 'player') throw new AppError(ErrorCode.FORBIDDEN, '참가자만 팀을 고를 수 있습니다.', { status: 403 });
      return rooms.pickTeam(data.roomId, data.playerId, team);
    });

    // Every host command is registered on every socket and refused unless the socket is this room's host.
    const hostCommand = (command: HostCommand) =>
      on(command, async (payload) => {
        const data = socket.data;
        if (data.role !== 'host') throw new AppError(ErrorCode.FORBIDDEN, '진행자만 할 수 있는 일입니다.');
        // The account may have been disabled, or the room deleted, since the handshake: refused at once.
        await deps.checks.hostToken({ kind: 'host', sub: data.roomId, scope: data.accountId, iat: data.issuedAt });
        return rooms.command(data.roomId, command, payload);
      });
    for (const command of Object.keys(HOST_COMMANDS) as HostCommand[]) hostCommand(command);
  });
}

/** Checks the handshake token (if any) and fills `socket.data`. */
async function authenticate(socket: QuizSocket, signer: TokenSigner, rooms: RoomService, checks: CredentialChecks): Promise<void> {
  const token = handshakeToken(socket);
  if (token === undefined || token === null || token === '') {
    // A socket that joined as a guest and then dropped comes back (connection-state recovery) with its restored
    // data but without a token in its handshake: it stays that player only if the room still has it.
    const restored = socket.recovered ? socket.data : undefined;
    if (restored?.role === 'player') {
      const player = await rooms.repository.player(restored.roomId, restored.playerId);
      if (player?.kicked) throw new AppError(ErrorCode.KICKED);
      if (player) return;
    }
    socket.data = { role: 'guest' };
    return;
  }
  const payload = authorizeToken(signer, token, ['player', 'host']);
  const { kind, sub, scope } = payload;
  let data: QuizSocketData;
  if (kind === 'host') {
    const accountId = await checks.hostToken(payload);
    await rooms.meta(sub);
    data = { role: 'host', roomId: sub, accountId, issuedAt: payload.iat };
  } else {
    // Every player token is signed with its room as scope: one without is not a token we issued.
    if (!scope) throw new TokenRefusal('malformed', ['player', 'host']);
    const player = await rooms.repository.player(scope, sub);
    if (!player) throw new AppError(ErrorCode.PLAYER_NOT_FOUND);
    if (player.kicked) throw new AppError(ErrorCode.KICKED);
    data = { role: 'player', roomId: scope, playerId: sub, nickname: player.nickname };
  }
  socket.data = data;
}

/** Token buckets per client address, forgotten after a minute of silence so the map stays small. */
class AddressBuckets {
  private readonly buckets = new Map<string, { bucket: TokenBucket; seen: number }>();
  private sweptAt = Date.now();

  constructor(private readonly limit: QuizJoinLimit) {}

  take(address: string): boolean {
    const now = Date.now();
    if (now - this.sweptAt > 60_000) {
      for (const [key, entry] of this.buckets) if (now - entry.seen > 60_000) this.buckets.delete(key);
      this.sweptAt = now;
    }
    let entry = this.buckets.get(address);
    if (!entry) this.buckets.set(address, (entry = { bucket: new TokenBucket(this.limit.capacity, this.limit.refillPerSecond), seen: now }));
    entry.seen = now;
    return entry.bucket.take();
  }
}
