import { ERROR_STATUS, JoinAttempts } from './boundary/index.js';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import path from 'node:path';
import express, { type Express } from 'express';
import type { Server as SocketServer, ServerOptions } from 'socket.io';
import type { Config } from './kernel/index.js';
import { ErrorCode } from './protocol/wire/error-codes.js';
import { apiNotFound, authenticate, Authorizer, createAdminRouter, createAnalyticsRouter, createAuthRouter, createClassesRouter, createClassExamsRouter, createClassMathRouter, createCriticRouter, createExamsRouter, createDataRouter, createHealthRouter, createMaterialQuizRouter, createMaterialsRouter, createMathRouter, createMetricsRouter, createMetricsServer, createOidcRouter, createQualityRouter, createQuizzesRouter, createQuizImagesRouter, createAddressLimit, createRateLimits, createRoomsRouter, createSeedQuizRouter, createSessionsRouter, createLtiApiRouter, createLtiRouter, errorMiddleware, ltiFraming, ltiPickerFormTargets, joinAttemptGuard, type OidcAccounts, securityHeadersOnEveryResponse, webSessionStarter } from './http/index.js';
import type { LanguageModel } from './llm/index.js';
import type { Logger } from './kernel/index.js';
import type { Metrics } from './kernel/index.js';
import { nodeModulesDir, publicDir } from './kernel/index.js';
import { createJobsPort, createMonitorPort, createSocketServer, registerJobsNamespace, registerMonitorNamespace, registerQuizNamespace, registerTutorNamespace, typedNamespaces } from './realtime/index.js';
import type { JobRepository, JobRunner, JobView } from './jobs/index.js';
import type { MathSetRepository } from './math-problems/index.js';
import type { ExamService } from './exams/index.js';
import type { Store } from './store/index.js';
import { createBlobStore, type MaterialService } from './materials/index.js';
import type { Retriever } from './retrieval/index.js';
import type { LectureService } from './lecture/index.js';
import type { AccountService, OidcSignIn, TokenSigner } from './auth/index.js';
import type { ClassMonitor, ClassService } from './classroom/index.js';
import { ClassQuizItems, PagePictures, QuizImages, SelfStudy, type EvalAgent, type SelfStudyObserver, type QuizRepository, type RoomRuntime, type RoomService } from './quiz/index.js';
import { RoomDeletion, type DataLifecycle } from './data/index.js';
import type { CredentialChecks, OwnershipRepository } from './ownership/index.js';
import type { Quotas } from './quota/index.js';
import type { ModelBudget } from './llm/index.js';
import type { CriticGrader } from './critic/index.js';
import type { QualityBudget, QualityRepository } from './quality/index.js';
import type { LtiService } from './lti/index.js';
import type { GuardReport } from './guard/index.js';

