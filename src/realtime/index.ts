/** socket.io: the server, the `/tutor`, `/monitor`, `/quiz` and `/jobs` namespaces, and the Redis adapter's connections. */
export { AdapterConnections } from './adapter-connections.js';
export { createMonitorPort, registerMonitorNamespace } from './monitor-namespace.js';
export { registerQuizNamespace } from './quiz-namespace.js';
export { createSocketServer } from './socket-server.js';
export { typedNamespaces } from './socket-types.js';
export { registerTutorNamespace } from './tutor-namespace.js';
export { createJobsPort, registerJobsNamespace, type JobsNamespaceDeps } from './jobs-namespace.js';
