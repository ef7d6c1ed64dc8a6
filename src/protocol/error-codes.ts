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
  STORE_UNAVAILABLE: 'STORE_UNAVAILABLE',
  MODEL_UNAVAILABLE: 'MODEL_UNAVAILABLE',
  MODEL_OUTPUT_INVALID: 'MODEL_OUTPUT_INVALID',
  MODEL_TIMEOUT: 'MODEL_TIMEOUT',
  MODEL_ABORTED: 'MODEL_ABORTED',
  UNKNOWN_TASK: 'UNKNOWN_TASK',
  // tutoring sessions
  SESSION_NOT_FOUND: 'SESSION_NOT_FOUND',
  SESSION_BUSY: 'SESSION_BUSY',
  MATERIAL_NOT_FOUND: 'MATERIAL_NOT_FOUND',
  NOT_STREAMING: 'NOT_STREAMING',
  NOT_PAUSED: 'NOT_PAUSED',
  NO_PENDING_QUESTION: 'NO_PENDING_QUESTION',
  UNKNOWN_QUESTION: 'UNKNOWN_QUESTION',
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