export interface ServerDeps {
  config: Config;
  store: Store;
  model: LanguageModel;
  logger: Logger;
  metrics: Metrics;
  materials: MaterialService;
  /** The retrieval index: the QuizAgent writes from its passages. */
  retrieval: Retriever;
  lectures: LectureService;
  classes: ClassService;
  monitor: ClassMonitor;
  signer: TokenSigner;
  quizzes: QuizRepository;
  /** Uploaded quiz pictures with their owners and quota (made by the app when absent: tests of other parts). */
  quizImages?: QuizImages | undefined;
  /** The EvalAgent gate every generated quiz item passes (seed 001 §3). */
  quizJudge: EvalAgent;
  /** Where the item guard's refusals go: logged, and counted in the AI 품질 console. */
  guard?: GuardReport | undefined;
  /** The Critic Grader (seed 004): `POST /api/critic/grade`. */
  critic: CriticGrader;
  /** The "AI 품질" console: graded samples of agent outputs, the grading budget, the sampling rates. */
  quality: { repository: QualityRepository; budget: QualityBudget; sampling: { rate: number; perAgent: Record<string, number> } };
  rooms: RoomService;
  roomRuntime: RoomRuntime;
  /** Deletion, retention and export. */
  data: DataLifecycle;
  /** OpenID Connect sign-in when OIDC_* are configured. */
  oidc: OidcSignIn | undefined;
  /** The accounts side of single sign-on; the accounts service and the web session cookie unless a test replaces it. */
  oidcAccounts?: OidcAccounts;
  /** Instructor accounts: sessions, API tokens, invites. */
  accounts: AccountService;
  /** who owns what, and the checks of class instructor and host tokens against it. */
  ownership: OwnershipRepository;
  credentialChecks: CredentialChecks;
  /** what accounts and classes may hold (materials, PDF bytes, quizzes per class, open rooms). */
  quotas: Quotas;
  /** the daily model budget per account; an upload is refused up front once it is spent. */
  budget: ModelBudget;
  /** Background jobs: records and this node's runner. */
  jobs: { repository: JobRepository; runner: JobRunner };
  /** The math problem sets the `math-problems` jobs made. */
  mathSets: MathSetRepository;
  /** Live exams: publication, drafts, submissions, grading, results, learner profiles. */
  exams: ExamService;
  /** LTI 1.3: LMS registrations, launches, deep linking, rosters and grade passback. */
  lti: LtiService;
  /** socket.io adapter for several nodes (Redis streams); in-memory when absent. */
  socketAdapter?: ServerOptions['adapter'];
  /** The clock of the HTTP rate and join limits (tests); Date.now otherwise. */
  limitsClock?: () => number;
}

export interface LecternServer {
  app: Express;
  httpServer: HttpServer;
  /** The separate `/metrics` listener when METRICS_PORT is set (main.ts listens on it); undefined otherwise. */
  metricsServer: HttpServer | undefined;
  io: SocketServer;
  /** Sends a job's change to its owner's `/jobs` sockets (on every node); the job runner's `onChange`. */
  publishJob(view: JobView): void;
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
  app.set('trust proxy', deps.config.trustProxy);
  // The registered LMS platforms may frame lectern's pages (CSP frame-ancestors); nobody else. The headers
  // themselves are set in front of express (securityHeadersOnEveryResponse, below), so this rewrites them.
  app.use(ltiFraming(deps.lti, logger));

  app.use((request, response, next) => {
    response.on('finish', () => {
      const route = (request.route as { path?: string } | undefined)?.path ?? 'unmatched';
      metrics.httpRequests.labels(request.method, String(route), String(response.statusCode)).inc();
    });
    next();
  });

