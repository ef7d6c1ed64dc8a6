import { KEY_PREFIX } from './keys.js';

/**
 * How long the store keeps things, in one place. Ephemeral keys get their TTL in the same atomic step as every write
 * (`{ttlMs}` on the store's write methods: SET PX, or one Lua script for hashes, sorted sets and streams), so no
 * ephemeral key ever exists without one; a key that is read and written keeps living, one nobody touches expires.
 * Durable keys — what a user expects to keep — are listed in DURABLE_KEYS and nowhere else, and
 * test/retention.integration.test.ts scans a whole product run for any
 * `lectern:*` key that has no TTL and is not on the list.
 */
export const RETENTION = {
  /** A self-study session's record, event log and transcript, and any session's token usage, after the last write (a class student's session: RETENTION_DAYS, see app.ts). */
  sessionMs: 7 * 24 * 60 * 60_000,
  /** The least a class's roster (nicknames, students, their progress entries) is kept after the last change (RETENTION_DAYS when longer). */
  rosterMs: 30 * 24 * 60 * 60_000,
  /** A live quiz room's state (room hash, code, players, presence, answers, events) and its token usage. */
  roomMs: 24 * 60 * 60_000,
  /** A served self-study item of seed 001's API (item, solution, the first answer), after its last write. */
  selfQuizMs: 24 * 60 * 60_000,
  /** an account's model usage of one UTC day; kept a little past the day so the budget check never races it. */
  accountUsageMs: 2 * 24 * 60 * 60_000,
  /** A background job's record (its result is stored by its kind, e.g. a problem set), after the last write. */
  jobMs: 30 * 24 * 60 * 60_000,
  /** A sampled agent output waiting for the quality console's background grading, and the queue. */
  qualityCaseMs: 24 * 60 * 60_000,
  /** The quality grading's token count of one UTC day; past the day so the budget check never races it. */
  qualityUsageMs: 2 * 24 * 60 * 60_000,
} as const;

export interface DurableKey {
  /** The key after the `lectern:` prefix; `{name}` stands for one segment without `:`. */
  pattern: string;
  /** What it holds, for people. */
  what: string;
}

