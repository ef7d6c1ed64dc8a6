import type { QuizCommands } from '../../src/protocol/wire/index.js';
import type { NamespaceSocket } from './socket.js';

/** `/quiz` as the host's and the players' pages see it: the room's events and every command with its ack. */
export type { QuizCommands };
export type QuizSocket = NamespaceSocket<'/quiz'>;
