import { Router, type NextFunction, type Request, type Response } from 'express';
import { analyticsCsv, ClassAnalytics, type AnalyticsSources, type ClassExamInput } from '../analytics/index.js';
import type { ClassService } from '../classroom/index.js';
import type { ExamService } from '../exams/index.js';
import type { MaterialService } from '../materials/index.js';
import { classMathAnswers, type MathSetRepository } from '../math-problems/index.js';
import { AppError } from '../kernel/index.js';
import { classNotFound } from '../ownership/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { AnalyticsCsvParams, AnalyticsEvidenceQuery, AnalyticsParams } from '../protocol/analytics.js';
import type { TranscriptItem } from '../protocol/wire/tutor.js';
import { classQuizAnswers, selfStudyAnswers, type QuizRepository, type RoomService } from '../quiz/index.js';
import type { Store } from '../store/index.js';
import type { Authorizer } from './authorize.js';
import { contentDisposition } from './content-disposition.js';
import { httpStatusOf, parseOrThrow } from '../boundary/index.js';

/**
 * The instructor's class analytics (src/analytics/), mounted at /api/analytics:
 * - `GET /api/analytics/classes/:classId` -> ClassAnalyticsReply
 * - `GET /api/analytics/classes/:classId/:part.csv` (`items`, `mastery`, `funnel`) -> the same figures as CSV
 * - `GET /api/analytics/classes/:classId/evidence?sessionId=&chapter=` -> MasteryEvidenceReply (404 for a student or
 *   column the class does not have)
 * Only the class's owner account or its instructor token (authorizeClass: another account's class is 404 like a
 * missing one, no credential 401); params are checked before anything is read.
 */
export interface AnalyticsRouterDeps {
  access: Authorizer;
  classes: ClassService;
  materials: MaterialService;
  rooms: RoomService;
  exams: ExamService;
  quizzes: Pick<QuizRepository, 'get'>;
  mathSets: Pick<MathSetRepository, 'firstAnswers' | 'get'>;
  store: Store;
  now?: () => number;
}

/** The newest rooms and exams analysed per class, and the transcript read per student. */
const ROOMS_READ = 50;
const EXAMS_READ = 50;
/** Students' own self-study exams read per class (their mastery evidence), newest first. */
const OWN_EXAMS_READ = 200;
/**
 * How much of the class's exam index is read to pick those: students' own self-study exams share it with the class's,
 * so the newest 50 entries could all be theirs and push every class exam out.
 */
const EXAM_INDEX_WINDOW = 2_000;
const TRANSCRIPT_PAGES = 10;
const TRANSCRIPT_PAGE = 200;

