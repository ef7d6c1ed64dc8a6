import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { AppError, isAppError } from '../kernel/index.js';
import type { ExamService } from '../exams/index.js';
import type { Logger } from '../kernel/index.js';
import { DeepLinkAnswer, LOGIN_TTL_MS, LoginParams, ManualPlatformInput, PlatformInput, type LtiService } from '../lti/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { Authorizer } from './authorize.js';
import { publicBase } from './account-links.js';
import { sendLanding, sendLtiError } from './lti-pages.js';
import { requireAdmin, type StartWebSession } from './principal.js';
import { allowFormTargets, allowFraming } from './security-headers.js';
import { httpStatusOf, parseOrThrow } from '../boundary/index.js';

/**
 * LTI 1.3 over HTTP.
 *
 * For the LMS (`/lti`, HTML answers shown in the LMS's frame; a refusal is a Korean error page with its code):
 * - `GET|POST /lti/login` — OIDC third-party login initiation → 302 to the platform's auth endpoint (state cookie
 *   `lectern_lti_state`, SameSite=None; Secure, path /lti, 10 minutes)
 * - `POST /lti/launch` — the `id_token` form post → the landing page (a teacher also gets a framed browser session)
 * - `GET /lti/jwks` — lectern's public keys
 * - `GET /lti/sign-in?code=` — a teacher's one-use sign-in for a new window (when the frame kept no cookie)
 * - `GET /lti/register?code=…&openid_configuration=…&registration_token=…` — dynamic registration → /lti-registered.html
 *
 * For lectern's pages (`/api/lti`, JSON):
 * - admin: `GET|POST /platforms`, `PUT|DELETE /platforms/:id`, `POST /registration-codes`, `POST /tool-keys/rotate`
 * - the picker (its secret is the credential): `GET|POST /deep-links/:secret`
 * - a student waiting for a quiz room: `GET /quiz-tickets/:ticket`
 * - the exam's owner: `GET /exams/:examId/grades`, `POST /exams/:examId/grades/retry`
 * - the class's owner: `GET /classes/:classId` (is it an LMS course's?), `POST /classes/:classId/roster` (read the
 *   course roster from the LMS now)
 */

export interface LtiRouterDeps {
  lti: LtiService;
  exams: ExamService;
  access: Authorizer;
  publicUrl: string | undefined;
  /** The teacher's browser session, with a cookie that survives the LMS's frame. */
  startFramedSession: StartWebSession;
  /** The teacher's browser session in a window of its own (an ordinary SameSite=Lax cookie). */
  startSession: StartWebSession;
  logger: Logger;
}

export const LTI_STATE_COOKIE = 'lectern_lti_state';

type Handler = (request: Request, response: Response) => Promise<void>;
const route = (handler: Handler) => (request: Request, response: Response, next: NextFunction) => handler(request, response).catch(next);

