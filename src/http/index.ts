/** Express routers, the error middleware and security headers. */
export { createClassesRouter } from './classes-router.js';
export { apiNotFound, errorMiddleware } from './error-middleware.js';
export { createHealthRouter } from './health-router.js';
export { createMaterialsRouter } from './materials-router.js';
export { createMetricsRouter, createMetricsServer } from './metrics-router.js';
export { createMaterialQuizRouter, createQuizzesRouter } from './quizzes-router.js';
export { createRoomsRouter } from './rooms-router.js';
export { securityHeaders } from './security-headers.js';
export { createSessionsRouter } from './sessions-router.js';
export { invalidPayload } from './validate.js';