  app.use(createHealthRouter({ store, model }));
  // LTI 1.3 for the LMS (login initiation, launch, JWKS, dynamic registration): form posts, HTML answers.
  const ltiDeps = {
    lti: deps.lti,
    exams: deps.exams,
    publicUrl: deps.config.publicUrl,
    startFramedSession: webSessionStarter(deps.accounts, deps.config.publicUrl, { framed: true }),
    startSession: webSessionStarter(deps.accounts, deps.config.publicUrl),
    logger,
  };
  // On this port only with METRICS_TOKEN; otherwise 404 (METRICS_PORT serves them on a separate listener).
  app.use(createMetricsRouter({ metrics, token: deps.config.metrics.token, serve: deps.config.metrics.token !== undefined }));
  // Who is calling, before every /api router (the multipart materials router too): response.locals.principal.
  const publicUrl = deps.config.publicUrl;
  app.use('/api', authenticate({ accounts: deps.accounts, publicUrl }));
  // Limits on state-changing /api requests (per address and account; stricter for sign-in, uploads and generation):
  // after authenticate, which sets the principal the per-account limit counts, and before every router.
  const limits = deps.config.rateLimits;
  const limitsClock = deps.limitsClock ?? Date.now;
  app.use('/api', createRateLimits({ store, limits, now: limitsClock }));
  const joinAttempts = new JoinAttempts(store, limits.join, limitsClock);
  // the one authorisation function per resource kind, used by every route below.
  const { ownership } = deps;
  const sampleId = () => deps.materials.sampleId();
  const access = new Authorizer({
    signer: deps.signer,
    ownership,
    checks: deps.credentialChecks,
    quizzes: deps.quizzes,
    roomOf: (roomId) => deps.data.rooms.owner(roomId),
    classMaterial: (classId) => deps.data.classMaterial(classId),
    sessionMaterial: (sessionId) => deps.data.sessionMaterial(sessionId),
    sampleId,
    roomPlayer: (roomId, playerId) => deps.rooms.repository.player(roomId, playerId),
  });
  app.use('/api/materials', createMaterialsRouter({ materials: deps.materials, ownership, access, logger, quotas: deps.quotas, budget: deps.budget, keyTerms: (id, chapter) => deps.lectures.assistant.chapterConcepts(id, chapter, 8) }));
  // The Critic Grader's cases hold four texts of up to 20,000 characters each (Korean is 3 bytes a character in
  // UTF-8): its own, larger JSON limit, before the general one.
  app.use('/api/critic', express.json({ limit: '512kb' }), createCriticRouter({ critic: deps.critic }));
  app.use('/api/quality', createQualityRouter(deps.quality));
  app.use('/lti', createLtiRouter({ ...ltiDeps, access }));
  app.use(express.json({ limit: '256kb' }));
  // Class-code guessing; POST /api/sessions is a join only with a class code.
  app.post('/api/classes/:code/join', joinAttemptGuard(joinAttempts));
  app.get('/api/classes/:code/roster', joinAttemptGuard(joinAttempts, { cost: 0 }));
  // Joins count against the join limits only; a session without a class code against the general address limit.
  const isClassJoin = (body: unknown) => typeof (body as { classCode?: unknown } | undefined)?.classCode === 'string';
  app.post('/api/sessions', joinAttemptGuard(joinAttempts, { applies: isClassJoin, otherwise: createAddressLimit({ store, limits, now: limitsClock }) }));
  // Sign-up, sign-in (and single sign-on) end by setting the session cookie through this one function.
  const startWebSession = webSessionStarter(deps.accounts, publicUrl);
  app.use('/api/auth', createAuthRouter({ accounts: deps.accounts, startWebSession, publicUrl }));
  app.use('/api/admin', createAdminRouter({ accounts: deps.accounts, publicUrl }));
  // Deletion and export routes (DELETE /api/{classes,quizzes,rooms,materials}/:id, class export) before the others.
  app.use('/api', createDataRouter({ data: deps.data, access, ownership, sampleId, quotas: deps.quotas }));
  app.use('/api/sessions', createSessionsRouter({ lectures: deps.lectures, classes: deps.classes, access }));
  app.use('/api/classes', createClassesRouter({ classes: deps.classes, ownership, access }));
  app.use('/api/analytics', createAnalyticsRouter({ access, classes: deps.classes, materials: deps.materials, rooms: deps.rooms, exams: deps.exams, quizzes: deps.quizzes, mathSets: deps.mathSets, store }));
  const images = deps.quizImages ?? new QuizImages({ blobs: createBlobStore(store, deps.config.dataDir), store, quotaBytes: deps.config.quotas.quizImageBytesPerAccount });
  // Pages of a material as items' pictures: the quiz's owner account may show its own materials' pages and the sample's.
  // A room serves both kinds of picture to its members (uploaded images too).
  const pagePictures = new PagePictures({
    store,
    images,
    materials: deps.materials,
    mayUse: async (materialId, accountId) => materialId === (await sampleId()) || ownership.ownsMaterial(materialId, accountId),
  });
  app.use('/api/rooms', createRoomsRouter({ rooms: deps.rooms, ownership, access, publicUrl: deps.config.publicUrl, quotas: deps.quotas, pagePictures }));
  app.use('/api/quiz-images', createQuizImagesRouter({ images, access }));
  app.use('/api/quizzes', createQuizzesRouter({ quizzes: deps.quizzes, materials: deps.materials, ownership, access, quotas: deps.quotas, images, pagePictures }));
  // Generating a quiz takes a JSON body, so this part of /api/materials is mounted after the parser.
  app.use(
    '/api/materials',
    createMaterialQuizRouter({ quizzes: deps.quizzes, materials: deps.materials, retriever: deps.retrieval, ownership, access, model, judge: deps.quizJudge, logger, quotas: deps.quotas, guard: deps.guard }),
  );

