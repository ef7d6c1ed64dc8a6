import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { koreanZodMessage } from './zod-korean.js';

/**
 * Turns a zod failure into the one INVALID_PAYLOAD error every boundary (HTTP and socket commands) answers with; the
 * message is Korean for people (zod-korean.ts), the code is what programs read.
 */
export function invalidPayload(error: z.ZodError): AppError {
  return new AppError(ErrorCode.INVALID_PAYLOAD, koreanZodMessage(error));
}

/** Parses `value` with `schema` or throws INVALID_PAYLOAD. */
export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidPayload(result.error);
  return result.data;
}

/**
 * Wraps an async handler whose typed body comes from `schema`; errors go to the error middleware, which answers
 * `{"error":{"code","message"}}`.
 */
export function withBody<T>(
  schema: z.ZodType<T>,
  handler: (body: T, ...args: Parameters<RequestHandler>) => Promise<void> | void,
): RequestHandler {
  return async (request, response, next) => {
    try {
      await handler(parseOrThrow(schema, request.body), request, response, next);
    } catch (error) {
      next(error);
    }
  };
}
