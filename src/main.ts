import { Redis } from 'ioredis';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { createApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, type Logger } from './logger.js';

/** Entry point: config -> app (store, model, services, server) -> listen, plus graceful shutdown. */
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

  // The streams adapter needs its own connection: it blocks on XREAD for inter-node packets.
  const adapterClient = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: null }) : undefined;
  adapterClient?.on('error', (error: Error) => logger.warn({ err: error }, 'socket.io adapter redis error'));

  const app = createApp(config, logger, adapterClient ? { socketAdapter: createAdapter(adapterClient) } : {});
  const { server, store, model } = app;

  await new Promise<void>((resolve, reject) => {
    server.httpServer.once('error', reject);
    server.httpServer.listen(config.port, config.host, () => resolve());
  });
  const address = server.httpServer.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port, store: store.kind, model: model.kind }, `lectern listening on http://localhost:${port}/`);

  installShutdown(logger, async () => {
    await app.close();
    await adapterClient?.quit().catch(() => undefined);
  });

  if (config.preloadSample) {
    // After listen, so /healthz answers at once; a failure here only means no sample in the list.
    app.materials.preloadSample().then(
      (material) => logger.info({ materialId: material.id, chapters: material.chapters.length }, 'sample material ready'),
      (error: unknown) => logger.warn({ err: error }, 'could not preload the sample material'),
    );
  }
}

function installShutdown(logger: Logger, shutdown: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // A stuck close must not keep the process alive forever.
    const timer = setTimeout(() => {
      logger.warn('shutdown timed out; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    shutdown().then(
      () => {
        logger.flush();
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

main().catch((error: unknown) => {
  process.stderr.write(`lectern failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
