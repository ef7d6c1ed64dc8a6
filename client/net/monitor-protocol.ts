import type { AcknowledgePayload, AnnouncePayload, MonitorServerEvents } from '../../src/protocol/classroom.js';
import type { TypedSocket } from './socket.js';

/** `/monitor` as the instructor's page sees it: the class's live events and the two instructor commands. */
export type MonitorCommands = {
  /** `at`: when the server sent the announcement. */
  'class:announce': { payload: AnnouncePayload; result: { at: number } };
  'hand:acknowledge': { payload: AcknowledgePayload; result: { at: number } };
};

export type MonitorSocket = TypedSocket<MonitorServerEvents, MonitorCommands>;
