import { randomUUID } from 'node:crypto';
import type { ServerOptions } from 'socket.io';
import { ClassMonitor, ClassRepository, ClassService } from './classroom/index.js';
import { CriticGrader } from './critic/index.js';
import { CredentialChecks, OwnershipRepository } from './ownership/index.js';
import { AccountService, OidcSignIn, TokenSigner, generateTokenSecret, sharedTokenSecret, type ScryptParameters } from './auth/index.js';
import type { Config } from './kernel/index.js';
import type { OidcAccounts } from './http/index.js';
import { LectureService, observeActivity, type PacerEmitMeta, type SessionObserver } from './lecture/index.js';
import { ModelBudget, createModel, type LanguageModel } from './llm/index.js';
import type { Logger } from './kernel/index.js';
import { createBlobStore, createMaterialService, type MaterialService, type PdfWorkerPool } from './materials/index.js';
import { createMetrics, type Metrics } from './kernel/index.js';
import { offlineTasks } from './offline-tasks.js';
import { createServer, type LecternServer } from './server.js';
import { DataLifecycle } from './data/index.js';
import { JobRepository, JobRunner, type JobView } from './jobs/index.js';
import { MathJudge, MathSetRepository, classMathAnswers, mathJobHandler } from './math-problems/index.js';
import { ExamFeedback, ExamGrader, ExamRepository, ExamService, buildPriorProfile, examJobHandler, lectureSignals, reviewPassages, type ExamFeedbackAgent, type ExamItemGrader, type LearnerSignals } from './exams/index.js';
import { EvalAgent, QuizImages, QuizRepository, RoomRuntime, RoomService, classQuizAnswers, selfStudyAnswers, type QuizImageStep, type RoomClock } from './quiz/index.js';
import { RetrievalService } from './retrieval/index.js';
import { NodeHeartbeat, createStore, type Store } from './store/index.js';
import { Quotas } from './quota/index.js';
import { QualityBudget, QualityGrader, QualityRepository, QualitySampler, sampleModel } from './quality/index.js';
import { LtiService, type KeySetOptions } from './lti/index.js';
import { examScore, ltiPorts } from './lti-wiring.js';
import { createGuardReport, type GuardReport } from './guard/index.js';

/** The two agents the live exams call through their ports. */
export interface ExamAgents {
  grader: ExamItemGrader;
  feedback: ExamFeedbackAgent;
}

export interface AppOverrides {
  store?: Store;
  model?: LanguageModel;
  socketAdapter?: ServerOptions['adapter'];
  nodeId?: string;
  observer?: SessionObserver;
  onDelta?: (meta: PacerEmitMeta) => void;
  /** The clock of live quiz rooms (tests run games in compressed time). */
  roomClock?: RoomClock;
  /** Token secrets, newest first, as resolved by {@link startApp}; TOKEN_SECRET's otherwise. */
  tokenSecrets?: readonly string[];
  /** The quality sampler's random source (tests make sampling deterministic); Math.random otherwise. */
  qualityRandom?: () => number;
  /** The retention purge's clock (tests move it past RETENTION_DAYS). */
  retentionClock?: () => number;
  /** Runs at quiz pictures' race points (tests interleave a claim and a purge there); nothing otherwise. */
  quizImageStep?: QuizImageStep;
  /** The scrypt cost of password hashes (tests lower it; see AccountServiceOptions.passwordCost). */
  passwordCost?: ScryptParameters;
  /** The accounts side of single sign-on (tests record identities); AccountService's otherwise. */
  oidcAccounts?: OidcAccounts;
  /** Lifetime of an OIDC sign-in under way (tests shorten it). */
  oidcPendingTtlMs?: number;
  /** The live exams' clock (tests move it past a deadline instead of waiting); Date.now otherwise. */
  examClock?: () => number;
  /**
   * Sees the exam grader and feedback agent the app made and returns the ones to use (tests wrap them to count
   * calls, or replace them); the real ones otherwise.
   */
  examAgents?: (real: ExamAgents) => ExamAgents;
  /** The clock of the HTTP rate and join limits (tests turn their windows instead of waiting); Date.now otherwise. */
  limitsClock?: () => number;
  /**
   * The LTI tool's clock (launch token expiry, passback retry times), its JWKS cache limits (tests let a rotated
   * platform key be refetched at once) and how often each node looks for scores to send.
   */
  lti?: { now?: () => number; keySets?: KeySetOptions; sweepMs?: number };
  /**
   * The PDF worker pool (tests share one warm pool across the apps of a file instead of starting a worker per app);
   * a pool of the configured time limit otherwise. The app closes it with itself: a shared pool is given without
   * its close().
   */
  pdfPool?: PdfWorkerPool;
  /** The lecture session driver's lease (tests shorten it, so its renewal comes round quickly); 5 s otherwise. */
  driverLeaseMs?: number;
}

