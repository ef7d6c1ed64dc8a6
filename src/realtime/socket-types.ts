import type { Namespace, Server, Socket } from 'socket.io';
import type { MonitorCommands, MonitorServerEvents } from '../protocol/wire/classroom.js';
import type { CommandListeners, EventListeners } from '../protocol/wire/events.js';
import type { JobsCommands, JobsServerEvents } from '../protocol/wire/jobs.js';
import type { QuizCommands, QuizServerEvents } from '../protocol/wire/quiz.js';
import type { TutorCommands, TutorSocketEvents } from '../protocol/wire/tutor.js';
import type { AuthedSocketData } from './auth.js';

/**
 * socket.io's four generics for each namespace, derived from the wire maps (src/protocol/wire/namespaces.ts): what
 * a socket may receive (commands with their acks), what it may be sent, what nodes tell each other, and what the
 * handshake middleware leaves on `socket.data`. Handlers get these types, so an event name or payload that is not
 * in the protocol does not compile.
 */

/** Between the nodes of one deployment (`serverSideEmit`), never seen by a client. */
export interface TutorInterServerEvents {
  /** A session reconnected to another node: the node holding it in grace lets it go. */
  'session:release': (sessionId: string) => void;
  /** An instructor's reply waits in the session's inbox: the node driving the session delivers it. */
  'session:inbox': (sessionId: string) => void;
}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type NoInterServerEvents = {};

export type TutorNamespace = Namespace<CommandListeners<TutorCommands>, EventListeners<TutorSocketEvents>, TutorInterServerEvents, AuthedSocketData>;
export type TutorSocket = Socket<CommandListeners<TutorCommands>, EventListeners<TutorSocketEvents>, TutorInterServerEvents, AuthedSocketData>;

export type MonitorNamespace = Namespace<CommandListeners<MonitorCommands>, EventListeners<MonitorServerEvents>, NoInterServerEvents, AuthedSocketData>;
export type MonitorSocket = Socket<CommandListeners<MonitorCommands>, EventListeners<MonitorServerEvents>, NoInterServerEvents, AuthedSocketData>;

/** What a `/quiz` socket is, kept on `socket.data` (restored with it by connection-state recovery). */
export type QuizSocketData =
  | { role: 'guest' }
  | {
      role: 'host';
      roomId: string;
      /** the host token's account (scope), checked again on every command. */
      accountId: string;
      /** When the host token was signed: checked against the account's sessions ending on every command. */
      issuedAt?: number | undefined;
    }
  | { role: 'player'; roomId: string; playerId: string; nickname: string };

export type QuizNamespace = Namespace<CommandListeners<QuizCommands>, EventListeners<QuizServerEvents>, NoInterServerEvents, QuizSocketData>;
export type QuizSocket = Socket<CommandListeners<QuizCommands>, EventListeners<QuizServerEvents>, NoInterServerEvents, QuizSocketData>;

export type JobsNamespace = Namespace<CommandListeners<JobsCommands>, EventListeners<JobsServerEvents>, NoInterServerEvents, AuthedSocketData>;
export type JobsSocket = Socket<CommandListeners<JobsCommands>, EventListeners<JobsServerEvents>, NoInterServerEvents, AuthedSocketData>;

export interface TypedNamespaces {
  tutor: TutorNamespace;
  monitor: MonitorNamespace;
  quiz: QuizNamespace;
  jobs: JobsNamespace;
}

/**
 * The four namespaces with their protocol's generics. socket.io types a server's namespaces alike, so this is the
 * one place where each namespace is given its own maps.
 */
export function typedNamespaces(io: Server): TypedNamespaces {
  return {
    tutor: io.of('/tutor') as unknown as TutorNamespace,
    monitor: io.of('/monitor') as unknown as MonitorNamespace,
    quiz: io.of('/quiz') as unknown as QuizNamespace,
    jobs: io.of('/jobs') as unknown as JobsNamespace,
  };
}