  // Seed 001's self-study API: items judged by the EvalAgent gate, kept in the store with a TTL; a class
  // student's first answers reach the class monitor.
  const selfQuizObserver: SelfStudyObserver = {
    answered: async (scope, outcome) => {
      if (scope.kind === 'student') await deps.monitor.selfQuizAnswered(scope.classId, scope.sessionId, outcome.correct);
    },
  };
  const selfStudy = new SelfStudy({
    store,
    model,
    materials: deps.materials,
    retriever: deps.retrieval,
    judge: deps.quizJudge,
    logger: logger.child({ component: 'self-study' }),
    guard: deps.guard,
    observer: selfQuizObserver,
  });
  const roomDeletion = new RoomDeletion(store);
  const classItems = new ClassQuizItems({
    store,
    quizzes: deps.quizzes,
    quizOwner: (quizId) => ownership.ownerOf('quiz', quizId),
    roomLive: async (quizId) => {
      // The quiz's 20 newest rooms: a room is played soon after it is made, so an older one still in play is not sought.
      const { members } = await ownership.quizRoomsPage(quizId, { limit: 20 });
      return (await Promise.all(members.map((roomId) => roomDeletion.isLive(roomId)))).some(Boolean);
    },
    judge: deps.quizJudge,
    logger: logger.child({ component: 'class-quiz-items' }),
    observer: selfQuizObserver,
  });
  app.use(
    '/api/quiz',
    createSeedQuizRouter({
      selfStudy,
      classItems,
      access,
      signer: deps.signer,
      sessionProfile: (sessionId) => deps.data.sessionProfile(sessionId),
      latestMaterial: async (accountId) => (await ownership.page(accountId, 'material', { limit: 1 })).members,
      sampleId,
    }),
  );
  // Math problems as background jobs, their sets and the quizzes made from them.
  app.use(
    '/api',
    createMathRouter({
      access,
      signer: deps.signer,
      model,
      materials: deps.materials,
      jobs: deps.jobs.repository,
      runner: deps.jobs.runner,
      sets: deps.mathSets,
      quizzes: deps.quizzes,
      ownership,
      quotas: deps.quotas,
    }),
  );

  // A class's students answer the short-answer problems of the math sets shared with their class.
  app.use(
    '/api',
    createExamsRouter({ access, signer: deps.signer, exams: deps.exams, materials: deps.materials, jobs: deps.jobs.repository, runner: deps.jobs.runner, budget: deps.budget }),
  );
  app.use(
    '/api/class-exams',
    createClassExamsRouter({
      signer: deps.signer,
      exams: deps.exams,
      sessionProfile: (sessionId) => deps.data.sessionProfile(sessionId),
      jobs: deps.jobs.repository,
      runner: deps.jobs.runner,
      materials: deps.materials,
      budget: deps.budget,
    }),
  );

  app.use(
    '/api/class-math',
    createClassMathRouter({
      signer: deps.signer,
      model,
      sets: deps.mathSets,
      sessionProfile: (sessionId) => deps.data.sessionProfile(sessionId),
      answerTtlMs: deps.config.retentionDays * 24 * 60 * 60_000,
    }),
  );

