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
  // quizzes and live rooms
  QUIZ_NOT_FOUND: 'QUIZ_NOT_FOUND',
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
  // materials
  FILE_REQUIRED: 'FILE_REQUIRED',
  NOT_A_PDF: 'NOT_A_PDF',
  CORRUPT_PDF: 'CORRUPT_PDF',
  ENCRYPTED_PDF: 'ENCRYPTED_PDF',
  PDF_TOO_LARGE: 'PDF_TOO_LARGE',
  TOO_MANY_PAGES: 'TOO_MANY_PAGES',
  NO_TEXT_LAYER: 'NO_TEXT_LAYER',
  PDF_TIMEOUT: 'PDF_TIMEOUT',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The wire shape of an error, the same for HTTP bodies and socket acks. */
export interface WireError {
  code: ErrorCode;
  message: string;
}
