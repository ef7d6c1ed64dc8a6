import type { Namespace, Socket } from 'socket.io';
import type { TokenSigner } from '../classroom/tokens.js';
import { toWireError } from '../errors.js';
import type { LectureService } from '../lecture/lecture-service.js';
import type { SessionActor } from '../lecture/session-actor.js';
import type { Logger } from '../logger.js';
import { TUTOR_COMMANDS } from '../protocol/tutor.js';
import { socketAuth, type AuthedSocketData } from './auth.js';
import { onEvent } from './on-event.js';

export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/**
 * `/tutor`: one student's session per socket (several sockets of one session share its actor). Events go to the
 * session's room on this node only: the actor lives where the sockets are, and the lecture's high-rate deltas
 * never need to cross the adapter.
 */
export function registerTutorNamespace(
  namespace: Namespace,
  deps: { lectures: LectureService; signer: TokenSigner; logger: Logger },
): void {
  const { lectures, logger } = deps;
  namespace.use(socketAuth(deps.signer, ['session']));

  namespace.on('connection', (socket: Socket) => {
    const sessionId = (socket.data as AuthedSocketData).token.sub;
    const room = sessionRoom(sessionId);
    void socket.join(room);
    const port = { emit: (event: string, payload: object) => namespace.local.to(room).emit(event, payload) };
    const ready: Promise<SessionActor> = lectures.attach(sessionId, port);
    ready.then(
      () => undefined,
      (error: unknown) => {
        const { body } = toWireError(error);
        socket.emit('session:error', { seq: 0, ...body });
        socket.disconnect(true);
      },
    );
    socket.on('disconnect', () => {
      ready.then(
        () => lectures.detach(sessionId),
        () => undefined,
      );
    });

    const options = { logger };
    const withActor =
      <T, R extends object>(run: (actor: SessionActor, payload: T) => Promise<R>) =>
      async (payload: T) =>
        run(await ready, payload);
    onEvent(socket, 'lecture:start', TUTOR_COMMANDS['lecture:start'], withActor((actor) => actor.start()), options);
    onEvent(socket, 'lecture:pause', TUTOR_COMMANDS['lecture:pause'], withActor((actor) => actor.pause()), options);
    onEvent(socket, 'lecture:resume', TUTOR_COMMANDS['lecture:resume'], withActor((actor) => actor.resume()), options);
    onEvent(
      socket,
      'lecture:speed',
      TUTOR_COMMANDS['lecture:speed'],
      withActor((actor, payload: { tokensPerSecond: number }) => actor.setSpeed(payload.tokensPerSecond)),
      options,
    );
    onEvent(
      socket,
      'answer:submit',
      TUTOR_COMMANDS['answer:submit'],
      withActor((actor, payload: { questionId: string; text: string }) => actor.submitAnswer(payload.questionId, payload.text)),
      options,
    );
    onEvent(
      socket,
      'session:resume',
      TUTOR_COMMANDS['session:resume'],
            // The replay goes to the asking socket only; other tabs of the session are already up to date.
      withActor((actor, payload: { lastSeq: number }) =>
        actor.catchUp(payload.lastSeq, { emit: (event, data) => socket.emit(event, data) }),
      ),
      options,
    );
  });
}
