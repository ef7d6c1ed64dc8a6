import { storeKey as key } from '../store/index.js';

/**
 * The LMS integration's store keys: the registered platforms, lectern's own signing keys, courses linked to classes,
 * grade passback, and the one-use records of a login, a launch or a deep link (those with a TTL).
 */
export const ltiKeys = {
  /** lectern's tool key pairs (JSON list, newest first: it signs, every one is published at /lti/jwks); no TTL. */
  ltiToolKeys: () => key('lti', 'tool-keys'),
  /** A registered LMS platform (JSON: issuer, client id, deployment ids, endpoints, options); no TTL. */
  ltiPlatform: (id: string) => key('lti', 'platform', id),
  /** The registered platforms (sorted set of ids by registration time); no TTL. */
  ltiPlatforms: () => key('lti', 'platforms'),
  /** One issuer's registrations (hash: client id -> platform id), found from a login's `iss`; no TTL. */
  ltiIssuer: (issuerHash: string) => key('lti', 'issuer', issuerHash),
  /** The links a platform's courses hold (sorted set of link ids by creation), deleted with the platform; no TTL. */
  ltiPlatformLinks: (platformId: string) => key('lti', 'platform', platformId, 'links'),
  /** The classes of a platform's courses (hash: sha256 of course, owner and material -> class id); no TTL. */
  ltiPlatformClasses: (platformId: string) => key('lti', 'platform', platformId, 'classes'),
  /** A deep-linked resource in an LMS course (JSON: platform, kind, resource id, owner account); no TTL. */
  ltiLink: (id: string) => key('lti', 'link', id),
  /** A class made for an LMS course (hash: `course` JSON with its service endpoints, `lineitem:{item}` URLs); no TTL. */
  ltiClass: (classId: string) => key('lti', 'class', classId),
  /** A course class's LMS members (hash: `user:{hash}` -> JSON member, `session:{id}` -> user hash); no TTL. */
  ltiClassMembers: (classId: string) => key('lti', 'class', classId, 'members'),
  /** Grade passback per `{examId}|{sessionId}` of a course class (hash of JSON states: sent, waiting, failed); no TTL. */
  ltiClassGrades: (classId: string) => key('lti', 'class', classId, 'grades'),
  /** Scores to send (sorted set of `{classId}|{examId}|{sessionId}` by when to try); every node's sender reads it; no TTL. */
  ltiGradesPending: () => key('lti', 'grades', 'pending'),
  /** The lease of the node sending scores (one sender at a time); TTL. */
  ltiGradesLease: () => key('lti', 'grades', 'lease'),
  /** A dynamic registration code an admin made (sha256 of the code -> JSON options); TTL 7 days, one use. */
  ltiRegistrationCode: (codeHash: string) => key('lti', 'registration-code', codeHash),
  /** An OIDC login under way (sha256 of its state -> JSON: platform, nonce, target); TTL 10 minutes, one use. */
  ltiLogin: (stateHash: string) => key('lti', 'login', stateHash),
  /** A nonce already used by a launch (sha256 of platform and nonce); TTL a little past the id token's life. */
  ltiNonce: (nonceHash: string) => key('lti', 'nonce', nonceHash),
  /** A deep linking request under way (JSON: platform, return URL, data, account); TTL 1 hour. */
  ltiDeepLink: (idHash: string) => key('lti', 'deep-link', idHash),
  /** A teacher's one-use sign-in from a launch, for a new window when the LMS frame keeps no cookie (JSON); TTL 5 minutes. */
  ltiSignIn: (codeHash: string) => key('lti', 'sign-in', codeHash),
  /** A student waiting for a quiz room of a linked quiz to open (JSON); TTL 2 hours. */
  ltiQuizTicket: (idHash: string) => key('lti', 'quiz-ticket', idHash),
  /** A platform's access token for a set of scopes (string); TTL its lifetime less a minute. */
  ltiAccessToken: (platformId: string, scopeHash: string) => key('lti', 'access-token', platformId, scopeHash),
  /** Set while a course's roster was read from the LMS lately (string); TTL: how often it is read again. */
  ltiRosterSync: (classId: string) => key('lti', 'roster-sync', classId),
};
