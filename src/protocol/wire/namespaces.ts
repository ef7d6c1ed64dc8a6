import type { MonitorCommands, MonitorServerEvents } from './classroom.js';
import type { JobsCommands, JobsServerEvents } from './jobs.js';
import type { QuizCommands, QuizServerEvents } from './quiz.js';
import type { TutorCommands, TutorSocketEvents } from './tutor.js';

/**
 * The whole socket protocol, by namespace: what a client may send (`commands`, each with its payload and ack result)
 * and what it receives (`events`, each with its payload). The server's `Namespace`/`Socket` generics and the
 * browser client are both derived from this one table.
 */
export interface Namespaces {
  '/tutor': { commands: TutorCommands; events: TutorSocketEvents };
  '/monitor': { commands: MonitorCommands; events: MonitorServerEvents };
  '/quiz': { commands: QuizCommands; events: QuizServerEvents };
  '/jobs': { commands: JobsCommands; events: JobsServerEvents };
}
export type NamespaceName = keyof Namespaces;

/**
 * The handshake `auth` every client sends. `protocolVersion` is `PROTOCOL_VERSION` of the client's build; `token` is
 * the namespace's token (optional only on `/quiz`, where a guest joins with `room:join`).
 */
export interface HandshakeAuth {
  protocolVersion: number;
  token?: string;
}
