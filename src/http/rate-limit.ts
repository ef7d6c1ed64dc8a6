import { createHash } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { RateLimitConfig } from '../kernel/index.js';
import { RateLimitedError } from '../kernel/index.js';
import type { Store } from '../store/index.js';
import { StoreRateLimitStore } from '../boundary/index.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** An exam autosave (relative to the /api mount): limited per student, not against the address's general budget. */
const EXAM_DRAFT = /^\/class-exams\/[^/]+\/draft\/?$/u;
const isDraftSave = (request: Request) => request.method === 'PUT' && EXAM_DRAFT.test(request.path);
/**
 * A class join, or what may be one (`POST /sessions` is a join when its body names a class code, and the body is not
 * read yet here): counted by the join limits instead (join-attempts.ts), so a lecture hall behind one address is not
 * stopped by the general per-address limit. `POST /sessions` without a class code meets that limit after the body
 * is parsed ({@link createAddressLimit}, mounted in server.ts).
 */
const CLASS_JOIN = /^\/classes\/[^/]+\/join\/?$/u;
const mayBeJoin = (request: Request) => request.method === 'POST' && (CLASS_JOIN.test(request.path) || /^\/sessions\/?$/u.test(request.path));

/** The bearer credential of a request, hashed (the key of a per-student limit; the route checks the token itself). */
function bearerKey(request: Request): string {
  return createHash('sha256').update(request.get('authorization') ?? '').digest('base64url');
}

export interface RateLimitDeps {
  store: Store;
  limits: RateLimitConfig;
  /** Injected clock (tests move windows without waiting). */
  now?: () => number;
}

/** The signed-in account of a request, when an auth middleware ran before this one (optional by design). */
function accountOf(response: Response): string | undefined {
  return (response.locals as { principal?: { accountId?: string } }).principal?.accountId;
}

/** The client address as express resolved it (`trust proxy: loopback`); IPv6 clients are grouped by /56. */
export function requestAddress(request: Request): string {
  return ipKeyGenerator(request.ip ?? request.socket.remoteAddress ?? 'unknown');
}

/** Whole seconds until `resetTime`, at least 1 (a `Retry-After` of 0 invites an immediate retry storm). */
export function secondsUntil(resetTime: Date | undefined, now: number): number {
  if (resetTime === undefined) return 1;
  return Math.max(1, Math.ceil((resetTime.getTime() - now) / 1000));
}

/**
 * Rate limits for every state-changing request under /api (mount at `/api`, after the auth middleware so the
 * per-account limits see `response.locals.principal`): per client address and per account, plus stricter ones for
 * sign-in/sign-up/reset and for uploads and model generation. Counters live in the store, so every node of a Redis
 * deployment counts together. Reads (GET/HEAD), /healthz, /readyz and static files are never limited: this router is
 * only mounted under /api and skips every other method.
 */
/** Builds one limiter; `skip` adds requests it does not count (beyond reads, and anonymous ones for an account). */
function limiterOf(deps: RateLimitDeps) {
  const now = deps.now ?? Date.now;
  return (name: string, windowMs: number, max: number, by: 'address' | 'account' | 'bearer', skip: (request: Request) => boolean = () => false): RequestHandler =>
    rateLimit({
      windowMs,
      limit: max,
      store: new StoreRateLimitStore(deps.store, name, now),
      standardHeaders: false,
      legacyHeaders: false,
      skip: (request, response) => !STATE_CHANGING.has(request.method) || (by === 'account' && accountOf(response) === undefined) || skip(request),
      keyGenerator: (request, response) => (by === 'account' ? accountOf(response)! : by === 'bearer' ? bearerKey(request) : requestAddress(request)),
      handler: (request, _response, next) => {
        const info = (request as Request & { rateLimit?: { resetTime?: Date } }).rateLimit;
        // The error middleware writes the body and the Retry-After header, like every other error.
        next(new RateLimitedError(secondsUntil(info?.resetTime, now())));
      },
      // The key generators are ours (addresses pass through ipKeyGenerator); the library need not warn about them.
      validate: { keyGeneratorIpFallback: false },
    });
}

/**
 * The general per-address limit alone (the same counters as {@link createRateLimits}'), for a request that skipped it
 * there because it might have been a join and turned out not to be one.
 */
export function createAddressLimit(deps: RateLimitDeps): RequestHandler {
  return limiterOf(deps)('api-address', deps.limits.windowMs, deps.limits.addressMax, 'address');
}

export function createRateLimits(deps: RateLimitDeps): Router {
  const { limits } = deps;
  const limiter = limiterOf(deps);

  const router = Router();
  // Exam autosaves and joins are counted by limits of their own (below, and join-attempts.ts).
  router.use(limiter('api-address', limits.windowMs, limits.addressMax, 'address', (request) => isDraftSave(request) || mayBeJoin(request)));
  // Exam autosaves: per student (the session token) and a generous per-address flood guard instead.
  router.put('/class-exams/:examId/draft', limiter('draft-student', limits.windowMs, limits.draftMax, 'bearer'), limiter('draft-address', limits.windowMs, limits.draftAddressMax, 'address'));
  router.use(limiter('api-account', limits.windowMs, limits.accountMax, 'account'));
  // Guessing passwords or flooding sign-ups: a few per window. Mounted by path so the routes are covered when they land.
  const auth = [limiter('auth-address', limits.strictWindowMs, limits.authMax, 'address'), limiter('auth-account', limits.strictWindowMs, limits.authMax, 'account')];
  router.post(['/auth/signin', '/auth/signup', '/auth/reset', '/auth/reset/{*rest}'], ...auth);
  // Uploads (PDF parsing), quiz, math problem and exam generation, short-answer grading, exam regrades and critic
  // grading (model calls) cost real CPU and money.
  const generation = [
    limiter('generation-address', limits.strictWindowMs, limits.generationMax, 'address'),
    limiter('generation-account', limits.strictWindowMs, limits.generationMax, 'account'),
  ];
  router.post(['/materials', '/materials/:id/quiz', '/materials/:id/math-problems', '/math-sets/:id/problems/:problemId/answer', '/class-math/answer', '/materials/:id/exams', '/class-exams/:examId/regrade', '/class-exams/self-study', '/quiz/start', '/quiz/evaluate', '/critic/grade'], ...generation);
  return router;
}
