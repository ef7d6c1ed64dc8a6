/** The HTTP limit pieces a test mounts on a small express app of its own (RL3: an account without the auth module). */
export { createRateLimits, errorMiddleware } from '../../src/http/index.js';
import { errorMiddleware } from '../../src/http/index.js';
import { createLogger } from '../../src/kernel/logger.js';

export const errorMiddlewareForTests = () => errorMiddleware(createLogger('silent'));
