import type { TokenSigner } from '../auth/index.js';
import { toWireError } from '../kernel/index.js';
import type { LectureService, SessionActor, SessionPort } from '../lecture/index.js';
import type { Logger } from '../kernel/index.js';
import { TUTOR_COMMANDS } from '../protocol/tutor.js';
import type { TutorCommands } from '../protocol/wire/tutor.js';
import { socketAuth } from './auth.js';
import { IdentityBuckets, type CommandLimit } from './command-limits.js';
import { commandsOf } from './commands.js';
import { genericEmit } from './generic-emit.js';
import { emitLocal } from './local-emit.js';
import { classRoom, sessionRoom } from './rooms.js';
import type { TutorNamespace, TutorSocket } from './socket-types.js';

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
  namespace: TutorNamespace,
  deps: {
    lectures: LectureService;
    signer: TokenSigner;
    logger: Logger;
    presence?: StudentPresence;
    /** command budget per session, shared by every socket of that session on this node. */
    commandLimit?: CommandLimit;
    /** Several nodes share an adapter: a reconnecting session may be held by another node. */
    multiNode?: boolean;
  },
): void {
  const { lectures, logger } = deps;
  const commandBuckets = deps.commandLimit ? new IdentityBuckets(deps.commandLimit) : undefined;
  namespace.use(socketAuth(deps.signer, ['session']));
  // A session reconnecting to this node while another node holds it in grace asks that node to let go.
  if (deps.multiNode) lectures.onReleaseRequest((sessionId) => namespace.serverSideEmit('session:release', sessionId));
  namespace.on('session:release', (sessionId: unknown) => {
    if (typeof sessionId === 'string') void lectures.release(sessionId);
  });

  // An instructor's reply was left in a session's inbox on another node: deliver it if this node drives the session.
  if (deps.multiNode) lectures.onInboxPost((sessionId) => namespace.serverSideEmit('session:inbox', sessionId));
  namespace.on('session:inbox', (sessionId: unknown) => {
    if (typeof sessionId === 'string') void lectures.deliverInbox(sessionId);
  });

  namespace.on('connection', (socket: TutorSocket) => {
    const { sub: sessionId, scope: classId } = socket.data.token;
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
    const port = sessionPort(namespace.local.to(room));
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

    const on = commandsOf<TutorCommands, TutorSocket>(socket, TUTOR_COMMANDS, {
      logger,
      ...(commandBuckets ? { shared: { buckets: commandBuckets, identity: () => `session:${sessionId}` } } : {}),
    });
    const withActor =
      <T, R extends object>(run: (actor: SessionActor, payload: T) => Promise<R>) =>
      async (payload: T) => {
        const actor = await ready;
        // While the store is away the session holds; a command would change nothing that lasts.
        actor.assertStore();
        join(actor);
        return run(actor, payload);
      };
    on('lecture:start', withActor((actor) => actor.start()));
    on('lecture:pause', withActor((actor) => actor.pause()));
    on('lecture:resume', withActor((actor) => actor.resume()));
    on('lecture:speed', withActor((actor, { tokensPerSecond }) => actor.setSpeed(tokensPerSecond)));
    on('answer:submit', withActor((actor, { questionId, text }) => actor.submitAnswer(questionId, text)));
    on('answer:self-assess', withActor((actor, { questionId, choice }) => actor.selfAssess(questionId, choice)));
    on('hand:raise', withActor((actor) => actor.raiseHand()));
    on('hand:ask', withActor((actor, { text }) => actor.askHand(text)));
    on('hand:reply', withActor((actor, { text }) => actor.replyHand(text)));
    on('hand:lower', withActor((actor) => actor.lowerHand()));
    // The replay goes to the asking socket only; it joins the room inside the session's event queue, right after.
    on('session:resume', async ({ lastSeq }) => {
      const actor = await ready;
      actor.assertStore();
      const outcome = await actor.catchUp(lastSeq, sessionPort(socket), () => {
        joined = true;
        void socket.join(room);
      });
      actor.wake();
      return outcome;
    });
  });
}

/** A session's outbound port on a socket.io target: the session's room here, or one socket for a replay. */
function sessionPort(target: { emit(...args: never[]): boolean }): SessionPort {
  const emit = genericEmit(target);
  return { emit: (event, payload) => emit(event, payload) };
}