/** `/lti`: the routes the LMS and the browser inside it call. */
export function createLtiRouter(deps: LtiRouterDeps): Router {
  const { lti, publicUrl } = deps;
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: '64kb' }));

  const login = route(async (request, response) => {
    const params = parseOrThrow(LoginParams, request.method === 'POST' ? request.body : request.query);
    const { redirect, state } = await lti.beginLogin(params, publicBase(request, publicUrl));
    response.cookie(LTI_STATE_COOKIE, state, { httpOnly: true, sameSite: 'none', secure: true, path: '/lti', maxAge: LOGIN_TTL_MS });
    response.set('Cache-Control', 'no-store').redirect(302, redirect);
  });
  router.get('/login', login);
  router.post('/login', login);

  router.post(
    '/launch',
    route(async (request, response) => {
      const body = z.object({ id_token: z.string().max(100_000).optional(), state: z.string().max(200).optional() }).safeParse(request.body ?? {});
      const form = body.success ? body.data : {};
      const landing = await lti.launch({ idToken: form.id_token, state: form.state }, readCookie(request, LTI_STATE_COOKIE));
      response.clearCookie(LTI_STATE_COOKIE, { httpOnly: true, sameSite: 'none', secure: true, path: '/lti' });
      if (landing.kind === 'instructor' || landing.kind === 'picker') await deps.startFramedSession(response, landing.accountId, request);
      if (landing.kind === 'instructor') return sendLanding(response, { kind: 'instructor', path: landing.path, signIn: landing.signIn });
      if (landing.kind === 'picker') return sendLanding(response, { kind: 'picker', picker: landing.picker });
      sendLanding(response, landing);
    }),
  );

  // The teacher's new window when the LMS frame kept no cookie: a first-party session, then the page of the launch.
  router.get(
    '/sign-in',
    route(async (request, response) => {
      const code = typeof request.query.code === 'string' ? request.query.code : '';
      const found = code ? await lti.takeSignIn(code) : null;
      if (!found) throw new AppError(ErrorCode.LTI_STATE_INVALID, '이 로그인 링크는 만료되었거나 이미 사용되었습니다. LMS에서 다시 열어 주세요.');
      await deps.startSession(response, found.accountId, request);
      response.set('Cache-Control', 'no-store').redirect(302, found.path);
    }),
  );

  router.get(
    '/jwks',
    route(async (_request, response) => {
      response.set('Cache-Control', 'public, max-age=300').json(await lti.toolKeys.jwks());
    }),
  );

  router.get(
    '/register',
    route(async (request, response) => {
      const query = z
        .object({ code: z.string().min(1).max(200), openid_configuration: z.string().min(1).max(2048), registration_token: z.string().max(8192).optional() })
        .safeParse(request.query);
      if (!query.success) {
        throw new AppError(ErrorCode.LTI_REGISTRATION_INVALID, 'LMS가 등록에 필요한 값(openid_configuration)을 보내지 않았거나 등록 주소의 코드가 없습니다.');
      }
      // The LMS shows this in its own frame before it is registered: let its address frame the answer.
      allowFraming(response, [originOf(query.data.openid_configuration)].filter((origin): origin is string => origin !== null));
      const platform = await lti.registerWithCode(
        query.data.code,
        { openidConfiguration: query.data.openid_configuration, registrationToken: query.data.registration_token },
        publicBase(request, publicUrl),
      );
      response.set('Cache-Control', 'no-store').redirect(302, `/lti-registered.html?name=${encodeURIComponent(platform.name)}`);
    }),
  );

  // Refusals are pages people read inside the LMS, not JSON.
  router.use((error: unknown, _request: Request, response: Response, next: NextFunction) => {
    if (response.headersSent) return next(error);
    if (isAppError(error)) return sendLtiError(response, httpStatusOf(error), error.code, error.message);
    deps.logger.error({ err: error }, 'lti request failed');
    sendLtiError(response, 500, ErrorCode.INTERNAL, '서버 내부 오류가 발생했습니다. 잠시 후 LMS에서 다시 열어 주세요.');
  });
  return router;
}

