/**
 * The kernel: the small modules every layer may use and that use no feature — errors (`AppError` and its codes'
 * helpers), the logger, the metrics registry, the project's paths, the process lifecycle (graceful shutdown) and the
 * configuration read from the environment. It imports only `protocol/wire/` and packages; every folder may import it
 * (through this index), and it imports no folder but `protocol/`.
 */
export * from './errors.js';
export * from './logger.js';
export * from './metrics.js';
export * from './paths.js';
export * from './lifecycle.js';
export * from './config.js';
