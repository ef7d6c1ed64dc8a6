import type { ErrorCode } from '../protocol/wire/error-codes.js';
import { AppError } from '../kernel/index.js';
import type { FinishReason, Usage } from './model.js';

export type ModelErrorCode =
  | typeof ErrorCode.MODEL_UNAVAILABLE
  | typeof ErrorCode.MODEL_OUTPUT_INVALID
  | typeof ErrorCode.MODEL_TIMEOUT
  | typeof ErrorCode.MODEL_ABORTED
  | typeof ErrorCode.UNKNOWN_TASK;

export interface ModelErrorDetails {
  cause?: unknown;
  retryable?: boolean;
  /** The model's raw reply text when it did not parse or validate. */
  rawText?: string;
  usage?: Usage;
  finishReason?: FinishReason;
  /** HTTP status from the provider, when there was one. */
  providerStatus?: number;
}

/** A typed model failure: what went wrong, whether trying again may help, and what the model actually said. */
export class ModelError extends AppError {
  readonly rawText: string | undefined;
  readonly usage: Usage | undefined;
  readonly finishReason: FinishReason | undefined;
  readonly providerStatus: number | undefined;

  constructor(code: ModelErrorCode, message: string, details: ModelErrorDetails = {}) {
    super(code, message, {
      retryable: details.retryable ?? false,
      cause: details.cause,
    });
    this.name = 'ModelError';
    this.rawText = details.rawText;
    this.usage = details.usage;
    this.finishReason = details.finishReason;
    this.providerStatus = details.providerStatus;
  }
}
