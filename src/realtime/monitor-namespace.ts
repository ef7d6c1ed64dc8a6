import type { Server } from 'socket.io';
import type { CredentialChecks } from '../ownership/index.js';
import type { ClassMonitor, ClassService, MonitorPort } from '../classroom/index.js';
import type { TokenSigner } from '../auth/index.js';
import { toWireError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { MONITOR_COMMANDS } from '../protocol/classroom.js';
import type { MonitorCommands } from '../protocol/wire/classroom.js';
import { socketAuth, type AuthedSocketData } from './auth.js';
import { connectRefusal } from './connect-refusal.js';
import { IdentityBuckets, type CommandLimit } from './command-limits.js';
import { commandsOf } from './commands.js';
import { genericEmit } from './generic-emit.js';
import { emitLocal } from './local-emit.js';
import { classRoom, sessionRoom } from './rooms.js';
import { typedNamespaces, type MonitorNamespace, type MonitorSocket } from './socket-types.js';

/**
 * The monitor's outlet. Every emit goes through the namespace (not `.local`), so with the Redis streams adapter
 * it reaches the instructors and students of the class on every node.
 */
export function createMonitorPort(io: Server): MonitorPort {
  const { monitor, tutor } = typedNamespaces(io);
  return {
    toInstructors: (classId, event, payload) => genericEmit(monitor.to(classRoom(classId)))(event, payload),
    toStudents: (classId, event, payload) => genericEmit(tutor.to(classRoom(classId)))(event, payload),
    toSession: (sessionId, event, payload) => genericEmit(tutor.to(sessionRoom(sessionId)))(event, payload),
  };
}

/**
 * `/monitor`: one instructor of one class per socket. The handshake needs an instructor token; the class is the
 * token's, so every command acts on that class only and is authorised here, on the server.
 */
export function registerMonitorNamespace(
  namespace: MonitorNamespace,
  deps: {
    monitor: ClassMonitor;
    classes: ClassService;
    signer: TokenSigner;
    /** the token's account must own the class and be active, at the handshake and on every command. */
    checks: CredentialChecks;
    logger: Logger;
    /** command budget per class instructor, shared by every monitor socket of that class on this node. */
    commandLimit?: CommandLimit;
  },
): void {
  const { monitor, classes, logger } = deps;
  const commandBuckets = deps.commandLimit ? new IdentityBuckets(deps.commandLimit) : undefined;
  namespace.use(socketAuth(deps.signer, ['instructor']));
  // Beyond the signature (new and recovered connections alike): scope, the class's owner, the account's status.
  namespace.use((socket, next) => {
    deps.checks.classToken((socket.data as AuthedSocketData).token).then(
      () => next(),
      (error: unknown) => next(connectRefusal(error)),
    );
  });

  namespace.on('connection', (socket: MonitorSocket) => {
    const classId = socket.data.token.sub;
    // Join before reading the roster: an event racing the read is then seen twice (harmless upserts), never missed.
    void socket.join(classRoom(classId));
    // A recovered connection got the events it missed replayed; a roster on top would only repeat them.
    if (!socket.recovered) {
      classes.info(classId).then(
        ({ classId: id, name, code, closedAt, students }) => socket.emit('class:roster', { classId: id, name, code, closedAt, students }),
        (error: unknown) => {
          emitLocal(socket, 'monitor:error', toWireError(error).body);
          socket.disconnect(true);
        },
      );
    }

    const commands = commandsOf<MonitorCommands, MonitorSocket>(socket, MONITOR_COMMANDS, {
      logger,
      ...(commandBuckets ? { shared: { buckets: commandBuckets, identity: () => `class:${classId}` } } : {}),
    });
    // Every command checks the token again: a disabled account or a deleted class stops here at once.
    const token = socket.data.token;
    const on: typeof commands = (name, handler) =>
      commands(name, async (payload) => {
        await deps.checks.classToken(token);
        return handler(payload);
      });
    on('class:announce', ({ text }) => monitor.announce(classId, text));
    on('hand:acknowledge', ({ sessionId }) => monitor.acknowledge(classId, sessionId));
    on('student:transcript', (request) => classes.transcript(classId, request));
    on('hand:reply', ({ sessionId, text }) => classes.replyToHand(classId, sessionId, text));
    on('class:close', () => classes.close(classId));
    on('class:rotate-code', () => classes.rotateCode(classId));
  });
}
