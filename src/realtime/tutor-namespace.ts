import type { Namespace, Socket } from 'socket.io';
import type { TokenSigner } from '../auth/index.js';
import { toWireError } from '../errors.js';
import type { LectureService, SessionActor } from '../lecture/index.js';
import type { Logger } from '../logger.js';
import { TUTOR_COMMANDS } from '../protocol/tutor.js';
import { socketAuth, type AuthedSocketData } from './auth.js';
import { emitLocal } from './local-emit.js';
import { onEvent } from './on-event.js';
import { classRoom, sessionRoom } from './rooms.js';

export { sessionRoom };

/** Told when a class member's socket comes and goes (ClassMonitor satisfies it). */
export interface StudentPresence {
  studentConnected(student: { id: string; classId: string }): void;
  studentDisconnected(student: { id: string; classId: string }): void;
}

/**
 * `/tutor`: one student's session per socket (several sockets of one session share its actor). Events go to the
 * session's room on this node only: the actor lives where the sockets are, and the lecture's high-rate deltas
 * never need to cross the adapter. A class member's socket also joins the class room, where announcements arrive
 * from any node.
 */
export function registerTutorNamespace(
  namespace: Namespace,
  deps: {
    lectures: LectureService;
    signer: TokenSigner;
    logger: Logger;
    presence?: StudentPresence;
    /** Several nodes share an adapter: a reconnecting session may be held by another node. */
    multiNode?: boolean;
  },
): void {
  const { lectures, logger } = deps;
  namespace.use(socketAuth(deps.signer, ['session']));
  // A session reconnecting to this node while another node holds it in grace asks that node to let go.
  if (deps.multiNode) lectures.onReleaseRequest((sessionId) => namespace.serverSideEmit('session:release', sessionId));
  namespace.on('session:release', (sessionId: unknown) => {
    if (typeof sessionId === 'string') void lectures.release(sessionId);
  });

  namespace.on('connection', (socket: Socket) => {
    const { sub: sessionId, scope: classId } = (socket.data as AuthedSocketData).token;
    const room = sessionRoom(sessionId);
    // The socket joins the session's room only once it is caught up (session:resume) or gives its first command,
    // so live events never overtake the replay it asked for.
    let joined = false;
    const join = (actor: SessionActor) => {
      if (!joined) {
        joined = true;
        void socket.join(room);
      }
      actor.wake();
    };
    if (classId) void socket.join(classRoom(classId));
    const port = { emit: (event: string, payload: object) => namespace.local.to(room).emit(event, payload) };
    const ready: Promise<SessionActor> = lectures.attach(sessionId, port);
    // Presence counts only sockets whose session exists and that are still there once it is attached.
    let present = false;
    ready.then(
      () => {
        if (!classId || !deps.presence || socket.disconnected) return;
        present = true;
        deps.presence.studentConnected({ id: sessionId, classId });
      },
      (error: unknown) => {
        const { body } = toWireError(error);
        // Local: the last word before a disconnect must not wait on the adapter (see emitLocal).
        emitLocal(socket, 'session:error', { seq: 0, ...body });
        socket.disconnect(true);
      },
    );
    socket.on('disconnect', () => {
      if (present && classId) deps.presence?.studentDisconnected({ id: sessionId, classId });
      ready.then(
        () => lectures.detach(sessionId),
        () => undefined,
      );
    });

    const options = { logger };
    const withActor =
      <T, R extends object>(run: (actor: SessionActor, payload: T) => Promise<R>) =>
      async (payload: T) => {
        const actor = await ready;
        // While the store is away the session holds; a command would change nothing that lasts.
        actor.assertStore();
        join(actor);
        return run(actor, payload);
      };
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
    onEvent(socket, 'hand:raise', TUTOR_COMMANDS['hand:raise'], withActor((actor) => actor.raiseHand()), options);
    onEvent(
      socket,
      'hand:ask',
      TUTOR_COMMANDS['hand:ask'],
      withActor((actor, payload: { text: string }) => actor.askHand(payload.text)),
      options,
    );
    onEvent(
      socket,
      'hand:reply',
      TUTOR_COMMANDS['hand:reply'],
      withActor((actor, payload: { text: string }) => actor.replyHand(payload.text)),
      options,
    );
    onEvent(socket, 'hand:lower', TUTOR_COMMANDS['hand:lower'], withActor((actor) => actor.lowerHand()), options);
    onEvent(
      socket,
      'session:resume',
      TUTOR_COMMANDS['session:resume'],
      // The replay goes to the asking socket only; it joins the room inside the session's event queue, right after.
      async (payload: { lastSeq: number }) => {
        const actor = await ready;
        actor.assertStore();
        const outcome = await actor.catchUp(
          payload.lastSeq,
          { emit: (event, data) => socket.emit(event, data) },
          () => {
            joined = true;
            void socket.join(room);
          },
        );
        actor.wake();
        return outcome;
      },
      options,
    );
  });
}
