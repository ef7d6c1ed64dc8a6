/**
 * Store keys shared by several folders, and the shared prefix every key is built with (`storeKey`), so a Redis can be
 * shared with other applications. A feature's own keys live in its folder's keys file (quiz/quiz-keys.ts,
 * classroom/class-keys.ts, lecture/lecture-keys.ts, math-problems/math-keys.ts, quality/quality-keys.ts,
 * materials/material-keys.ts, retrieval/retrieval-keys.ts, llm/usage-keys.ts). Ephemeral things (sessions, rooms, locks) get TTLs where they are
 * written; results, exam logs and learner profiles have none.
 */
export const KEY_PREFIX = 'lectern:';

/** Builds a key under the shared prefix: every feature's keys file builds its keys with it. */
export const storeKey = (...parts: (string | number)[]) => KEY_PREFIX + parts.join(':');
const key = storeKey;

export const keys = {
  /** A string used by readiness checks. */
  health: () => key('health'),
  /**
   * The deployment's token secret when TOKEN_SECRET is unset (string, SET NX by the first node); durable, no TTL:
   * every token in circulation depends on it (see classroom/token-secrets.ts).
   */
  tokenSecret: () => key('token-secret'),
  /** A node's heartbeat (short TTL, renewed every second): presence entries of a node without one are stale. */
  nodeHeartbeat: (nodeId: string) => key('node', nodeId),

  // LIM (limits): ephemeral counters, TTL = their window; never durable.
  /** Hits of one limiter by one client (address or account) in one fixed window (number in the key). */
  rateLimit: (limiter: string, client: string, window: number) => key('rate', limiter, client, window),
  /** The join attempts' token bucket of a client address (expires once full again). */
  joinBucket: (client: string) => key('rate', 'join-bucket', client),
  // Data lifecycle (deletion, retention, export: src/data/).
  /** Rooms whose results hold student data (sorted set scored by the last results write): the retention purge's queue. */
  retentionRooms: () => key('retention', 'rooms'),
  /** Uploaded quiz pictures no quiz showed yet (sorted set scored by upload time): the retention purge's other queue. */
  retentionImages: () => key('retention', 'quiz-images'),
  /** A background job (JSON: kind, owner, params, status, checkpoint, progress, result); RETENTION.jobMs after its last write. */
  job: (id: string) => key('job', id),
  /** The lease of the node running a job; expires when that node stops renewing it, so another node resumes the job. */
  jobLease: (id: string) => key('job', id, 'lease'),
  /** Set when a job's cancellation is asked for (string '1'); the node running it stops at its next check. TTL. */
  jobCancel: (id: string) => key('job', id, 'cancel'),
  /** Jobs not finished yet (sorted set of job ids scored by creation time): what every node's runner looks at; durable. */
  activeJobs: () => key('jobs', 'active'),
  // Math problem sets: what a `math-problems` job made, kept with every judgement.
  // Live exams (src/exams/exam-repository.ts): durable, no TTL; deleted with the exam, its class or its material.
  /** An exam (JSON: owner account, material, request, plan, problems, complaints, valid, rounds, createdAt). */
  exam: (examId: string) => key('exam', examId),
  /** An exam's publication (JSON: classId, timeLimitMinutes, publishedAt, deadline), SET NX: published once. */
  examPublication: (examId: string) => key('exam', examId, 'publication'),
  /** Set NX once by the node that closes the exam at its deadline (auto-submits the drafts, starts the grading). */
  examClosed: (examId: string) => key('exam', examId, 'closed'),
  /** The students who opened or answered a published exam (sorted set of session ids by first touch). */
  examStudents: (examId: string) => key('exam', examId, 'students'),
  /** Instructor overrides of an exam, append-only (stream: sessionId, questionId, by, at, from, to, reason). */
  examAudit: (examId: string) => key('exam', examId, 'audit'),
  /** The answers to one item the teacher moved out of their group (hash: session id -> when); deleted with the exam. */
  examDetached: (examId: string, questionId: number) => key('exam', examId, 'detached', String(questionId)),
  /** A student's autosaved drafts (hash: question id -> JSON {text, savedAt}; last write wins). */
  examDrafts: (examId: string, sessionId: string) => key('exam', examId, 'drafts', sessionId),
  /** A student's submissions (hash, HSETNX: question id -> JSON {text, at}; `all` -> ms of the whole submission). */
  examSubmitted: (examId: string, sessionId: string) => key('exam', examId, 'submitted', sessionId),
  /** A student's grades (hash: question id -> JSON EvaluationItem, rewritten by a retry or a regrade). */
  examGrades: (examId: string, sessionId: string) => key('exam', examId, 'grades', sessionId),
  /** A student's current overrides (hash: question id -> JSON {status, reason, by, at, from}); the trail is examAudit. */
  examOverrides: (examId: string, sessionId: string) => key('exam', examId, 'overrides', sessionId),
  /** A student's regrade requests (hash, HSETNX: question id -> JSON {comment, at, status, from?, to?}). */
  examRegrades: (examId: string, sessionId: string) => key('exam', examId, 'regrades', sessionId),
  /** A student's feedback report (JSON FeedbackReport). */
  examReport: (examId: string, sessionId: string) => key('exam', examId, 'report', sessionId),
  /**
   * A student's grading state (hash: `claimed` and `finalised` first times, `attempts`, `state` pending|graded,
   * `changes` after the first grading, `done:{step}` the revision each post-grading step finished for, staged values).
   */
  examGrading: (examId: string, sessionId: string) => key('exam', examId, 'grading', sessionId),
  /** Lease of the node working on a student's grading (expires: another node takes over when it lapses). */
  examGradingLease: (examId: string, sessionId: string) => key('exam', examId, 'grading-lease', sessionId),
  /** An account's exams (sorted set by creation time), all and per material: its lists. */
  accountExams: (accountId: string, materialId?: string) => (materialId === undefined ? key('account', accountId, 'exams') : key('account', accountId, 'exams', materialId)),
  /** Every exam made from a material, so its deletion finds them (sorted set by creation time). */
  materialExams: (materialId: string) => key('material', materialId, 'exams'),
  /** The exams published to a class (sorted set by publication time): its students' list, and its deletion. */
  classExams: (classId: string) => key('class', classId, 'exams'),
  /** A class student's learner profile (JSON LearnerProfile). */
  classProfile: (classId: string, sessionId: string) => key('class', classId, 'profile', sessionId),
  /** The class students with a stored learner profile (sorted set by last update), so the class's deletion finds them. */
  classProfiles: (classId: string) => key('class', classId, 'profiles'),
  /** Published exams not closed yet (sorted set of exam ids scored by deadline): every node's sweep closes them. */
  examsOpen: () => key('exams', 'open'),
  /** Students whose grading is not finished (sorted set of `{examId}|{sessionId}` by when to look again): retries. */
  examsPending: () => key('exams', 'pending'),
  /**
   * Exams with gradings started and not known to be finished (sorted set of exam ids by when to check them): the
   * sweep's backstop, which finds a half-finished student on no pending list.
   */
  examsGrading: () => key('exams', 'grading'),
  /** Lease of the one node running the retention purge. */
  retentionLease: () => key('retention', 'lease'),
  // The "AI 품질" console (src/quality/): sampled agent outputs, their grades and aggregates; all with TTLs.
  // single sign-on (OIDC)
  /** A sign-in under way (JSON: PKCE verifier, nonce, return path, redirect URI), keyed by its state; 10 min TTL, deleted on use. */
  oidcPendingLogin: (state: string) => key('oidc', 'pending', state),
  // Accounts (ACC): instructors, their browser sessions, API tokens, invites and reset links.
  /** An instructor account (hash: email, role, status, passwordHash, createdAt); no TTL. */
  account: (id: string) => key('account', id),
  /** sha256 of a normalised email -> account id, reserved with SET NX so an email has one account; no TTL. */
  accountEmail: (emailHash: string) => key('account-email', emailHash),
  /** sha256 of an OIDC issuer and subject -> account id (SET NX); no TTL. */
  accountIdentity: (identityHash: string) => key('account-identity', identityHash),
  /** The deployment's first account, the admin (SET NX: exactly one sign-up wins it); no TTL. */
  accountAdmin: () => key('accounts', 'admin'),
  /** Every account (sorted set of ids scored by creation time): the admin's list; no TTL. */
  accountIndex: () => key('accounts'),
  /** A browser session by sha256 of its cookie value (JSON: accountId, csrfToken, createdAt, expiresAt); TTL. */
  webSession: (idHash: string) => key('web-session', idHash),
  /** An account's browser sessions (sorted set of session hashes scored by expiry), for sign out everywhere; TTL. */
  accountWebSessions: (accountId: string) => key('account', accountId, 'web-sessions'),
  /** A personal API token by sha256 of its secret -> `accountId tokenId`; no TTL (until revoked). */
  apiToken: (secretHash: string) => key('api-token', secretHash),
  /** An account's API tokens (hash: token id -> JSON name, createdAt, secretHash); no TTL. */
  accountApiTokens: (accountId: string) => key('account', accountId, 'api-tokens'),
  /** When each API token was last used (hash: token id -> ms; written at most once a minute per token); no TTL. */
  accountApiTokenUse: (accountId: string) => key('account', accountId, 'api-token-use'),
  /** An invite by sha256 of its code (JSON: createdBy, createdAt, expiresAt); TTL 7 days, deleted when used. */
  invite: (codeHash: string) => key('invite', codeHash),
  // Ownership (OWN): who owns each class, quiz, room and material, and each account's lists.
  /** The account owning a class, quiz or room (string: account id); no TTL, deleted with the thing. */
  ownerOf: (kind: 'class' | 'quiz' | 'room', id: string) => key('owner', kind, id),
  /** The accounts owning a material (hash: account id -> ms it became theirs; content-addressed: one PDF, many owners); no TTL. */
  materialOwners: (materialId: string) => key('material', materialId, 'owners'),
  /** An account's classes, quizzes, rooms or materials (sorted set of ids scored by creation time): "내 수업" and the rest; no TTL. */
  accountOwned: (accountId: string, kind: 'classes' | 'quizzes' | 'rooms' | 'materials') => key('account', accountId, 'owned', kind),
  /** The rooms made for a quiz (sorted set of room ids scored by creation time); no TTL. */
  quizRooms: (quizId: string) => key('quiz', quizId, 'rooms'),
  /** An uploaded quiz picture's record (JSON: accountId, classId, type, bytes, createdAt; the bytes are a blob); no TTL. */
  quizImage: (imageId: string) => key('quiz-image', imageId),
  /** The quizzes whose items show a picture (sorted set of quiz ids); the picture goes when the last one does; no TTL. */
  quizImageQuizzes: (imageId: string) => key('quiz-image', imageId, 'quizzes'),
  /** An account's uploaded quiz pictures (sorted set of image ids scored by upload time); no TTL. */
  accountQuizImages: (accountId: string) => key('account', accountId, 'quiz-images'),
  /** A password reset link by sha256 of its code (JSON: accountId, createdAt, expiresAt); TTL 24 h, one use. */
  resetLink: (codeHash: string) => key('reset-link', codeHash),
  // counters of what an owner holds (src/quota/); durable, kept down by deletion.
  /**
   * What an owner holds (hash: `materials`, `pdf-bytes`, `quiz-image-bytes` for an account; `quizzes` for a class; `open-rooms` for
   * whoever owns rooms), counted up before a creation and back down on failure or deletion; no TTL.
   */
  quota: (scope: 'account' | 'class', id: string) => key('quota', scope, id),
  /** The open rooms counted in an owner's `open-rooms` (sorted set of room ids by creation time); no TTL. */
  quotaRooms: (scope: 'account' | 'class', id: string) => key('quota', scope, id, 'rooms'),
  /** The accounts a material is charged to (hash: account id -> bytes charged), so its deletion credits them; no TTL. */
  quotaMaterial: (materialId: string) => key('quota', 'material', materialId),
  // LTI 1.3 (src/lti/): the LMS platforms, lectern's own signing keys, courses linked to classes, grade passback.
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

export type Keys = typeof keys;
