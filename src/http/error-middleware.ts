import type { ErrorRequestHandler, RequestHandler } from 'express';
import { httpStatusOf } from '../boundary/index.js';
import { AppError, RateLimitedError, toWireError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { Logger } from '../kernel/index.js';

/** Unknown routes under /api answer a JSON NOT_FOUND instead of express's HTML page. */
export const apiNotFound: RequestHandler = (request, response) => {
  response.status(404).json({
    error: { code: ErrorCode.NOT_FOUND, message: `요청한 주소를 찾을 수 없습니다: ${request.method} ${request.originalUrl}` },
  });
};

/** The single place HTTP errors become `{"error":{"code","message"}}`; unexpected ones are logged, not leaked. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error: unknown, request, response, next) => {
    if (response.headersSent) {
      next(error);
      return;
    }
    let mapped = error;
    // express.json() failures carry a status and type; they are the client's fault.
    if (isBodyParserError(error)) {
      mapped =
        error.type === 'entity.too.large'
          ? new AppError(ErrorCode.INVALID_PAYLOAD, '요청 본문이 너무 큽니다.', { status: 413 })
          : new AppError(ErrorCode.INVALID_PAYLOAD, '요청 본문이 올바른 JSON이 아닙니다.');
    } else if (isUndecodablePath(error)) {
      // The router could not percent-decode a path parameter (`%ff`): the client's fault, answered like any other
      // malformed parameter and not logged (its stack names nothing the operator can act on).
      mapped = new AppError(ErrorCode.INVALID_PAYLOAD, '주소에 읽을 수 없는 문자가 있습니다(잘못된 % 인코딩).');
    } else if (isClientHttpError(error)) {
      // express and serve-static's own 4xx (a bad range, an undecodable path): the client's fault, and their
      // messages can name paths on this machine, so neither sent nor logged.
      mapped =
        error.status === 404
          ? new AppError(ErrorCode.NOT_FOUND, '요청한 주소를 찾을 수 없습니다.')
          : new AppError(ErrorCode.INVALID_PAYLOAD, '요청을 처리할 수 없습니다.', { status: error.status });
    }
    const { body } = toWireError(mapped);
    const status = mapped instanceof AppError ? httpStatusOf(mapped) : 500;
    if (status >= 500) logger.error({ err: error, path: request.originalUrl }, 'request failed');
    // A limit says when to come back.
    if (mapped instanceof RateLimitedError) response.setHeader('Retry-After', String(mapped.retryAfterSeconds));
    response.status(status).json({ error: body });
  };
}

function isBodyParserError(error: unknown): error is { type: string; status: number } {
  return (
    typeof error === 'object' &&
    error !== null &&
    'type' in error &&
    typeof (error as { type: unknown }).type === 'string' &&
    'status' in error
  );
}

/** The router's `Failed to decode param` failure: a URIError it marks with status 400 (but not `expose`). */
function isUndecodablePath(error: unknown): boolean {
  return error instanceof URIError && (error as URIError & { status?: unknown }).status === 400;
}

/** An http-errors style client error (status 4xx, `expose` true), as express and serve-static raise them. */
function isClientHttpError(error: unknown): error is { status: number } {
  if (typeof error !== 'object' || error === null) return false;
  const { status, expose } = error as { status?: unknown; expose?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 && expose === true;
}
