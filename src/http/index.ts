/**
 * Express routers, the error middleware and security headers: the HTTP transport, thin by design. A route parses its
 * input with boundary/ (zod, Korean INVALID_PAYLOAD), authorises on the server (authorize.ts: a Grant for an owner
 * account, a class instructor token or a student session), calls a service and answers. principal.ts resolves the
 * web session cookie (with its CSRF token on state-changing requests) or an API token; rate-limit.ts mounts the
 * per-address, per-account and stricter per-path limits at /api; error-middleware.ts is the one place an error becomes
 * `{error:{code,message}}` with its status from ERROR_STATUS; security-headers.ts (helmet, CSP script-src 'self')
 * runs in front of every request listener, socket.io's too. docs/PROTOCOL.md's route table is generated from the
 * routers as mounted.
 */
export { createAnalyticsRouter, type AnalyticsRouterDeps } from './analytics-router.js';
export { createClassesRouter } from './classes-router.js';
export { createCriticRouter, type CriticRouterDeps } from './critic-router.js';
export { createQualityRouter, type QualityRouterDeps } from './quality-router.js';
export { createDataRouter, type DataRouterDeps } from './data-router.js';
export { apiNotFound, errorMiddleware } from './error-middleware.js';
export { createHealthRouter } from './health-router.js';
export { createMaterialsRouter } from './materials-router.js';
export { createMetricsRouter, createMetricsServer } from './metrics-router.js';
export { createMaterialQuizRouter, createQuizzesRouter } from './quizzes-router.js';
export { createQuizImagesRouter } from './quiz-images-router.js';
export { createSeedQuizRouter, type SeedQuizRouterDeps } from './seed-quiz-router.js';
export { createClassMathRouter, type ClassMathRouterDeps } from './class-math-router.js';
export { createClassExamsRouter, type ClassExamsRouterDeps } from './class-exams-router.js';
export { createExamsRouter, type ExamsRouterDeps } from './exams-router.js';
export { createMathRouter, JOB_TOKEN_TTL_MS, type MathRouterDeps } from './math-router.js';
export { createRoomsRouter } from './rooms-router.js';
export { securityHeaders, securityHeadersOnEveryResponse } from './security-headers.js';
export { createSessionsRouter } from './sessions-router.js';
export { createAddressLimit, createRateLimits, requestAddress } from './rate-limit.js';
export { joinAttemptGuard } from './join-attempt-guard.js';
export { createOidcRouter, OIDC_CALLBACK_PATH, SIGN_IN_PAGE, type OidcAccounts } from './oidc-router.js';
export { createAuthRouter } from './auth-router.js';
export { createAdminRouter } from './admin-router.js';
export {
  SESSION_COOKIE,
  authenticate,
  clearSessionCookie,
  optionalAccount,
  requireAccount,
  requireAdmin,
  requireSameOrigin,
  webSessionStarter,
  type Principal,
  type StartWebSession,
} from './principal.js';
export { inviteUrl, publicBase, resetUrl } from './account-links.js';
export { Authorizer, materialNotFound, type AuthorizeDeps, type Grant } from './authorize.js';
export { createLtiApiRouter, createLtiRouter, ltiFraming, ltiPickerFormTargets, LTI_STATE_COOKIE, type LtiRouterDeps } from './lti-router.js';
export { allowFormTargets, allowFraming } from './security-headers.js';