export interface App {
  config: Config;
  store: Store;
  model: LanguageModel;
  metrics: Metrics;
  materials: MaterialService;
  /** Passages of every material for the agents (index built at ingest, loaded lazily per node). */
  retrieval: RetrievalService;
  lectures: LectureService;
  classes: ClassService;
  /** The instructors' live feed; also the lecture's session observer. */
  monitor: ClassMonitor;
  signer: TokenSigner;
  /** Instructor accounts, browser sessions, API tokens, invites and reset links. */
  accounts: AccountService;
  /** who owns each class, quiz, room and material. */
  ownership: OwnershipRepository;
  quizzes: QuizRepository;
  quizJudge: EvalAgent;
  /** The Critic Grader (seed 004): the HTTP route and, later, the quality console call it. */
  critic: CriticGrader;
  /** The "AI 품질" console: the sampler, the store of graded samples, the grading budget and loop. */
  quality: { sampler: QualitySampler; repository: QualityRepository; budget: QualityBudget; grader: QualityGrader };
  /** Where the item guard's refusals go (logged, counted in the AI 품질 console). */
  guard: GuardReport;
  /** Live quiz rooms: commands and phase changes (any node). */
  rooms: RoomService;
  /** This node's part of live rooms: its sockets' views, and the timers of the rooms it drives. */
  roomRuntime: RoomRuntime;
  /** Deletion, the retention purge (periodic, one node at a time) and class export. */
  data: DataLifecycle;
  /** what accounts and classes may hold; deletion counts back down through `data`. */
  quotas: Quotas;
  /** the daily model budget per account (MODEL_DAILY_TOKENS), checked by the metered model before each call. */
  budget: ModelBudget;
  /** Background jobs: the records, and this node's runner (resumes jobs other nodes left). */
  jobs: { repository: JobRepository; runner: JobRunner };
  /** Seed 002's math judge, with the policy and thresholds of configuration. */
  mathJudge: MathJudge;
  /** Math problem sets the `math-problems` jobs made. */
  mathSets: MathSetRepository;
  /** Live exams: publication, drafts, submissions, grading, results, learner profiles. */
  exams: ExamService;
  /** LTI 1.3: LMS registrations, launches, deep linking, course rosters and grade passback. */
  lti: LtiService;
  server: LecternServer;
  /** Graceful stop: sockets and HTTP first, then services, then the store. */
  close(): Promise<void>;
}

/**
 * What a process starts: first what must come from the network before anything is built (the token secrets a
 * Redis deployment shares when TOKEN_SECRET is unset), then {@link createApp}. main.ts and the tests' startTestApp
 * both come through here.
 */
export async function startApp(config: Config, logger: Logger, overrides: AppOverrides = {}): Promise<App> {
  const tokenSecrets = overrides.tokenSecrets ?? config.tokenSecrets ?? (await unconfiguredTokenSecrets(config, logger, overrides.store));
  return createApp(config, logger, { ...overrides, tokenSecrets });
}