  // What the pages need to know about this deployment (no secrets): the public address for join links and QR codes.
  app.get('/api/site', (_request, response) => {
    response.json({ publicUrl: deps.config.publicUrl ?? null });
  });
  // Single sign-on finds or creates the account (the issuer is the admin-configured gate) and starts the same web
  // session as a password sign-in.
  const oidcAccounts: OidcAccounts = deps.oidcAccounts ?? {
    signIn: async (identity) => ({ accountId: (await deps.accounts.signInWithIdentity(identity)).accountId }),
    startWebSession: async (response, accountId, request) => {
      await startWebSession(response, accountId, request);
    },
  };
  app.use('/api/auth/oidc', createOidcRouter({ signIn: deps.oidc, accounts: oidcAccounts, publicUrl, logger }));

  app.use('/api/lti', createLtiApiRouter({ ...ltiDeps, access }));

  app.use('/api', apiNotFound);

  for (const [name, folder] of Object.entries(VENDOR_ASSETS)) {
    app.use(`/vendor/${name}`, express.static(path.join(nodeModulesDir, folder), { maxAge: '1h' }));
  }
  // A missing vendor file is the client's 404, not a server error whose log names a path on this machine.
  app.use('/vendor', (request, response) => {
    response.status(ERROR_STATUS.NOT_FOUND).json({ error: { code: ErrorCode.NOT_FOUND, message: `요청한 주소를 찾을 수 없습니다: ${request.method} ${request.originalUrl}` } });
  });
  // Browsers ask for /favicon.ico whatever the pages link: send them to the one icon (public/favicon.svg), not a 404.
  app.get('/favicon.ico', (_request, response) => response.redirect(301, '/favicon.svg'));
  // The Deep Linking picker posts its answer back to the LMS.
  app.use('/lti-picker.html', ltiPickerFormTargets(deps.lti));
  app.use(express.static(publicDir, { extensions: ['html'] }));
  app.use(errorMiddleware(logger));

  // A client that sends its headers or its body too slowly gets 408 and its connection closed (Node checks every
  // `connectionsCheckingInterval`, so that is a fraction of the shorter limit).
  const { headersTimeoutMs, requestTimeoutMs } = deps.config.http;
  const httpServer = createHttpServer(
    { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.max(100, Math.min(headersTimeoutMs, 30_000) / 4) },
    app,
  );
  const io = createSocketServer(httpServer, {
    metrics,
    caps: { maxSocketsPerAddress: limits.maxSocketsPerAddress, authTimeoutMs: limits.socketAuthTimeoutMs },
    ...(deps.socketAdapter ? { adapter: deps.socketAdapter } : {}),
  });
  // After socket.io, which answers /socket.io/* in front of express: the security headers go on those answers too.
  securityHeadersOnEveryResponse(httpServer);
  const namespaces = typedNamespaces(io);
  registerTutorNamespace(namespaces.tutor, {
    lectures: deps.lectures,
    signer: deps.signer,
    logger,
    presence: deps.monitor,
    multiNode: deps.socketAdapter !== undefined,
    commandLimit: limits.socketCommands,
  });
  registerMonitorNamespace(namespaces.monitor, {
    monitor: deps.monitor,
    classes: deps.classes,
    signer: deps.signer,
    checks: deps.credentialChecks,
    logger,
    commandLimit: limits.socketCommands,
  });
  deps.monitor.attach(createMonitorPort(io));
  registerQuizNamespace(namespaces.quiz, {
    rooms: deps.rooms,
    runtime: deps.roomRuntime,
    signer: deps.signer,
    checks: deps.credentialChecks,
    logger,
    joinLimit: deps.config.quizJoinLimit,
    joinAttempts,
    commandLimit: limits.socketCommands,
  });

  registerJobsNamespace(namespaces.jobs, {
    signer: deps.signer,
    checks: deps.credentialChecks,
    jobs: deps.jobs.repository,
    runner: deps.jobs.runner,
    logger,
    commandLimit: limits.socketCommands,
  });
  const publishJob = createJobsPort(io);

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

  return { app, httpServer, metricsServer, io, publishJob, close };
}
