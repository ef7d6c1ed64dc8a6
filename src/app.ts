import { randomUUID } from 'node:crypto';
import type { ServerOptions } from 'socket.io';
import { ClassMonitor } from './classroom/class-monitor.js';
import { ClassRepository } from './classroom/class-repository.js';
import { ClassService } from './classroom/class-service.js';
import { TokenSigner } from './classroom/tokens.js';
import type { Config } from './config.js';
import { LectureService } from './lecture/lecture-service.js';
import type { SessionObserver } from './lecture/session-actor.js';
import type { PacerEmitMeta } from './lecture/pacer.js';
import { createModel } from './llm/index.js';
import type { LanguageModel } from './llm/model.js';
import type { Logger } from './logger.js';
import { createMaterialService, type MaterialService } from './materials/material-service.js';
import { createMetrics, type Metrics } from './metrics.js';
import { offlineTasks } from './offline-tasks.js';
import { createServer, type LecternServer } from './server.js';
import { QuizRepository } from './quiz/quiz-repository.js';
import { RoomRuntime } from './quiz/room-runtime.js';
import { RoomService } from './quiz/room-service.js';
import { createStore } from './store/index.js';
import { NodeHeartbeat } from './store/node-liveness.js';
import type { Store } from './store/store.js';

export interface AppOverrides {
  store?: Store;
  model?: LanguageModel;
  socketAdapter?: ServerOptions['adapter'];
  nodeId?: string;
  observer?: SessionObserver;
  onDelta?: (meta: PacerEmitMeta) => void;
}

export interface App {
  config: Config;
  store: Store;
  model: LanguageModel;
  metrics: Metrics;
  materials: MaterialService;
  lectures: LectureService;
  classes: ClassService;
  /** The instructors' live feed; also the lecture's session observer. */
  monitor: ClassMonitor;
  signer: TokenSigner;
  quizzes: QuizRepository;
  /** Live quiz rooms: commands and phase changes (any node). */
  rooms: RoomService;
  /** This node's part of live rooms: its sockets' views, and the timers of the rooms it drives. */
  roomRuntime: RoomRuntime;
  server: LecternServer;
  /** Graceful stop: sockets and HTTP first, then services, then the store. */
  close(): Promise<void>;
}

/**
 * Builds the whole product from a config: store -> model -> services -> server. main.ts listens on the result;
 * tests and benchmarks build the same thing on port 0, overriding only what they must (a store, a model).
 */
export function createApp(config: Config, logger: Logger, overrides: AppOverrides = {}): App {
  const metrics = createMetrics();
  const nodeId = overrides.nodeId ?? config.nodeId ?? randomUUID();
  const store = overrides.store ?? createStore({ redisUrl: config.redisUrl, logger });
  const model = overrides.model ?? createModel(config, { metrics, store, logger, offlineTasks });
  const signer = new TokenSigner(config.tokenSecret);
  const materials = createMaterialService({ config, store, model, logger: logger.child({ part: 'materials' }) });
  const heartbeat = new NodeHeartbeat(store, nodeId, logger.child({ part: 'heartbeat' }));
  heartbeat.start();
  const classRepository = new ClassRepository(store, heartbeat);
  const monitor = new ClassMonitor({ repository: classRepository, materials, logger: logger.child({ part: 'monitor' }) });
  const extra = overrides.observer;
  // The monitor always watches sessions; a test's or benchmark's observer watches alongside it.
  const observer: SessionObserver = extra
    ? {
        onEvent: (session, event, state) => {
          monitor.onEvent(session, event, state);
          extra.onEvent?.(session, event, state);
        },
      }
    : monitor;
  const lectures = new LectureService({
    store,
    model,
    materials,
    signer,
    logger: logger.child({ part: 'lecture' }),
    lectureConcurrency: config.lectureConcurrency,
    pacerWindowMs: config.pacerWindowMs,
    nodeId,
    observer,
    ...(overrides.onDelta ? { onDelta: overrides.onDelta } : {}),
  });
  const classes = new ClassService({ repository: classRepository, monitor, signer, sessions: lectures, materials });
  const quizzes = new QuizRepository(store);
  const rooms = new RoomService({
    store,
    quizzes,
    signer,
    logger: logger.child({ part: 'rooms' }),
    answerGraceMs: config.quizAnswerGraceMs,
    onPhase: ({ classId, ...room }) => monitor.quizRoomChanged(classId, room),
  });
  const roomRuntime = new RoomRuntime({ service: rooms, store, logger: logger.child({ part: 'rooms' }), liveness: heartbeat });
  const server = createServer({
    config,
    store,
    model,
    logger,
    metrics,
    materials,
    lectures,
    classes,
    monitor,
    signer,
    quizzes,
    rooms,
    roomRuntime,
    ...(overrides.socketAdapter ? { socketAdapter: overrides.socketAdapter } : {}),
  });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await server.close();
      await roomRuntime.close();
      await lectures.close();
      // After the sessions stopped: the monitor writes the progress it still owes before the store closes.
      await monitor.close();
      await materials.close();
      await heartbeat.close();
      if (!overrides.store) await store.close();
    })();
    return closing;
  };
  roomRuntime.start();
  return { config, store, model, metrics, materials, lectures, classes, monitor, signer, quizzes, rooms, roomRuntime, server, close };
}