/** The analytics' sources on the services the app already has. */
export function analyticsSources({ classes, materials, rooms, exams, quizzes, mathSets, store }: Omit<AnalyticsRouterDeps, 'access'>): AnalyticsSources {
  const chapters = async (materialId: string) => ((await materials.get(materialId))?.chapters ?? []).map((chapter) => ({ index: chapter.index, title: chapter.title }));
  return {
    classInfo: async (classId) => {
      try {
        const info = await classes.info(classId);
        return { name: info.name, materialId: info.materialId, students: info.students.map(({ sessionId, nickname, chapter, state }) => ({ sessionId, nickname, chapter, state })) };
      } catch (error) {
        if (error instanceof AppError && httpStatusOf(error) === 404) return null;
        throw error;
      }
    },
    chapters,
    transcript: async (classId, sessionId) => {
      const items: TranscriptItem[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < TRANSCRIPT_PAGES; page += 1) {
        const read = await classes.transcript(classId, { sessionId, cursor, limit: TRANSCRIPT_PAGE });
        items.push(...read.items);
        if (read.nextCursor === null) break;
        cursor = read.nextCursor;
      }
      return items;
    },
    quizAnswers: (classId) => {
      // Read once per request, whoever asks: the material's chapters and each of the class's quizzes.
      const once = <T>(read: (key: string) => Promise<T>) => {
        const cache = new Map<string, Promise<T>>();
        return (key: string) => cache.get(key) ?? cache.set(key, read(key)).get(key)!;
      };
      const chaptersOf = once(chapters);
      const quiz = { get: once((quizId) => quizzes.get(quizId)) };
      const chapterTitle = async (materialId: string, chapter: number) => (await chaptersOf(materialId)).find((entry) => entry.index === chapter)?.title ?? null;
      // The sources the learner profile names them by (src/app.ts), oldest first like the profile reads them.
      return async (sessionId) => {
        const [own, ofClass, math] = await Promise.all([
          selfStudyAnswers(store, { classId, sessionId }, { chapterTitle }),
          classQuizAnswers(store, quiz, { classId, sessionId }),
          classMathAnswers(mathSets, sessionId, { chapterTitle }),
        ]);
        return [
          ...own.map((answer) => ({ ...answer, source: '혼자 퀴즈' })),
          ...ofClass.map((answer) => ({ ...answer, source: '수업 퀴즈' })),
          ...math.map((answer) => ({ ...answer, source: '수학 문제' })),
        ]
          .sort((left, right) => left.at - right.at)
          .map(({ question, correct, topic, source }) => ({ question, correct, topic, source }));
      };
    },
    rooms: async (classId) => {
      const { items } = await rooms.repository.listByClass(classId, { limit: ROOMS_READ });
      const stored = await Promise.all(items.map((entry) => rooms.repository.results(entry.roomId)));
      return stored.flatMap((results) => (results ? [results] : []));
    },
    exams: async (classId) => {
      const indexed = await exams.repository.classExams(classId, EXAM_INDEX_WINDOW);
      const publications = await exams.repository.publications(indexed);
      const picked = { class: 0, own: 0 };
      const chosen = indexed.flatMap((examId, index) => {
        const publication = publications[index];
        if (!publication || publication.classId !== classId) return [];
        const own = publication.student !== undefined;
        if (own ? picked.own >= OWN_EXAMS_READ : picked.class >= EXAMS_READ) return [];
        picked[own ? 'own' : 'class'] += 1;
        return [{ examId, publication }];
      });
      const read = await Promise.all(
        chosen.map(async ({ examId, publication }): Promise<ClassExamInput | null> => {
          const exam = await exams.repository.get(examId);
          if (!exam) return null;
          // The instructor's own results read (GET /api/exams/:id/results): like it, it closes an exam whose deadline
          // passed and restarts a stalled grading, so the figures are those of the results page.
          const results = await exams.results(exam);
          return {
            examId,
            title: exam.title,
            publishedAt: publication.publishedAt,
            chapters: exam.request.chapters,
            // A student's own self-study exam is theirs alone: their mastery's evidence, not an assessment of the class.
            ...(publication.student === undefined ? {} : { selfStudy: true }),
            problems: exam.problems,
            students: results.students.map((student) => ({ sessionId: student.sessionId, items: student.items })),
          };
        }),
      );
      return read.flatMap((exam) => (exam ? [exam] : []));
    },
  };
}

type Handler = (request: Request, response: Response) => Promise<void>;
const route = (handler: Handler) => (request: Request, response: Response, next: NextFunction) => handler(request, response).catch(next);

export function createAnalyticsRouter(deps: AnalyticsRouterDeps): Router {
  const analytics = new ClassAnalytics({ sources: analyticsSources(deps), ...(deps.now ? { now: deps.now } : {}) });
  const router = Router();
  const read = async (request: Request, response: Response, classId: string) => {
    await deps.access.authorizeClass(request, response, classId);
    const reply = await analytics.forClass(classId);
    if (!reply) throw classNotFound();
    // Students' names and grades: never kept by a shared cache.
    response.set('Cache-Control', 'no-store');
    return reply;
  };
  router.get(
    '/classes/:classId',
    route(async (request, response) => {
      const { classId } = parseOrThrow(AnalyticsParams, { classId: request.params.classId });
      response.json(await read(request, response, classId));
    }),
  );
  router.get(
    '/classes/:classId/evidence',
    route(async (request, response) => {
      const { classId } = parseOrThrow(AnalyticsParams, { classId: request.params.classId });
      const { sessionId, chapter } = parseOrThrow(AnalyticsEvidenceQuery, request.query);
      await deps.access.authorizeClass(request, response, classId);
      const reply = await analytics.evidence(classId, sessionId, chapter);
      if (!reply) throw new AppError(ErrorCode.NOT_FOUND, '이 수업에서 그 학생이나 장을 찾을 수 없습니다.');
      response.set('Cache-Control', 'no-store').json(reply);
    }),
  );
  router.get(
    '/classes/:classId/:part.csv',
    route(async (request, response) => {
      const { classId, part } = parseOrThrow(AnalyticsCsvParams, { classId: request.params.classId, part: request.params.part });
      const reply = await read(request, response, classId);
      response
        .type('text/csv; charset=utf-8')
        .set('Content-Disposition', contentDisposition('attachment', `${reply.name}-분석-${part}.csv`))
        .send(analyticsCsv(reply, part));
    }),
  );
  return router;
}
