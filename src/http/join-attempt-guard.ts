import type { RequestHandler } from 'express';
import { isWrongCode, type JoinAttempts } from '../boundary/index.js';
import { requestAddress } from './rate-limit.js';

/**
 * Express middleware for a join route: one attempt per request, a failure when the code was wrong
 * ({@link isWrongCode}). `applies` picks the requests that are joins (POST /api/sessions only with a class code); the
 * others go through `otherwise` (the general per-address limit, which joins do not count against). `cost` is what a
 * right code costs (0 for a class's name list: a student asks for it right before joining, and only the join counts).
 */
export function joinAttemptGuard(
  attempts: JoinAttempts,
  options: { applies?: (body: unknown) => boolean; otherwise?: RequestHandler; cost?: number } = {},
): RequestHandler {
  const { applies = () => true, otherwise, cost = 1 } = options;
  return (request, response, next) => {
    if (!applies(request.body)) {
      if (otherwise) return otherwise(request, response, next);
      return next();
    }
    attempts.begin(requestAddress(request), cost).then(
      (attempt) => {
        response.on('finish', () => {
          if (isWrongCode(response.statusCode)) {
            // The answer is already sent; a store failure here only loses one charge.
            attempt.failed().catch(() => undefined);
          }
        });
        next();
      },
      (error: unknown) => next(error),
    );
  };
}
