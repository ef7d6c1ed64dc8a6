import type { z } from 'zod';
import type { MONITOR_COMMANDS, MonitorServerEvents } from '../../src/protocol/classroom.js';
import type { Assert, SameKeys, TypedSocket } from './socket.js';

/** What the instructor sends: the input of the server's own zod schema (types only). */
type Payload<K extends keyof typeof MONITOR_COMMANDS> = z.input<(typeof MONITOR_COMMANDS)[K]>;

/** `/monitor` as the instructor's page sees it: the class's live events and the two instructor commands. */
export type MonitorCommands = {
  /** `at`: when the server sent the announcement. */
  'class:announce': { payload: Payload<'class:announce'>; result: { at: number } };
  'hand:acknowledge': { payload: Payload<'hand:acknowledge'>; result: { at: number } };
};

/** Fails to compile when the server gains or loses a command this map does not list. */
export type MonitorCommandsCoverServer = Assert<SameKeys<MonitorCommands, typeof MONITOR_COMMANDS>>;

export type MonitorSocket = TypedSocket<MonitorServerEvents, MonitorCommands>;
