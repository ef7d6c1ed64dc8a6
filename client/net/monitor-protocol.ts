import type { MonitorCommands } from '../../src/protocol/wire/index.js';
import type { NamespaceSocket } from './socket.js';

/** `/monitor` as the instructor's page sees it: the class's live events and the instructor's commands. */
export type { MonitorCommands };
export type MonitorSocket = NamespaceSocket<'/monitor'>;