/** `/api/lti`: the account page, the picker, the waiting student, the host and monitor pages. */
export function createLtiApiRouter(deps: LtiRouterDeps): Router {
  const { lti, exams, access, publicUrl } = deps;
  const router = Router();

  const toolUrls = (request: Request) => {
    const base = publicBase(request, publicUrl);
    return { loginUrl: `${base}/lti/login`, launchUrl: `${base}/lti/launch`, jwksUrl: `${base}/lti/jwks`, registrationUrl: `${base}/lti/register` };
  };

  router.get(
    '/platforms',
    route(async (request, response) => {
      requireAdmin(response);
      const [platforms, keys] = await Promise.all([lti.platforms.list(), lti.toolKeys.published()]);
      response.json({ platforms, tool: toolUrls(request), keys });
    }),
  );
  router.post(
    '/platforms',
    route(async (request, response) => {
      const admin = requireAdmin(response);
      response.status(201).json(await lti.register(parseOrThrow(ManualPlatformInput, request.body), admin.accountId));
    }),
  );
  router.put(
    '/platforms/:id',
    route(async (request, response) => {
      requireAdmin(response);
      response.json(await lti.update(String(request.params.id), parseOrThrow(PlatformInput, request.body)));
    }),
  );
  router.delete(
    '/platforms/:id',
    route(async (request, response) => {
      requireAdmin(response);
      await lti.remove(String(request.params.id));
      response.status(204).end();
    }),
  );
  router.post(
    '/registration-codes',
    route(async (request, response) => {
      const admin = requireAdmin(response);
      const choice = parseOrThrow(z.object({ createInstructors: z.boolean().default(true), trustEmails: z.boolean().default(false) }), request.body ?? {});
      const { code, expiresAt } = await lti.registrationCode(admin.accountId, choice);
      response.status(201).json({ url: `${toolUrls(request).registrationUrl}?code=${encodeURIComponent(code)}`, expiresAt });
    }),
  );
  router.post(
    '/tool-keys/rotate',
    route(async (_request, response) => {
      requireAdmin(response);
      response.json({ keys: await lti.toolKeys.rotate() });
    }),
  );

  router.get(
    '/deep-links/:secret',
    route(async (request, response) => {
      response.set('Cache-Control', 'no-store').json(await lti.deepLinking.view(String(request.params.secret)));
    }),
  );
  router.post(
    '/deep-links/:secret',
    route(async (request, response) => {
      const { choices } = parseOrThrow(DeepLinkAnswer, request.body);
      response.json(await lti.deepLinking.respond(String(request.params.secret), choices, publicBase(request, publicUrl)));
    }),
  );
  router.get(
    '/quiz-tickets/:ticket',
    route(async (request, response) => {
      response.set('Cache-Control', 'no-store').json(await lti.quizTicket(String(request.params.ticket)));
    }),
  );

  const ownExam = async (request: Request, response: Response) => {
    const grant = await access.accountOrClassToken(request, response);
    const exam = await exams.repository.get(String(request.params.examId));
    const publication = exam ? await exams.repository.publication(exam.examId) : null;
    if (!exam || exam.accountId !== grant.accountId || (grant.via === 'token' && publication?.classId !== grant.classId)) {
      throw new AppError(ErrorCode.EXAM_NOT_FOUND);
    }
    return { exam, publication };
  };
  router.get(
    '/exams/:examId/grades',
    route(async (request, response) => {
      const { exam, publication } = await ownExam(request, response);
      const status = publication ? await lti.gradeStatus(publication.classId, exam.examId) : null;
      if (!status) {
        response.json({ lms: false });
        return;
      }
      response.json({ lms: true, course: status.course, students: [...status.states].map(([sessionId, state]) => ({ sessionId, ...state })) });
    }),
  );
  router.post(
    '/exams/:examId/grades/retry',
    route(async (request, response) => {
      const { exam, publication } = await ownExam(request, response);
      response.json({ queued: publication ? await lti.grades.retry(publication.classId, exam.examId) : 0 });
    }),
  );
  router.get(
    '/classes/:classId',
    route(async (request, response) => {
      const classId = String(request.params.classId);
      await access.authorizeClass(request, response, classId);
      const course = await lti.courses.course(classId);
      response.json(course ? { lms: true, course: course.contextTitle, roster: course.membershipsUrl !== undefined } : { lms: false });
    }),
  );
  router.post(
    '/classes/:classId/roster',
    route(async (request, response) => {
      const classId = String(request.params.classId);
      await access.authorizeClass(request, response, classId);
      const read = await lti.classes.syncRoster(classId, true);
      if (!read) throw new AppError(ErrorCode.NOT_FOUND, '이 수업은 명단을 주는 LMS 강좌와 연결되어 있지 않습니다.');
      response.json(read);
    }),
  );
  return router;
}

/** Frames from the registered platforms' origins, on every response (a store hiccup leaves `'none'`). */
export function ltiFraming(lti: LtiService, logger: Logger) {
  let warnedAt = 0;
  return async (_request: Request, response: Response, next: NextFunction) => {
    try {
      allowFraming(response, await lti.frameOrigins());
    } catch (error) {
      // Once a minute at most: during a store outage every request would say it.
      if (Date.now() - warnedAt > 60_000) {
        warnedAt = Date.now();
        logger.warn({ err: error }, 'lti frame origins unavailable; framing refused');
      }
    }
    next();
  };
}

/** The Deep Linking picker page may post its answer to the LMS's return URL (any registered platform's origin). */
export function ltiPickerFormTargets(lti: LtiService) {
  return async (_request: Request, response: Response, next: NextFunction) => {
    try {
      allowFormTargets(response, await lti.frameOrigins());
    } catch {
      // Without the list the page can still show; its post is refused by the browser and it says so.
    }
    next();
  };
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.get('cookie') ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}
