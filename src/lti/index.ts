/**
 * LTI 1.3 with the Advantage services: lectern as a tool inside an LMS (Moodle 4.x, Canvas and any certified
 * platform). The HTTP side is src/http/lti-router.ts (`/lti/*` for the LMS, `/api/lti/*` for lectern's pages).
 *
 * - Registration (`platform-record.ts`, `platform-repository.ts`, `dynamic-registration.ts`): an admin registers a
 *   platform on the account page (issuer, client id, deployment ids, JWKS, auth and token endpoints), or hands the
 *   LMS a dynamic registration URL with a one-use code. Several platforms per deployment, durable in the store.
 * - Keys (`tool-keys.ts`): lectern's RS256 key pair, in the store, published at `/lti/jwks`, rotatable (the previous
 *   key stays published). `platform-key-sets.ts`: each platform's JWKS through `jose` (refetched for an unknown kid).
 * - Launch (`launch-validator.ts`): OIDC third-party login with a one-use state and nonce, the `id_token` checked
 *   completely (signature, iss, aud, azp, exp/iat, nonce once, state, deployment id, message type, version 1.3.0).
 *   `lti-service.ts` decides where it lands: a student in the linked lecture or exam of the course's class
 *   (`course-classes.ts`: one class per course, owner and material; the student's session under their LMS name) or
 *   in the linked quiz's open room; a teacher, signed in to the lectern account linked to the LMS user (made on the
 *   first launch when the registration allows), on the class's monitor or the exam's results.
 * - Deep Linking 2.0 (`deep-linking.ts`): the picker's choices become signed `LtiDeepLinkingResponse` content items.
 * - Names and Roles (`course-classes.ts` `syncRoster`): the course roster becomes the class's students.
 * - Assignment and Grade Services (`grade-passback.ts`, `grade-rules.ts`, `platform-client.ts`): a student's exam
 *   score goes to the exam's line item when the result becomes final or changes (the exams' `resultChanged` hook),
 *   retried with backoff, shown on the host page; `gradeHold` is the one rule that holds a score back.
 *
 * Why not `ltijs`: it brings its own express server and keeps platforms, keys and tokens in MongoDB (or SQL through
 * ltijs-sequelize), beside lectern's store; lectern's data lives in one store with two implementations and one
 * contract suite. `jose` does the cryptography (JWT, JWS, remote JWKS with rotation); the protocol steps are here.
 */
export { CLAIM, LaunchPayload, SCOPE, TOOL_SCOPES, displayName, teaches } from './lti-claims.js';
export { ManualPlatformInput, PlatformInput, PlatformRecord, frameOriginsOf, secureUrl } from './platform-record.js';
export { LinkRecord, PlatformRepository, courseKey, sha256 } from './platform-repository.js';
export { CourseRepository, CourseRecord, CourseMember, GradeState } from './course-repository.js';
export { ToolKeys, type PublishedKey } from './tool-keys.js';
export { PlatformKeySets, type KeySetOptions } from './platform-key-sets.js';
export { LaunchValidator, LoginParams, LOGIN_TTL_MS, type VerifiedLaunch } from './launch-validator.js';
export { PlatformClient, Member, LineItem, nextLink, type Score } from './platform-client.js';
export { CourseClasses, courseOf, userHash } from './course-classes.js';
export { DeepLinking, DeepLinkAnswer, DeepLinkChoice, DEEP_LINK_TTL_MS, type PickerView } from './deep-linking.js';
export { registerDynamically, RegistrationOptions, REGISTRATION_CODE_TTL_MS } from './dynamic-registration.js';
export { GradePassback, type StudentScore } from './grade-passback.js';
export { gradeHold, HOLD_MESSAGES, REVIEW_STATUSES, type HoldReason } from './grade-rules.js';
export { ltiKeys } from './lti-keys.js';
export { LtiService, type Landing, type LtiServiceOptions } from './lti-service.js';
export type { ExamSummary, LtiPorts, MaterialOutline, QuizSummary } from './lti-ports.js';
