/**
 * Every error code that can reach a client, over HTTP (`{"error":{"code","message"}}`) or a socket ack
 * (`{ok:false,error:{code,message}}`). docs/PROTOCOL.md lists the same codes for people.
 */
export const ErrorCode = {
  INVALID_PAYLOAD: 'INVALID_PAYLOAD',
  NOT_FOUND: 'NOT_FOUND',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  RATE_LIMITED: 'RATE_LIMITED',
  /** this address already has MAX_SOCKETS_PER_ADDRESS connections open (socket handshake refusal). */
  TOO_MANY_SOCKETS: 'TOO_MANY_SOCKETS',
  INTERNAL: 'INTERNAL',
  /** Too much work queued right now (e.g. PDF parsing); retry later. */
  SERVER_BUSY: 'SERVER_BUSY',
  STORE_UNAVAILABLE: 'STORE_UNAVAILABLE',
  MODEL_UNAVAILABLE: 'MODEL_UNAVAILABLE',
  MODEL_OUTPUT_INVALID: 'MODEL_OUTPUT_INVALID',
  MODEL_TIMEOUT: 'MODEL_TIMEOUT',
  MODEL_ABORTED: 'MODEL_ABORTED',
  UNKNOWN_TASK: 'UNKNOWN_TASK',
  /** Socket handshake: the client's `protocolVersion` is older than the server's (or missing); reload the page. */
  CLIENT_TOO_OLD: 'CLIENT_TOO_OLD',
  /** Socket handshake: the client's `protocolVersion` is newer than this server's (a deploy under way); retry. */
  CLIENT_TOO_NEW: 'CLIENT_TOO_NEW',
  // tutoring sessions
  SESSION_NOT_FOUND: 'SESSION_NOT_FOUND',
  SESSION_BUSY: 'SESSION_BUSY',
  MATERIAL_NOT_FOUND: 'MATERIAL_NOT_FOUND',
  NOT_STREAMING: 'NOT_STREAMING',
  NOT_PAUSED: 'NOT_PAUSED',
  NO_PENDING_QUESTION: 'NO_PENDING_QUESTION',
  UNKNOWN_QUESTION: 'UNKNOWN_QUESTION',
  HAND_ALREADY_RAISED: 'HAND_ALREADY_RAISED',
  HAND_NOT_NOW: 'HAND_NOT_NOW',
  NOT_ASKED: 'NOT_ASKED',
  // classes
  CLASS_NOT_FOUND: 'CLASS_NOT_FOUND',
  NICKNAME_TAKEN: 'NICKNAME_TAKEN',
  MATERIAL_REQUIRED: 'MATERIAL_REQUIRED',
  HAND_NOT_RAISED: 'HAND_NOT_RAISED',
  // a closed class's code no longer admits anyone
  CLASS_CLOSED: 'CLASS_CLOSED',
  /** The class requires its roster and the name is not on it. */
  NOT_ON_ROSTER: 'NOT_ON_ROSTER',
  // quizzes and live rooms
  QUIZ_NOT_FOUND: 'QUIZ_NOT_FOUND',
  /** A room of a generated quiz none of whose items passed the EvalAgent gate or was kept by its instructor (409). */
  QUIZ_NOT_READY: 'QUIZ_NOT_READY',
  ROOM_NOT_FOUND: 'ROOM_NOT_FOUND',
  ROOM_LOCKED: 'ROOM_LOCKED',
  ROOM_FULL: 'ROOM_FULL',
  ROOM_STARTED: 'ROOM_STARTED',
  ROOM_ENDED: 'ROOM_ENDED',
  /** A host command the room's current phase does not allow (e.g. room:next while a question is open). */
  WRONG_PHASE: 'WRONG_PHASE',
  /** An answer for a question that is not the open one. */
  QUESTION_NOT_OPEN: 'QUESTION_NOT_OPEN',
  /** The question is paused; answers wait for room:resume. */
  ROOM_PAUSED: 'ROOM_PAUSED',
  /** An answer that arrived after the question's deadline (plus grace). */
  LATE: 'LATE',
  KICKED: 'KICKED',
  PLAYER_NOT_FOUND: 'PLAYER_NOT_FOUND',
  /** Deleting a quiz room (or its class) while the room is being played: the host ends it first. */
  ROOM_LIVE: 'ROOM_LIVE',
  // materials
  FILE_REQUIRED: 'FILE_REQUIRED',
  NOT_A_PDF: 'NOT_A_PDF',
  CORRUPT_PDF: 'CORRUPT_PDF',
  ENCRYPTED_PDF: 'ENCRYPTED_PDF',
  PDF_TOO_LARGE: 'PDF_TOO_LARGE',
  TOO_MANY_PAGES: 'TOO_MANY_PAGES',
  NO_TEXT_LAYER: 'NO_TEXT_LAYER',
  PDF_TIMEOUT: 'PDF_TIMEOUT',
  /** The PDF inflates past PDF_MAX_INFLATED_MB (or one stream past 64 MB) or holds more than PDF_MAX_OBJECTS objects (422). */
  PDF_TOO_COMPLEX: 'PDF_TOO_COMPLEX',
  // single sign-on (OpenID Connect)
  /** The sign-in's state is unknown, expired (10 min) or already used: start again. */
  OIDC_STATE_INVALID: 'OIDC_STATE_INVALID',
  /** The provider answered the sign-in with an error (e.g. the person declined). */
  OIDC_DENIED: 'OIDC_DENIED',
  /** The code exchange or the ID token check failed. */
  OIDC_FAILED: 'OIDC_FAILED',
  /** The provider cannot be reached (discovery failed); retry later. */
  OIDC_UNAVAILABLE: 'OIDC_UNAVAILABLE',
  /** The provider did not give an e-mail address for the person. */
  OIDC_EMAIL_REQUIRED: 'OIDC_EMAIL_REQUIRED',
  // accounts
  /** A state-changing request authorised by the session cookie without the session's X-CSRF-Token, or from another origin. */
  CSRF_INVALID: 'CSRF_INVALID',
  EMAIL_TAKEN: 'EMAIL_TAKEN',
  /** Wrong email or password (never says which). */
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  ACCOUNT_DISABLED: 'ACCOUNT_DISABLED',
  SIGNUP_CLOSED: 'SIGNUP_CLOSED',
  INVITE_INVALID: 'INVITE_INVALID',
  RESET_INVALID: 'RESET_INVALID',
  // what an account may hold, and what it may spend on the model per day
  /** A per-account (or per-class) quota is full: `quota` names which, `limit` is its size (429). */
  QUOTA_EXCEEDED: 'QUOTA_EXCEEDED',
  /** An uploaded quiz picture is still shown by a quiz: delete (or change) the quiz first (409). */
  IMAGE_IN_USE: 'IMAGE_IN_USE',
  /** A quiz of the account shows a page of the material as an item's picture: delete the quiz first (409). */
  MATERIAL_IN_USE: 'MATERIAL_IN_USE',
  /** An item's picture names a page the material does not have (400). */
  PAGE_OUT_OF_RANGE: 'PAGE_OUT_OF_RANGE',
  /** A room's picture of a question that is not on screen yet (or any more: the game is over) (403). */
  PICTURE_NOT_SHOWN: 'PICTURE_NOT_SHOWN',
  /** The account's model budget for today (UTC) is spent (MODEL_DAILY_TOKENS): nothing new is generated until tomorrow. */
  MODEL_BUDGET_EXCEEDED: 'MODEL_BUDGET_EXCEEDED',
  // self-study quiz (seed 001's /api/quiz/*)
  /** No generated item passed the EvalAgent gate: nothing is served (502; try again, or another topic or chapter). */
  QUIZ_GATE_FAILED: 'QUIZ_GATE_FAILED',
  /**
   * The material (or chapter) has nothing a sound item can be made of for the model that was asked, a deterministic
   * one that would give the same again (422): the message says so; a partial quiz or exam carries a `shortfall`.
   */
  TOO_LITTLE_MATERIAL: 'TOO_LITTLE_MATERIAL',
  /** `/api/quiz/evaluate`: the EvalAgent could give no verdict (a failed or timed-out judgement is never a score). */
  QUIZ_NOT_JUDGED: 'QUIZ_NOT_JUDGED',
  // Critic Grader (seed 004's failure tags that refuse a grade; MISSING_EXPECTED_OUTPUT rides on a grade as a tag)
  /** `grading_criteria.weights` names an unknown criterion, a weight outside 0–1, or weights that do not sum to 1 (400). */
  INVALID_CRITERIA: 'INVALID_CRITERIA',
  /** The grader (the model, after its retries and repair turn) gave no usable grading: no grade, never a default (502). */
  GRADING_ERROR: 'GRADING_ERROR',
  /** Not an error answer: the tag of a grade whose accuracy needed an `expected_output` the case did not have. */
  MISSING_EXPECTED_OUTPUT: 'MISSING_EXPECTED_OUTPUT',
  // background jobs and math problems
  /** No such background job, or it is another account's. */
  JOB_NOT_FOUND: 'JOB_NOT_FOUND',
  /** No such math problem set, or it is another account's. */
  MATH_SET_NOT_FOUND: 'MATH_SET_NOT_FOUND',
  /** The configured model cannot do this (the offline model writes no math problems): refused before any job starts. */
  MODEL_NOT_CAPABLE: 'MODEL_NOT_CAPABLE',
  /** A quiz from a math problem set that has no multiple-choice problem. */
  MATH_SET_NO_CHOICES: 'MATH_SET_NO_CHOICES',
  /** No such problem among a math set's kept problems. */
  MATH_PROBLEM_NOT_FOUND: 'MATH_PROBLEM_NOT_FOUND',
  /** An answer sent to the short-answer route for a multiple-choice problem (400). */
  MATH_PROBLEM_NOT_SHORT: 'MATH_PROBLEM_NOT_SHORT',
  // live exams
  /** No such exam, another account's, or (for a student) not published to the student's class (404). */
  EXAM_NOT_FOUND: 'EXAM_NOT_FOUND',
  /** No such question in the exam (404). */
  EXAM_QUESTION_NOT_FOUND: 'EXAM_QUESTION_NOT_FOUND',
  /** The exam's deadline has passed: nothing more is accepted (409). */
  EXAM_CLOSED: 'EXAM_CLOSED',
  /** The exam is not published (results of a draft exam) (409). */
  EXAM_NOT_PUBLISHED: 'EXAM_NOT_PUBLISHED',
  /** The exam is already published: its problems no longer change, and it is published once (409). */
  EXAM_ALREADY_PUBLISHED: 'EXAM_ALREADY_PUBLISHED',
  /** A draft for (or a regrade of an unsubmitted) item that is already submitted (409). */
  EXAM_ALREADY_SUBMITTED: 'EXAM_ALREADY_SUBMITTED',
  /** A student's result before they submitted everything and before the deadline; or a regrade before grading (409). */
  EXAM_RESULT_NOT_READY: 'EXAM_RESULT_NOT_READY',
  /** A regrade of an item the student already asked a regrade for (409). */
  EXAM_REGRADE_EXISTS: 'EXAM_REGRADE_EXISTS',
  /** No exam data for this student (an override or a profile of someone who never took it, or not in the class) (404). */
  EXAM_STUDENT_NOT_FOUND: 'EXAM_STUDENT_NOT_FOUND',
  /** A self-study exam has no deadline to end (POST /api/exams/:id/end). */
  EXAM_SELF_STUDY: 'EXAM_SELF_STUDY',
  // LMS integration (LTI 1.3)
  /** A login or launch from an LMS no admin registered (issuer and client id), or a registration deleted since (400). */
  LTI_PLATFORM_UNKNOWN: 'LTI_PLATFORM_UNKNOWN',
  /** The launch's state is missing, unknown, expired (10 min), already used, or not this browser's (400). */
  LTI_STATE_INVALID: 'LTI_STATE_INVALID',
  /** The id token is malformed, its signature does not verify with the platform's keys, or its issuer is wrong (401). */
  LTI_TOKEN_INVALID: 'LTI_TOKEN_INVALID',
  /** The id token has expired (or is dated in the future) (401). */
  LTI_TOKEN_EXPIRED: 'LTI_TOKEN_EXPIRED',
  /** The id token is not meant for lectern's client id (`aud`, `azp`) (401). */
  LTI_AUDIENCE_INVALID: 'LTI_AUDIENCE_INVALID',
  /** The id token's nonce is not the login's, or was used already: a replayed launch (401). */
  LTI_NONCE_INVALID: 'LTI_NONCE_INVALID',
  /** The launch's deployment id is not among the registration's (403). */
  LTI_DEPLOYMENT_UNKNOWN: 'LTI_DEPLOYMENT_UNKNOWN',
  /** The message is not an LTI 1.3.0 resource link or deep linking request, or lacks a claim it needs (400). */
  LTI_MESSAGE_INVALID: 'LTI_MESSAGE_INVALID',
  /** The platform's keys, token endpoint or services cannot be reached or answered with an error (502). */
  LTI_PLATFORM_UNAVAILABLE: 'LTI_PLATFORM_UNAVAILABLE',
  /** The course link names nothing lectern has any more (deleted material, quiz or exam), or another platform's link (404). */
  LTI_LINK_INVALID: 'LTI_LINK_INVALID',
  /** An instructor's first launch on a registration that does not create accounts, or an e-mail lectern cannot link (403). */
  LTI_INSTRUCTOR_UNKNOWN: 'LTI_INSTRUCTOR_UNKNOWN',
  /** Dynamic registration failed: a code unknown or used, or the LMS's configuration or answer was not usable (400). */
  LTI_REGISTRATION_INVALID: 'LTI_REGISTRATION_INVALID',
  /** The issuer already has a registration with this client id (409). */
  LTI_PLATFORM_EXISTS: 'LTI_PLATFORM_EXISTS',
  /** A deep linking choice that cannot be linked (an exam published to another class, a quiz not of this account) (409). */
  LTI_CHOICE_INVALID: 'LTI_CHOICE_INVALID',
  /** A student's self-study exam on a material while a class exam on it runs in their class (409). */
  EXAM_RUNNING: 'EXAM_RUNNING',
  /** Publishing a draft exam whose validator complaints are neither fixed nor accepted (409, `items`: their ids). */
  EXAM_COMPLAINTS_OPEN: 'EXAM_COMPLAINTS_OPEN',
  /** An answer group whose members changed since the teacher loaded it (an answer moved out or in): reload (404). */
  EXAM_GROUP_NOT_FOUND: 'EXAM_GROUP_NOT_FOUND',
  /** An account already holds as many API tokens as it may; one must be revoked first (409). */
  TOO_MANY_API_TOKENS: 'TOO_MANY_API_TOKENS',
  /** A Deep Linking request that expired, was finished, or is not this instructor's (404). */
  LTI_LINK_REQUEST_NOT_FOUND: 'LTI_LINK_REQUEST_NOT_FOUND',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The wire shape of an error, the same for HTTP bodies and socket acks. */
export interface WireError {
  code: ErrorCode;
  message: string;
}
