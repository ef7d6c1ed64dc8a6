import type { Socket } from 'socket.io';
import type { z } from 'zod';
import { AppError, toWireError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Ack } from '../protocol/ack.js';
import { ErrorCode } from '../protocol/error-codes.js';
import { invalidPayload } from '../http/index.js';
import { TokenBucket } from './rate-limiter.js';

const RATE_LIMIT_KEY = Symbol('rateLimit');

interface RateLimitedSocket {
  [RATE_LIMIT_KEY]?: TokenBucket;
}

export interface OnEventOptions {
  logger: Logger;
  /** Commands per socket: burst capacity and refill per second (shared by all events of the socket). */
  rateLimit?: { capacity: number; refillPerSecond: number };
}

const DEFAULT_RATE_LIMIT = { capacity: 20, refillPerSecond: 10 };

/**
 * Registers one client command: rate limit, validate with the zod schema, run the handler, and acknowledge with
 * `{ok:true,...result}` or `{ok:false,error}`. The single place where inbound socket payloads become typed data
 * and errors become wire codes. Commands sent without an ack callback still run; their errors are only logged.
 */
export function onEvent<TSchema extends z.ZodType, TResult extends object>(
  socket: Socket,
  event: string,
  schema: TSchema,
  handler: (payload: z.output<TSchema>) => Promise<TResult> | TResult,
  options: OnEventOptions,
): void {
  const holder = socket as unknown as RateLimitedSocket;
  const limit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  holder[RATE_LIMIT_KEY] ??= new TokenBucket(limit.capacity, limit.refillPerSecond);
  const bucket = holder[RATE_LIMIT_KEY];

  socket.on(event, async (...args: unknown[]) => {
    const maybeAck = args[args.length - 1];
    const ack = typeof maybeAck === 'function' ? (maybeAck as (response: Ack) => void) : undefined;
    // With an ack and no payload, args is just [ack].
    const payload = ack && args.length === 1 ? undefined : args[0];
    const reply = (response: Ack) => {
      if (ack) ack(response);
    };
    try {
      if (!bucket.take()) {
        throw new AppError(ErrorCode.RATE_LIMITED, '요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.', { status: 429 });
      }
      const parsed = schema.safeParse(payload ?? {});
      if (!parsed.success) throw invalidPayload(parsed.error);
      const result = await handler(parsed.data);
      reply({ ok: true, ...result });
    } catch (error) {
      const { status, body } = toWireError(error);
      if (status >= 500 && body.code === ErrorCode.INTERNAL) {
        options.logger.error({ err: error, event, socketId: socket.id }, 'socket command failed');
      }
      reply({ ok: false, error: body });
    }
  });
}
