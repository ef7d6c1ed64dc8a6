/**
 * Every store key is built here, so the key space can be read in one place. All keys share one prefix so a
 * Redis can be shared with other applications. Ephemeral things (sessions, rooms, locks) get TTLs where they are
 * written; results, exam logs and learner profiles have none.
 */
export const KEY_PREFIX = 'lectern:';

const key = (...parts: (string | number)[]) => KEY_PREFIX + parts.join(':');

export const keys = {
  /** A string used by readiness checks. */
  health: () => key('health'),
  /**
   * The deployment's token secret when TOKEN_SECRET is unset (string, SET NX by the first node); durable, no TTL:
   * every token in circulation depends on it (see classroom/token-secrets.ts).
   */
  tokenSecret: () => key('token-secret'),
  /**
   * Token usage attributed to a session, room or material (hash: field per role and direction). QUOTA: scope
   * `account` with id `{accountId}:{yyyy-mm-dd}` is one account's usage on one UTC day (the model budget); ~2 days TTL.
   */
  usage: (scope: 'session' | 'room' | 'material' | 'account', id: string) => key('usage', scope, id),
  material: (id: string) => key('material', id),
  materialIndex: () => key('materials'),
  materialLock: (id: string) => key('material', id, 'lock'),
  blob: (name: string) => key('blob', name),
  /** A material's retrieval index (bytes: passages, labels, BM25 postings, vectors; see retrieval/index-codec.ts); no TTL. */
  retrievalIndex: (materialId: string) => key('material', materialId, 'retrieval'),
  /** Single-flight lease of the node building or re-embedding a material's retrieval index. */
  retrievalLock: (materialId: string) => key('material', materialId, 'retrieval', 'lock'),
  /** Generated chapter lecture, shared by every student and node: raw model text as an append-only stream. */
  lectureText: (cacheKey: string) => key('lecture', cacheKey, 'text'),
  /** 'done' once the chapter is complete; absent while generating or after a failed attempt. */
  lectureStatus: (cacheKey: string) => key('lecture', cacheKey, 'status'),
  /** Single-flight lease of the node generating a chapter. */
  lectureLock: (cacheKey: string) => key('lecture', cacheKey, 'lock'),
  /** A tutoring session's record (hash: profile fields, `state` JSON, `speed`). */
  session: (id: string) => key('session', id),
  /** Every event sent to the session, numbered by seq (capped stream), for replay on resume. */
  sessionLog: (id: string) => key('session', id, 'log'),
  /** The rendered history besides lecture text: questions, answers, verdicts, finished replies. */
  sessionTranscript: (id: string) => key('session', id, 'transcript'),
  /**
   * instructor replies to a raised hand waiting for the session's driver to number and send them
   * (stream, same TTL as the session; the record's `inbox` field is the id of the last one delivered).
   */
  sessionInbox: (id: string) => key('session', id, 'inbox'),
  /** Lease of the node currently driving the session. */
  sessionDriver: (id: string) => key('session', id, 'driver'),
  /** A class (hash: name, code, materialId?, createdAt); no TTL. */
  classRecord: (id: string) => key('class', id),
  /** Join code -> class id, reserved with SET NX so two classes never share a code; no TTL. */
  classCode: (code: string) => key('classcode', code),
  /** Nicknames taken in a class (hash: case-folded nickname -> session id). */
  classNicknames: (id: string) => key('class', id, 'nicknames'),
  /** A roster class's names (hash: case-folded name -> the name as the instructor wrote it); no TTL, deleted with the class. */
  classRosterNames: (id: string) => key('class', id, 'roster-names'),
  /** The class's students (sorted set of session ids scored by join time: the roster's order). */
  classStudents: (id: string) => key('class', id, 'students'),
  /** One roster entry (hash of scalar fields; see classroom/class-repository.ts). */
  classStudent: (id: string, sessionId: string) => key('class', id, 'student', sessionId),
  /** A quiz (JSON: title, items with solutions, classId); no TTL. */
  quiz: (id: string) => key('quiz', id),
  /** A quiz's list entry (JSON: quizId, classId, title, itemCount, createdAt), written with the quiz; no TTL. */
  quizSummary: (id: string) => key('quiz', id, 'summary'),
  /** A short lease held while a quiz's stored JSON is rewritten (an instructor keeping a failed item); TTL. */
  quizEditLock: (id: string) => key('quiz', id, 'edit', 'lock'),
  /** The quizzes of a class (sorted set of quiz ids scored by creation time); no TTL. */
  classQuizzes: (classId: string) => key('class', classId, 'quizzes'),
  /**
   * One served self-study item of seed 001's API (hash: `record` JSON — item with solution, material, caller scope,
   * gate review — created with HSETNX so a colliding 8-hex id never overwrites; `answer` JSON, HSETNX: the first
   * answer is the recorded one; `eval:{topic}` JSON, the EvalAgent's verdict for that topic); TTL 24 h, set with each write.
   */
  selfQuizItem: (quizId: string) => key('self-quiz', quizId),
  /**
   * The self-study items served from a material, or to a class's students (sorted set of quiz ids by creation time),
   * so deleting the material or the class deletes them too; the same TTL as the items, refreshed by each new item.
   */
  selfQuizIndex: (owner: 'material' | 'class', id: string) => key(owner, id, 'self-quiz'),
  /** A live room (hash: `meta` JSON fixed at creation, `phase` JSON, `locked`); TTL. */
  room: (id: string) => key('room', id),
  /** Room code -> room id, reserved with SET NX; TTL like the room. */
  roomCode: (code: string) => key('roomcode', code),
  /** Players of a room (hash: player id -> JSON record). */
  roomPlayers: (id: string) => key('room', id, 'players'),
  /** Nicknames taken in a room (hash: case-folded nickname -> player id; HSETNX makes them unique). */
  roomNicknames: (id: string) => key('room', id, 'nicknames'),
  /** Live player sockets of a room (hash: `nodeId|socketId` -> player id), for the host's player list. */
  roomPresence: (id: string) => key('room', id, 'presence'),
  /** A node's heartbeat (short TTL, renewed every second): presence entries of a node without one are stale. */
  nodeHeartbeat: (nodeId: string) => key('node', nodeId),
  /** Answers to one question (hash: player id -> JSON {choice, responseMs}; HSETNX: first write wins). */
  roomAnswers: (id: string, questionIndex: number) => key('room', id, 'answers', questionIndex),
  /** Phase changes of a room, in order (stream); every node tails it to render its own sockets' views. */
  roomEvents: (id: string) => key('room', id, 'events'),
  /** Lease of the node driving the room's timers. */
  roomDriver: (id: string) => key('room', id, 'driver'),
  /** Short mutex around a phase transition (read phase, check, write), so host commands and timers never race. */
  roomTransition: (id: string) => key('room', id, 'transition'),
  /** Rooms with a question running (preview or open; sorted set scored by when it started): what drivers look after. */
  activeRooms: () => key('rooms', 'active'),
  /** The rooms of a class (sorted set scored by creation time); no TTL. */
  classRooms: (classId: string) => key('class', classId, 'rooms'),
  /** A room's list entry (JSON: code, title, createdAt, phase, players), written with its results; no TTL. */
  roomSummary: (id: string) => key('room', id, 'summary'),
  /** A room's results (JSON, derived from the recorded answers; rewritten at each reveal and at the end); no TTL. */
  roomResults: (id: string) => key('room', id, 'results'),

  // LIM (limits): ephemeral counters, TTL = their window; never durable.
  /** Hits of one limiter by one client (address or account) in one fixed window (number in the key). */
  rateLimit: (limiter: string, client: string, window: number) => key('rate', limiter, client, window),
  /** The join attempts' token bucket of a client address (expires once full again). */
  joinBucket: (client: string) => key('rate', 'join-bucket', client),
  // Data lifecycle (deletion, retention, export: src/data/).
  /**
   * The lecture cache keys ever generated for a material (sorted set scored by first use), recorded before the first
   * write of a chapter lecture: deleting the material enumerates its lectures from here, never by SCAN; no TTL.
   */
  materialLectures: (materialId: string) => key('material', materialId, 'lectures'),
  /** Rooms whose results hold student data (sorted set scored by the last results write): the retention purge's queue. */
  retentionRooms: () => key('retention', 'rooms'),
  /** A background job (JSON: kind, owner, params, status, checkpoint, progress, result); RETENTION.jobMs after its last write. */
  job: (id: string) => key('job', id),
  /** The lease of the node running a job; expires when that node stops renewing it, so another node resumes the job. */
  jobLease: (id: string) => key('job', id, 'lease'),
  /** Set when a job's cancellation is asked for (string '1'); the node running it stops at its next check. TTL. */
  jobCancel: (id: string) => key('job', id, 'cancel'),
  /** Jobs not finished yet (sorted set of job ids scored by creation time): what every node's runner looks at; durable. */
  activeJobs: () => key('jobs', 'active'),
  // Math problem sets: what a `math-problems` job made, kept with every judgement.
  /** A math problem set (JSON: material, account, request, problems and rejected ones with their judgements); no TTL. */
  mathSet: (id: string) => key('math-set', id),
  /** A math problem set's list entry (JSON: counts, request, creation time), written with the set; no TTL. */
  mathSetSummary: (id: string) => key('math-set', id, 'summary'),
  /** Every math problem set of a material, whoever made it (sorted set by creation time): its deletion drains it; no TTL. */
  materialMathSets: (materialId: string) => key('material', materialId, 'math-sets'),
  /** The math sets shared with a class, by time shared (zset; durable, deleted with the class). */
  classMathSets: (classId: string) => key('class', classId, 'math-sets'),
  /** A class student's first short answer per `{setId}:{problemId}` (hash, HSETNX; TTL as the session's). */
  sessionMathAnswers: (sessionId: string) => key('session', sessionId, 'math-answers'),
  /** An account's math problem sets of one material (sorted set by creation time): its list; no TTL. */
  accountMathSets: (accountId: string, materialId: string) => key('account', accountId, 'math-sets', materialId),
  /**
   * An account's judgement summary for one material (hash of counters: sets, kept, rejected, judged, unjudged, score
   * sums ×1000 per criterion, rejections per check), added to as each set is stored; no TTL.
   */
  accountMathSummary: (accountId: string, materialId: string) => key('account', accountId, 'math-summary', materialId),
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
  /** Sampled outputs waiting to be graded (sorted set of case ids scored by sampling time); RETENTION.qualityCaseMs. */
  qualityQueue: () => key('quality', 'queue'),
  /** A sampled output waiting in the queue (JSON: agent, instruction, input, output, at, attribution); RETENTION.qualityCaseMs. */
  qualityCase: (id: string) => key('quality', 'case', id),
  /**
   * The sampled outputs (queued cases and graded interactions share their id) written from a material or for a tutoring
   * session (sorted set of ids by sampling time), so deleting the material or the session's class deletes them; the
   * interactions' TTL.
   */
  qualityOwned: (owner: 'material' | 'session', id: string) => key('quality', owner, id, 'samples'),
  /** A graded interaction (JSON: the case and its critic report); QUALITY_RETENTION_DAYS. */
  qualityInteraction: (id: string) => key('quality', 'interaction', id),
  /**
   * Graded interactions of a scope (`all`, or `account:{id}` for those billed to one account) and agent (`any` for
   * every agent), newest first (sorted set of `{id}_{grade in thousandths}` scored by time, capped); QUALITY_RETENTION_DAYS.
   */
  qualityTimeline: (scope: string, agent: string) => key('quality', scope, 'timeline', agent),
  /** The lowest-graded interactions of a scope and agent (sorted set like the timeline's, scored by grade, capped). */
  qualityWorst: (scope: string, agent: string) => key('quality', scope, 'worst', agent),
  /** One UTC day of a scope and agent (hash: count, ungraded, gradeSum in thousandths, b0…b9, f:{failure type}). */
  qualityDaily: (scope: string, agent: string, day: string) => key('quality', scope, 'daily', agent, day),
  /** The agents of a scope with graded outputs (sorted set scored by the last grading). */
  qualityAgents: (scope: string) => key('quality', scope, 'agents'),
  /** Tokens the background grading spent on one UTC day (string counter); 2 days TTL. */
  qualityUsage: (day: string) => key('quality', 'usage', day),
  /** Lease of the one node running the background grading. */
  qualityLease: () => key('quality', 'lease'),
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