/** Without TOKEN_SECRET: the secret shared in Redis, or one per process on the memory store (its data dies with it). */
async function unconfiguredTokenSecrets(config: Config, logger: Logger, given: Store | undefined): Promise<readonly string[]> {
  if (given ? given.kind === 'memory' : !config.redisUrl) return [generateTokenSecret()];
  // A short-lived connection of its own, so the app's store is still made (and owned) by createApp.
  const store = given ?? createStore({ redisUrl: config.redisUrl, commandTimeoutMs: config.redisCommandTimeoutMs, logger });
  try {
    return [await sharedTokenSecret(store, logger)];
  } finally {
    if (!given) await store.close();
  }
}

/**
 * Builds the whole product from a config: store -> model -> services -> server. main.ts listens on the result;
 * tests and benchmarks build the same thing on port 0, overriding only what they must (a store, a model).
 * On Redis without TOKEN_SECRET the token secret must come from {@link startApp}.
 */
export function createApp(config: Config, logger: Logger, overrides: AppOverrides = {}): App {
  const metrics = createMetrics();
  const nodeId = overrides.nodeId ?? config.nodeId ?? randomUUID();
  const storeKind = overrides.store?.kind ?? (config.redisUrl ? 'redis' : 'memory');
  const tokenSecrets = overrides.tokenSecrets ?? config.tokenSecrets ?? (storeKind === 'memory' ? [generateTokenSecret()] : undefined);
  // A per-process secret on Redis is the bug startApp exists for: every restart would lock everyone out.
  if (!tokenSecrets) throw new Error('createApp on Redis without TOKEN_SECRET: build it with startApp (shared token secret)');
  const store = overrides.store ?? createStore({ redisUrl: config.redisUrl, commandTimeoutMs: config.redisCommandTimeoutMs, logger });
  const budget = new ModelBudget({ store, dailyTokens: config.modelDailyTokens });
  const metered = overrides.model ?? createModel(config, { metrics, store, logger, offlineTasks, budget });
  // The "AI 품질" console: every agent gets the sampled model; the quality grading calls the metered one
  // (never sampled itself), counted against its own daily budget.
  const qualityRepository = new QualityRepository({
    store,
    retentionMs: config.quality.retentionDays * 24 * 60 * 60_000,
    queueMax: config.quality.queueMax,
    logger: logger.child({ part: 'quality' }),
  });
  const qualitySampler = new QualitySampler({
    repository: qualityRepository,
    rate: config.quality.sampleRate,
    rates: config.quality.sampleRates,
    logger: logger.child({ part: 'quality' }),
    ...(overrides.qualityRandom ? { random: overrides.qualityRandom } : {}),
  });
  const model = sampleModel(metered, qualitySampler);
  // The item guard's refusals (every generated item is checked before it is stored or shown): logged, and counted
  // per agent and rule in the AI 품질 console.
  const guard = createGuardReport({ logger: logger.child({ part: 'item-guard' }), count: (refusals) => qualityRepository.countRefusals(refusals) });
  const qualityBudget = new QualityBudget({ store, dailyTokens: config.quality.dailyTokens, logger: logger.child({ part: 'quality' }) });
  const signer = new TokenSigner(tokenSecrets);
  const accounts = new AccountService({ store, signup: config.signup, sessionTtlMs: config.sessionTtlMs, ...(overrides.passwordCost ? { passwordCost: overrides.passwordCost } : {}) });
  const ownership = new OwnershipRepository(store);
  const credentialChecks = new CredentialChecks({ ownership, accounts });
  const retrieval = new RetrievalService({
    store,
    model,
    logger: logger.child({ part: 'retrieval' }),
    // Lazy builds (a material ingested before its index existed) read the material through its service.
    source: {
      load: async (id) => {
        const material = await materials.get(id);
        return material ? { chapters: material.chapters, pageTexts: await materials.pageTexts(id) } : null;
      },
    },
  });
  const materials = createMaterialService({ config, store, model, retrieval, logger: logger.child({ part: 'materials' }), ...(overrides.pdfPool ? { pool: overrides.pdfPool } : {}) });
  const heartbeat = new NodeHeartbeat(store, nodeId, logger.child({ part: 'heartbeat' }));
  heartbeat.start();
  // Student data of a class (sessions with their answers and hand dialogues, the roster) is kept RETENTION_DAYS
  // after its last write, so an instructor can review and export a class for the whole term; then it expires.
  const studentDataMs = config.retentionDays * 24 * 60 * 60_000;
  const classRepository = new ClassRepository(store, heartbeat, studentDataMs);
  const monitor = new ClassMonitor({ repository: classRepository, materials, logger: logger.child({ part: 'monitor' }) });
  const extra = overrides.observer;
  // The monitor always watches sessions; a test's or benchmark's observer watches alongside it.
  const watchActivity = observeActivity(monitor);
  const observer: SessionObserver = extra
    ? {
        onEvent: (session, event, state) => {
          watchActivity.onEvent?.(session, event, state);
          extra.onEvent?.(session, event, state);
        },
      }
    : watchActivity;
  const lectures = new LectureService({
    store,
    model,
    guard,
    materials,
    retriever: retrieval,
    signer,
    logger: logger.child({ part: 'lecture' }),
    lectureConcurrency: config.lectureConcurrency,
    classSessionTtlMs: studentDataMs,
    pacerWindowMs: config.pacerWindowMs,
    nodeId,
    observer,
    ...(overrides.onDelta ? { onDelta: overrides.onDelta } : {}),
    ...(overrides.driverLeaseMs ? { driverLeaseMs: overrides.driverLeaseMs } : {}),
  });
  const classes = new ClassService({ repository: classRepository, monitor, signer, sessions: lectures, materials, owners: ownership });
  const quizzes = new QuizRepository(store, Date.now, logger.child({ part: 'quizzes' }));
  // The EvalAgent (seed 001 §3): every generated quiz item passes it before anyone sees it.
  const quizJudge = new EvalAgent({ model, retriever: retrieval, logger: logger.child({ part: 'quiz-judge' }) });
  // The Critic Grader (seed 004): POST /api/critic/grade, and later the quality console.
  const critic = new CriticGrader({ model, logger: logger.child({ part: 'critic' }) });
  const qualityGrader = new QualityGrader({
    store,
    repository: qualityRepository,
    grader: new CriticGrader({ model: qualityBudget.meter(metered), logger: logger.child({ part: 'quality-critic' }) }),
    budget: qualityBudget,
    nodeId,
    logger: logger.child({ part: 'quality' }),
  });
  const quality = { sampler: qualitySampler, repository: qualityRepository, budget: qualityBudget, grader: qualityGrader };
  const roomClock = overrides.roomClock;
  const rooms = new RoomService({
    store,
    quizzes,
    signer,
    logger: logger.child({ part: 'rooms' }),
    answerGraceMs: config.quizAnswerGraceMs,
    onPhase: ({ classId, ...room }) => monitor.quizRoomChanged(classId, room),
    ...(roomClock ? { now: () => roomClock.now() } : {}),
  });
  const roomRuntime = new RoomRuntime({
    service: rooms,
    store,
    logger: logger.child({ part: 'rooms' }),
    liveness: heartbeat,
    ...(roomClock ? { clock: roomClock } : {}),
  });
  const quotas = new Quotas({
    store,
    limits: config.quotas,
    // A room counts until it ends or its keys expire (or are deleted).
    roomOpen: async (roomId) => {
      const phase = await rooms.repository.phase(roomId);
      return phase !== null && phase.phase !== 'ended';
    },
  });
  const examRepository = new ExamRepository(store, logger.child({ part: 'exams' }));
  const quizImages = new QuizImages({
    blobs: createBlobStore(store, config.dataDir),
    store,
    quotaBytes: config.quotas.quizImageBytesPerAccount,
    ...(overrides.quizImageStep ? { step: overrides.quizImageStep } : {}),
  });
  const data = new DataLifecycle({
    images: quizImages,
    accountIds: async function* () {
      let cursor: string | undefined;
      do {
        const page = await accounts.listAccounts({ limit: 50, cursor });
        for (const account of page.accounts) yield account.accountId;
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
    },
    quotas: quotas.releases,
    exams: examRepository,
    store,
    materials,
    retrieval,
    sessions: lectures,
    logger: logger.child({ part: 'data' }),
    nodeId,
    retentionDays: config.retentionDays,
    ...(overrides.retentionClock ? { now: overrides.retentionClock } : {}),
    // Called at deletion time, when the LTI service below exists.
    courses: {
      deleteForClass: (classId: string): Promise<void> => lti.deleteForClass(classId),
      exportForClass: (classId: string) => lti.courses.exportOf(classId),
    },
  });
  // Math problems (seed 002) run as background jobs; their judge's policy is configuration.
  const mathJudge = new MathJudge({
    model,
    policy: { thresholds: config.mathJudge.thresholds, onNetworkError: config.mathJudge.onNetworkError, retries: 2 },
    logger: logger.child({ part: 'math-judge' }),
  });
  const mathSets = new MathSetRepository(store, Date.now, logger.child({ part: 'math-sets' }));
  const jobRepository = new JobRepository(store, Date.now, logger.child({ part: 'jobs' }));
  // The runner exists before the server that shows its changes: they reach `/jobs` once the server is there.
  const watchers: { publish?: (view: JobView) => void } = {};
  // Live exams before the job runner: the exam-generation job stores its exams through them.
  const exams = createExams();
  const jobRunner = new JobRunner({
    repository: jobRepository,
    store,
    nodeId,
    logger: logger.child({ part: 'jobs' }),
    leaseMs: config.jobs.leaseMs,
    handlers: [
      mathJobHandler({ model, judge: mathJudge, materials, retriever: retrieval, sets: mathSets, logger: logger.child({ part: 'math-problems' }), guard }),
      examJobHandler({
        model,
        materials,
        retriever: retrieval,
        saveExam: async (input) => {
          const material = await materials.get(input.materialId);
          const kind = input.selfStudy ? '혼자 보는 시험' : '시험';
          const title = `${material?.title ?? '강의 자료'} ${kind} (${input.problems.length}문항)`.slice(0, 200);
          const { selfStudy, ...generated } = input;
          // A class exam on the material started while the job ran: the student's exam could be that exam.
          if (selfStudy) await exams.assertNoRunningExam(selfStudy.classId, input.materialId);
          const exam = await exams.create({ ...generated, title });
          // A student's self-study exam is theirs alone, open at once (no deadline, results at their submission).
          if (selfStudy) await exams.publishSelfStudy(exam, selfStudy.classId, selfStudy.sessionId);
          return exam;
        },
        logger: logger.child({ part: 'exam-generation' }),
        guard,
      }),
    ],
    onChange: (view) => watchers.publish?.(view),
  });
  const jobs = { repository: jobRepository, runner: jobRunner };
  // LTI 1.3: the tool's ports over classes, exams, quizzes and rooms; exam results reach the LMS gradebook.
  const lti: LtiService = new LtiService({
    store,
    logger: logger.child({ part: 'lti' }),
    nodeId,
    ports: ltiPorts({ store, accounts, classes, classRepository, ownership, data, signer, materials, exams, quizzes, rooms, weights: config.exams.scoreWeights }),
    scoreOf: examScore(exams, config.exams.scoreWeights),
    grades: { retryMs: config.lti.gradeRetryMs, maxAttempts: config.lti.gradeAttempts, sweepMs: overrides.lti?.sweepMs ?? 5_000 },
    ...(overrides.lti?.now ? { now: overrides.lti.now } : {}),
    ...(overrides.lti?.keySets ? { keySets: overrides.lti.keySets } : {}),
  });
  const oidc = config.oidc
    ? new OidcSignIn({
        config: config.oidc,
        store,
        logger: logger.child({ part: 'oidc' }),
        ...(overrides.oidcPendingTtlMs === undefined ? {} : { pendingTtlMs: overrides.oidcPendingTtlMs }),
      })
    : undefined;
  const server = createServer({
    data,
    config,
    oidc,
    ...(overrides.oidcAccounts ? { oidcAccounts: overrides.oidcAccounts } : {}),
    store,
    model,
    logger,
    metrics,
    materials,
    retrieval,
    lectures,
    classes,
    monitor,
    signer,
    quizzes,
    quizJudge,
    quizImages,
    guard,
    critic,
    quality: { repository: qualityRepository, budget: qualityBudget, sampling: { rate: config.quality.sampleRate, perAgent: config.quality.sampleRates } },
    rooms,
    roomRuntime,
    accounts,
    ownership,
    credentialChecks,
    quotas,
    budget,
    jobs,
    mathSets,
    exams,
    lti,
    ...(overrides.socketAdapter ? { socketAdapter: overrides.socketAdapter } : {}),
    ...(overrides.limitsClock ? { limitsClock: overrides.limitsClock } : {}),
  });
  watchers.publish = server.publishJob;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await server.close();
      // Jobs running here stop and stay active: another node (or this one restarted) resumes them.
      await jobRunner.stop();
      await exams.stop();
      await lti.stop();
      await data.purge.stop();
      await qualityGrader.stop();
      await roomRuntime.close();
      await lectures.close();
      // After the sessions stopped: the monitor writes the progress it still owes before the store closes.
      await monitor.close();
      await materials.close();
      // The samples still being written, before the store closes.
      await qualitySampler.settled();
      await heartbeat.close();
      if (!overrides.store) await store.close();
    })();
    return closing;
  };
  roomRuntime.start();
  data.purge.start();
  jobRunner.start();
  qualityGrader.start();
  exams.start();
  lti.start();
  return { config, store, model, metrics, materials, retrieval, lectures, classes, monitor, signer, accounts, ownership, quizzes, quizJudge, guard, critic, quality, rooms, roomRuntime, data, quotas, budget, jobs, mathJudge, mathSets, exams, lti, server, close };

  /**
   * Live exams: the service on the store, the grader and feedback agents, the class roster for nicknames,
   * the material's chapters for the report's review links, what the lecture knows of a student (transcript: verdicts,
   * remediated subconcepts, raised hands; their first answers to the class's math problems), and the monitor feed.
   */
  function createExams(): ExamService {
    const repository = examRepository;
    // Agent_ShortAnswerGrader with its evidence and Generator_feedBack (offline versions on the offline model).
    const real: ExamAgents = {
      grader: new ExamGrader({ model, logger: logger.child({ part: 'exam-grader' }) }),
      feedback: new ExamFeedback({ model, logger: logger.child({ part: 'exam-feedback' }) }),
    };
    const { grader, feedback } = overrides.examAgents ? overrides.examAgents(real) : real;
    return new ExamService({
      repository,
      nodeId,
      grader,
      feedback,
      roster: {
        nickname: async (classId, sessionId) => (await classRepository.student(classId, sessionId))?.nickname ?? null,
        students: async (classId) => (await classRepository.roster(classId)).map(({ sessionId, nickname }) => ({ sessionId, nickname })),
      },
      priorProfile: buildPriorProfile,
      source: async (materialId) => (await materials.pageTexts(materialId)).join('\n').slice(0, 200_000),
      // Each missed question's passage of the material: the one holding the sentence it was built on (its model
      // answer's source, found by that answer and the question), and that sentence, which the student's report quotes.
      sourcePassages: (materialId, questions) => reviewPassages((request) => retrieval.retrieve(request), materialId, questions),
      chapters: async (materialId) => {
        const material = await materials.get(materialId);
        return (material?.chapters ?? []).map((chapter) => ({
          chapter: chapter.index,
          title: chapter.title,
          pages: Array.from({ length: Math.min(50, Math.max(0, chapter.endPage - chapter.startPage + 1)) }, (_, offset) => chapter.startPage + offset),
        }));
      },
      signals: async (classId, sessionId) => {
        const items = [];
        let cursor: string | undefined;
        for (let page = 0; page < 10; page += 1) {
          const read = await lectures.transcriptPage(sessionId, cursor, 200);
          items.push(...read.items);
          if (read.nextCursor === null) break;
          cursor = read.nextCursor;
        }
        return { ...lectureSignals(items), quizAnswers: [...(await mathAnswers(sessionId)), ...(await selfQuizAnswers(classId, sessionId)), ...(await classItemAnswers(classId, sessionId))] };
      },
      // Answer groups by meaning use the model's embeddings only where they carry meaning (term vectors otherwise).
      ...(model.capabilities.semanticEmbeddings ? { embed: (texts: string[]) => model.embed(texts) } : {}),
      events: {
        progress: (classId, payload) => monitor.examProgress(classId, payload),
        graded: (classId, payload) => monitor.examGraded(classId, payload),
        closed: (classId, payload) => monitor.examClosed(classId, payload),
      },
      // Each time a student's result is final or changes (grading, an override, a regrade): its score goes to the LMS
      // gradebook when the class is a course's (queued durably; the step is safe to run twice).
      steps: [{ name: 'lms-grade', run: ({ exam, classId, sessionId }) => lti.grades.resultChanged(classId, exam.examId, sessionId) }],
      weights: config.exams.scoreWeights,
      sweepMs: config.exams.sweepMs,
      gradeRetries: config.exams.gradeRetries,
      gradeRetryMs: config.exams.gradeRetryMs,
      gradingLeaseMs: config.exams.gradingLeaseMs,
      ...(overrides.examClock ? { now: overrides.examClock } : {}),
      logger: logger.child({ part: 'exams' }),
    });
  }

  /**
   * A class student's first answers to self-study quiz items (seed 001's API, started with their class session),
   * with the chapter each was drawn from as the topic. Live quiz room answers are not here: a room's player is a
   * nickname typed at the room's code, tied to no class session.
   */
  async function selfQuizAnswers(classId: string, sessionId: string): Promise<LearnerSignals['quizAnswers']> {
    const answers = await selfStudyAnswers(store, { classId, sessionId }, { chapterTitle, logger });
    return answers.slice(-50).map((answer) => ({ question: answer.question.slice(0, 500), correct: answer.correct, topic: answer.topic ?? undefined, source: '혼자 퀴즈' }));
  }

  /**
   * A class student's first answers to the items of their class's quizzes over seed 001's `/answer` (`<quiz id>:<index>`),
   * weighed like self-study answers, with the item's chapter as the topic.
   */
  async function classItemAnswers(classId: string, sessionId: string): Promise<LearnerSignals['quizAnswers']> {
    const answers = await classQuizAnswers(store, quizzes, { classId, sessionId }, { logger });
    return answers.slice(-50).map((answer) => ({ question: answer.question.slice(0, 500), correct: answer.correct, topic: answer.topic ?? undefined, source: '수업 퀴즈' }));
  }

  /**
   * A class student's first answers to the math problems shared with their class, weighed like quiz answers, with the
   * chapter their set was made for as the topic.
   */
  async function mathAnswers(sessionId: string): Promise<LearnerSignals['quizAnswers']> {
    const answers = await classMathAnswers(mathSets, sessionId, { chapterTitle });
    return answers.slice(-50).map((answer) => ({ question: answer.question.slice(0, 500), correct: answer.correct, topic: answer.topic ?? undefined, source: '수학 문제' }));
  }

  /** A material's chapter title, for the topic of a learner's quiz and math answers. */
  async function chapterTitle(materialId: string, chapter: number): Promise<string | null> {
    return (await materials.get(materialId))?.chapters.find((entry) => entry.index === chapter)?.title ?? null;
  }
}
