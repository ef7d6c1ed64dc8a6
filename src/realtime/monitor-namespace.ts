import type { Namespace, Server, Socket } from 'socket.io';
import type { ClassMonitor, ClassService, MonitorPort } from '../classroom/index.js';
import type { TokenSigner } from '../auth/index.js';
import { toWireError } from '../errors.js';
import type { Logger } from '../logger.js';
import { MONITOR_COMMANDS } from '../protocol/classroom.js';
import { socketAuth, type AuthedSocketData } from './auth.js';
import { emitLocal } from './local-emit.js';
import { onEvent } from './on-event.js';
import { classRoom, sessionRoom } from './rooms.js';

/**
 * The monitor's outlet. Every emit goes through the namespace (not `.local`), so with the Redis streams adapter
 * it reaches the instructors and students of the class on every node.
 */
export function createMonitorPort(io: Server): MonitorPort {
  return {
    toInstructors: (classId, event, payload) => io.of('/monitor').to(classRoom(classId)).emit(event, payload),
    toStudents: (classId, event, payload) => io.of('/tutor').to(classRoom(classId)).emit(event, payload),
    toSession: (sessionId, event, payload) => io.of('/tutor').to(sessionRoom(sessionId)).emit(event, payload),
  };
}

/**
 * `/monitor`: one instructor of one class per socket. The handshake needs an instructor token; the class is the
 * token's, so every command acts on that class only and is authorised here, on the server.
 */
export function registerMonitorNamespace(
  namespace: Namespace,
  deps: { monitor: ClassMonitor; classes: ClassService; signer: TokenSigner; logger: Logger },
): void {
  const { monitor, classes, logger } = deps;
  namespace.use(socketAuth(deps.signer, ['instructor']));

  namespace.on('connection', (socket: Socket) => {
    const classId = (socket.data as AuthedSocketData).token.sub;
    // Join before reading the roster: an event racing the read is then seen twice (harmless upserts), never missed.
    void socket.join(classRoom(classId));
    // A recovered connection got the events it missed replayed; a roster on top would only repeat them.
    if (!socket.recovered) {
      classes.info(classId).then(
        ({ classId: id, name, code, students }) => socket.emit('class:roster', { classId: id, name, code, students }),
        (error: unknown) => {
          emitLocal(socket, 'monitor:error', toWireError(error).body);
          socket.disconnect(true);
        },
      );
    }

    const options = { logger };
    onEvent(socket, 'class:announce', MONITOR_COMMANDS['class:announce'], ({ text }) => monitor.announce(classId, text), options);
    onEvent(
      socket,
      'hand:acknowledge',
      MONITOR_COMMANDS['hand:acknowledge'],
      ({ sessionId }) => monitor.acknowledge(classId, sessionId),
      options,
    );
  });
}
