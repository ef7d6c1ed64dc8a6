/**
 * socket.io: the server, the /tutor, /monitor, /quiz and /jobs namespaces, and the Redis adapter's connections.
 * - Typed from the wire maps (socket-types.ts); the protocol version check is every namespace's first middleware and
 *   runs on recovered connections too (skipMiddlewares: false); tokens are checked by auth/'s one refusal mapping.
 * - Every command goes through commandsOf (commands.ts): a token bucket per identity shared by its sockets on the node
 *   (command-limits.ts), the zod schema, the ack, errors as wire codes in one place.
 * - socket-caps.ts counts engine.io connections per address on the node (TOO_MANY_SOCKETS past the cap).
 * - adapter-connections.ts tracks the streams adapter's Redis commands (which the library fires without handling),
 *   so shutdown waits for them and a dropped rejection is logged, not thrown.
 * - Domain ports are adapted here (quiz-member.ts for RoomMember, the session and monitor ports); realtime/ never
 *   imports http/: what both need is in boundary/.
 */
export { AdapterConnections } from './adapter-connections.js';
export { createMonitorPort, registerMonitorNamespace } from './monitor-namespace.js';
export { registerQuizNamespace } from './quiz-namespace.js';
export { createSocketServer } from './socket-server.js';
export { typedNamespaces } from './socket-types.js';
export { registerTutorNamespace } from './tutor-namespace.js';
export { createJobsPort, registerJobsNamespace, type JobsNamespaceDeps } from './jobs-namespace.js';
