import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import path from 'node:path';
import express, { type Express } from 'express';
import type { Server as SocketServer, ServerOptions } from 'socket.io';
import type { Config } from './config.js';
import { ErrorCode } from './protocol/wire/error-codes.js';
import { apiNotFound, createClassesRouter, createHealthRouter, createMaterialQuizRouter, createMaterialsRouter, createMetricsRouter, createMetricsServer, createQuizzesRouter, createRoomsRouter, createSessionsRouter, errorMiddleware, securityHeaders } from './http/index.js';
import type { LanguageModel } from './llm/index.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { nodeModulesDir, publicDir } from './paths.js';
import { createMonitorPort, createSocketServer, registerMonitorNamespace, registerQuizNamespace, registerTutorNamespace, typedNamespaces } from './realtime/index.js';
import type { Store } from './store/index.js';
import type { MaterialService } from './materials/index.js';
import type { LectureService } from './lecture/index.js';
import type { TokenSigner } from './auth/index.js';
import type { ClassMonitor, ClassService } from './classroom/index.js';
import type { QuizRepository, RoomRuntime, RoomService } from './quiz/index.js';

export interface ServerDeps {
  config: Config;
  store: Store;
  model: LanguageModel;
  logger: Logger;
  metrics: Metrics;
  materials: MaterialService;
  lectures: LectureService;
  classes: ClassService;
  monitor: ClassMonitor;
  signer: TokenSigner;
  quizzes: QuizRepository;
  rooms: RoomService;
  roomRuntime: RoomRuntime;
  /** socket.io adapter for several nodes (Redis streams); in-memory when absent. */
  socketAdapter?: ServerOptions['adapter'];
}

export interface LecternServer {
  app: Express;
  httpServer: HttpServer;
  /** The separate `/metrics` listener when METRICS_PORT is set (main.ts listens on it); undefined otherwise. */
  metricsServer: HttpServer | undefined;
  io: SocketServer;
  /** Stops accepting, closes every socket and waits for in-flight HTTP requests. Does not close the store. */
  close(): Promise<void>;
}

/** Client libraries served from node_modules so pages never load anything from a CDN. */
const VENDOR_ASSETS: Record<string, string> = {
  katex: 'katex/dist',
  marked: 'marked/lib',
  dompurify: 'dompurify/dist',
  // A Korean web font, so pages read well on machines without Korean system fonts.
  pretendard: 'pretendard/dist/web/static',
};

/** Builds express + http server + socket.io from its dependencies. Never listens by itself (see main.ts). */
export function createServer(deps: ServerDeps): LecternServer {
  const { store, model, logger, metrics } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(securityHeaders());

  app.use((request, response, next) => {
    response.on('finish', () => {
      const route = (request.route as { path?: string } | undefined)?.path ?? 'unmatched';
      metrics.httpRequests.labels(request.method, String(route), String(response.statusCode)).inc();
    });
    next();
  });

  app.use(createHealthRouter({ store, model }));
  // On this port only with METRICS_TOKEN; otherwise 404 (METRICS_PORT serves them on a separate listener).
  app.use(createMetricsRouter({ metrics, token: deps.config.metrics.token, serve: deps.config.metrics.token !== undefined }));
  app.use('/api/materials', createMaterialsRouter({ materials: deps.materials, logger }));
  app.use(express.json({ limit: '256kb' }));
  app.use('/api/sessions', createSessionsRouter({ lectures: deps.lectures, classes: deps.classes }));
  app.use('/api/classes', createClassesRouter({ classes: deps.classes, signer: deps.signer }));
  app.use('/api/rooms', createRoomsRouter({ rooms: deps.rooms, signer: deps.signer }));
  app.use('/api/quizzes', createQuizzesRouter({ quizzes: deps.quizzes, signer: deps.signer, materials: deps.materials }));
  // Generating a quiz takes a JSON body, so this part of /api/materials is mounted after the parser.
  app.use(
    '/api/materials',
    createMaterialQuizRouter({ quizzes: deps.quizzes, signer: deps.signer, materials: deps.materials, model, logger }),
  );

  app.use('/api', apiNotFound);

  for (const [name, folder] of Object.entries(VENDOR_ASSETS)) {
    app.use(`/vendor/${name}`, express.static(path.join(nodeModulesDir, folder), { maxAge: '1h' }));
  }
  // A missing vendor file is the client's 404, not a server error whose log names a path on this machine.
  app.use('/vendor', (request, response) => {
    response.status(404).json({ error: { code: ErrorCode.NOT_FOUND, message: `요청한 주소를 찾을 수 없습니다: ${request.method} ${request.originalUrl}` } });
  });
  app.use(express.static(publicDir, { extensions: ['html'] }));
  app.use(errorMiddleware(logger));

  const httpServer = createHttpServer(app);
  const io = createSocketServer(httpServer, { metrics, ...(deps.socketAdapter ? { adapter: deps.socketAdapter } : {}) });
  const namespaces = typedNamespaces(io);
  registerTutorNamespace(namespaces.tutor, {
    lectures: deps.lectures,
    signer: deps.signer,
    logger,
    presence: deps.monitor,
    multiNode: deps.socketAdapter !== undefined,
  });
  registerMonitorNamespace(namespaces.monitor, { monitor: deps.monitor, classes: deps.classes, signer: deps.signer, logger });
  deps.monitor.attach(createMonitorPort(io));
  registerQuizNamespace(namespaces.quiz, {
    rooms: deps.rooms,
    runtime: deps.roomRuntime,
    signer: deps.signer,
    logger,
    joinLimit: deps.config.quizJoinLimit,
  });

  const metricsServer =
    deps.config.metrics.port === undefined ? undefined : createMetricsServer({ metrics, token: deps.config.metrics.token, logger });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= Promise.all([
      new Promise<void>((resolve) => {
        // io.close() also closes the http server; closeIdleConnections() ends idle keep-alive sockets so it can finish.
        void io.close(() => resolve());
        httpServer.closeIdleConnections();
      }),
      new Promise<void>((resolve) => {
        if (!metricsServer?.listening) return resolve();
        metricsServer.close(() => resolve());
        metricsServer.closeIdleConnections();
      }),
    ]).then(() => undefined);
    return closing;
  };

  return { app, httpServer, metricsServer, io, close };
}