/** Every key kept without a TTL. A key not matching one of these must carry a TTL. */
export const DURABLE_KEYS: readonly DurableKey[] = [
  { pattern: 'token-secret', what: 'the generated token secret shared by every node when TOKEN_SECRET is unset' },
  { pattern: 'material:{id}', what: 'an uploaded material: title, pages, chapter plan' },
  { pattern: 'materials', what: 'the index of materials, newest first' },
  { pattern: 'blob:{name}', what: "a material's PDF, chapter slices and page texts (with Redis)" },
  { pattern: 'material:{id}:retrieval', what: "a material's retrieval index: passages, their labels, BM25 postings and vectors with the embedding model's name" },
  { pattern: 'lecture:{cacheKey}:text', what: "a chapter's generated lecture (shared by every student; paid model output)" },
  { pattern: 'lecture:{cacheKey}:status', what: 'whether that chapter lecture is complete' },
  { pattern: 'usage:material:{id}', what: "model tokens spent on a material's lectures" },
  { pattern: 'class:{id}', what: 'a class: name, join code, material' },
  { pattern: 'classcode:{code}', what: "a join code, reserved for its class" },
  { pattern: 'class:{id}:roster-names', what: "the names a roster class admits, as the instructor wrote them" },
  { pattern: 'class:{id}:quizzes', what: "the index of a class's quizzes" },
  { pattern: 'class:{id}:math-sets', what: "the math sets shared with a class (its students answer their short-answer problems)" },
  { pattern: 'class:{id}:rooms', what: "the index of a class's quiz rooms" },
  { pattern: 'quiz:{id}', what: 'a quiz with its items and solutions' },
  { pattern: 'material:{id}:picture-quizzes', what: "the quizzes whose items show a page of the material as their picture" },
  { pattern: 'quiz:{id}:summary', what: "a quiz's list entry (title, item count, creation time)" },
  { pattern: 'room:{id}:results', what: "a quiz room's results (standings; answers per player in older records)" },
  { pattern: 'room:{id}:question-results', what: "a quiz room's results per question (each player's answer, points and credit)" },
  { pattern: 'room:{id}:summary', what: "a quiz room's list entry (code, title, creation time, phase and players at the last results)" },
  { pattern: 'material:{id}:lectures', what: "the cache keys of a material's chapter lectures, so its deletion finds them" },
  { pattern: 'retention:rooms', what: 'rooms with results, by last write: the retention purge removes those older than RETENTION_DAYS' },
  { pattern: 'retention:quiz-images', what: 'uploaded quiz pictures by upload time: the retention purge deletes those no quiz shows after RETENTION_DAYS' },
  { pattern: 'retention:quiz-images:backfilled', what: 'when the quiz pictures uploaded before that queue existed were queued (once)' },
  { pattern: 'jobs:active', what: 'the background jobs not finished yet, which every node resumes' },
  { pattern: 'math-set:{id}', what: 'a generated math problem set: its problems and the rejected ones, each with its judgement (scores, feedback, judge model, attempt)' },
  { pattern: 'math-set:{id}:summary', what: "a math problem set's list entry (counts, request, creation time)" },
  { pattern: 'material:{id}:math-sets', what: "every math problem set of a material, so its deletion finds them" },
  { pattern: 'account:{id}:math-sets:{materialId}', what: "an account's math problem sets of one material, newest first" },
  { pattern: 'account:{id}:math-summary:{materialId}', what: "an account's judgement summary of one material's math problems (counts, score sums, rejections per check)" },
  { pattern: 'exam:{id}', what: 'an exam: owner account, material, request, plan, problems, validator complaints, rounds' },
  { pattern: 'exam:{id}:publication', what: "an exam's publication: class, time limit, publication time, deadline" },
  { pattern: 'exam:{id}:closed', what: 'when an exam was closed at its deadline (the drafts then auto-submitted)' },
  { pattern: 'exam:{id}:students', what: 'the students who opened or answered a published exam' },
  { pattern: 'exam:{id}:audit', what: "the instructor overrides of an exam's grades, append-only (who, when, from, to, reason)" },
  { pattern: 'exam:{id}:detached:{questionId}', what: "the answers to an exam item the teacher moved out of their group (who, when)" },
  { pattern: 'exam:{id}:drafts:{sessionId}', what: "a student's autosaved exam answers" },
  { pattern: 'exam:{id}:submitted:{sessionId}', what: "a student's submitted exam answers (written once)" },
  { pattern: 'exam:{id}:grades:{sessionId}', what: "a student's exam log (evaluation items with evidence)" },
  { pattern: 'exam:{id}:overrides:{sessionId}', what: "the instructor's current overrides of a student's grades" },
  { pattern: 'exam:{id}:regrades:{sessionId}', what: "a student's regrade requests and their outcome" },
  { pattern: 'exam:{id}:report:{sessionId}', what: "a student's exam feedback report" },
  { pattern: 'exam:{id}:grading:{sessionId}', what: "a student's grading state (claimed once, attempts, finalised once)" },
  { pattern: 'account:{id}:exams', what: "an account's exams, newest first" },
  { pattern: 'account:{id}:exams:{materialId}', what: "an account's exams of one material, newest first" },
  { pattern: 'material:{id}:exams', what: 'every exam of a material, so its deletion finds them' },
  { pattern: 'class:{id}:exams', what: 'the exams published to a class' },
  { pattern: 'class:{id}:profile:{sessionId}', what: "a class student's learner profile" },
  { pattern: 'class:{id}:profiles', what: 'the class students with a learner profile, so its deletion finds them' },
  { pattern: 'exams:open', what: 'published exams not closed yet, by deadline (every node closes them)' },
  { pattern: 'exams:pending', what: 'students whose exam grading is not finished, by when to retry' },
  { pattern: 'exams:grading', what: 'exams whose gradings are not known to be finished, by when the sweep checks them' },
  { pattern: 'account:{id}', what: 'an instructor account: email, role, status, password hash' },
  { pattern: 'account-email:{hash}', what: "a normalised email's reservation for its account" },
  { pattern: 'account-identity:{hash}', what: 'a single sign-on identity (issuer and subject) linked to an account' },
  { pattern: 'accounts:admin', what: "the deployment's first account, its admin" },
  { pattern: 'accounts', what: 'the index of accounts, in order of creation' },
  { pattern: 'api-token:{hash}', what: 'a personal API token (only its sha256) and the account it belongs to' },
  { pattern: 'account:{id}:api-tokens', what: "an account's API tokens: names and creation times" },
  { pattern: 'account:{id}:api-token-use', what: "when each of an account's API tokens was last used" },
  { pattern: 'owner:{kind}:{id}', what: "the account owning a class, quiz or room" },
  { pattern: 'material:{id}:owners', what: "the accounts owning a material (one PDF may have several owners)" },
  { pattern: 'account:{id}:owned:{kind}', what: "an account's classes, quizzes, rooms or materials, newest first: \"내 수업\", \"내 퀴즈\", \"내 자료\"" },
  { pattern: 'quiz:{id}:rooms', what: "the index of the rooms made for a quiz" },
  { pattern: 'quota:account:{id}', what: "what an account holds against its quotas: materials, PDF bytes, open rooms" },
  { pattern: 'quota:class:{id}', what: "what a class holds against its quotas: quizzes (and open rooms until rooms have an owner account)" },
  { pattern: 'quota:account:{id}:rooms', what: "the rooms counted as open for an account's quota" },
  { pattern: 'quota:class:{id}:rooms', what: "the rooms counted as open for a class's quota (until rooms have an owner account)" },
  { pattern: 'quota:material:{id}', what: 'the accounts a material is charged to, and how many bytes each' },
  { pattern: 'lti:tool-keys', what: "lectern's LTI signing key pairs, newest first (the public halves are published at /lti/jwks)" },
  { pattern: 'lti:platform:{id}', what: 'a registered LMS platform: issuer, client id, deployment ids, JWKS, auth and token endpoints, options' },
  { pattern: 'lti:platforms', what: 'the registered LMS platforms, by registration time' },
  { pattern: 'lti:issuer:{hash}', what: "an LMS issuer's registrations by client id, so a login finds its platform" },
  { pattern: 'lti:platform:{id}:links', what: "the deep links a platform's courses hold, so the platform's deletion finds them" },
  { pattern: 'lti:platform:{id}:classes', what: "the classes made for a platform's courses (course, owner and material → class)" },
  { pattern: 'lti:link:{id}', what: 'a lecture, quiz or exam a teacher put into an LMS course (deep linking)' },
  { pattern: 'lti:class:{id}', what: "an LMS course's class: platform, context, the service URLs, the gradebook columns of its exams" },
  { pattern: 'lti:class:{id}:members', what: "an LMS course's members (LMS id, name, roles) and the class session of each student" },
  { pattern: 'lti:class:{id}:grades', what: "the gradebook passback of each student's exam scores: sent, waiting, held or failed" },
  { pattern: 'lti:grades:pending', what: 'exam scores still to be sent to an LMS gradebook, by when to try' },
];

const compiled = DURABLE_KEYS.map(({ pattern }) => {
  const escaped = (KEY_PREFIX + pattern).replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\{[a-zA-Z]+\}/g, '[^:]+')}$`);
});

/** Whether `key` (with its prefix) is one of the durable keys. */
export function isDurableKey(key: string): boolean {
  return compiled.some((pattern) => pattern.test(key));
}
