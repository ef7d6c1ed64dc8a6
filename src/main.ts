import type { Server as HttpServer } from 'node:http';
import { ConfigError, loadConfig, type Config } from './kernel/index.js';
import { Lifecycle } from './kernel/index.js';
import { createLogger } from './kernel/index.js';

/**
 * Entry point: config -> app (store, model, services, server) -> listen, inside one process lifecycle. Only the
 * config, the logger and the lifecycle are imported up front: the app's modules load after the first log line,
 * so someone who ran `npm start` reads what the process is waiting for (a first run compiles the TypeScript).
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`lectern: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  // First, so a signal or a stray rejection during startup is handled like any later one.
  const lifecycle = new Lifecycle(logger);
  logger.info(
    { node: process.version, store: config.redisUrl ? 'redis' : 'memory' },
    'starting lectern: loading the server modules (the first start after an install compiles them; this can take a while on a busy machine)',
  );
  const [{ startApp }, { AdapterConnections }] = await Promise.all([import('./app.js'), import('./realtime/index.js')]);
  logger.info(config.redisUrl ? 'modules loaded; connecting to Redis and preparing the model' : 'modules loaded; preparing the store and the model');

  // The streams adapter needs connections of its own: it blocks on XREAD for inter-node packets.
  const adapter = config.redisUrl ? new AdapterConnections(config.redisUrl, logger) : undefined;
  if (adapter) lifecycle.onStop('socket.io adapter connections', () => adapter.close());

  const starting = startApp(config, logger, adapter ? { socketAdapter: adapter.adapter() } : {});
  // Registered before the app has started: a signal during startup waits for the start to finish, then closes the
  // app, so leases its first scans took (a quiz room's driver) are given back instead of left to expire. Closed
  // before the adapter's connections (closers run newest first); the adapter's commands in flight are answered
  // first, so closing socket.io (which disconnects the adapter's duplicates) rejects none of them.
  lifecycle.onStop('app', async () => {
    const started = await starting.catch(() => undefined);
    if (!started) return;
    await adapter?.settle();
    await started.close();
  });
  const app = await starting;
  if (lifecycle.isStopping) return;
  const { server, store, model } = app;

  const port = await listen(server.httpServer, config.port, config.host);
  logger.info({ port, store: store.kind, model: model.kind }, `lectern listening on http://localhost:${port}/`);
  // A parent that started this process with an IPC channel (the benchmarks, the multi-node tests) is told the port
  // actually bound, so it can pass PORT=0: a port probed free beforehand can be taken by another process in between,
  // and the parent would then talk to that one. The channel must not keep the process alive after a stop.
  if (process.send) {
    process.send({ type: 'listening', port });
    process.channel?.unref();
  }
  if (server.metricsServer) {
    const metricsPort = await listen(server.metricsServer, config.metrics.port ?? 0, config.metrics.host);
    logger.info({ port: metricsPort, host: config.metrics.host }, `metrics listening on http://${config.metrics.host}:${metricsPort}/metrics`);
  }

  if (config.preloadSample) {
    // After listen, so /healthz answers at once; a failure here only means no sample in the list.
    app.materials.preloadSample().then(
      (material) => logger.info({ materialId: material.id, chapters: material.chapters.length }, 'sample material ready'),
      (error: unknown) => logger.warn({ err: error }, 'could not preload the sample material'),
    );
  }
}

/** Listens and answers the port actually bound (PORT=0 picks one). */
async function listen(server: HttpServer, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : port;
}

main().catch((error: unknown) => {
  process.stderr.write(`lectern failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
