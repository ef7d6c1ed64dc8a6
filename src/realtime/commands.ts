import type { Socket } from 'socket.io';
import { AppError, toWireError } from '../kernel/index.js';
import { invalidPayload } from '../boundary/index.js';
import type { Logger } from '../kernel/index.js';
import type { CommandSchemas } from '../protocol/command-schemas.js';
import type { Ack } from '../protocol/wire/ack.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { CommandListeners, CommandMap } from '../protocol/wire/events.js';
import type { IdentityBuckets } from './command-limits.js';
import { TokenBucket } from './rate-limiter.js';

export interface CommandOptions {
  logger: Logger;
  /** Commands per socket: burst capacity and refill per second (shared by all commands of the socket). */
  rateLimit?: { capacity: number; refillPerSecond: number };
  /**
   * Budgets shared by every socket of one identity (see command-limits.ts): when given, a command takes from the
   * bucket of `identity()` (read per command: a quiz guest becomes a player) instead of the socket's own.
   */
  shared?: { buckets: IdentityBuckets; identity: () => string };
}

const DEFAULT_RATE_LIMIT = { capacity: 20, refillPerSecond: 10 };

export type CommandHandler<C extends CommandMap<C>, K extends keyof C> = (payload: C[K]['payload']) => Promise<C[K]['result']> | C[K]['result'];

/** Registers one command of the socket's map by name; its schema comes from the namespace's schema table. */
export type OnCommand<C extends CommandMap<C>> = <K extends keyof C & string>(name: K, handler: CommandHandler<C, K>) => void;

/**
 * The one way a namespace registers its client commands. Given the socket and its namespace's schema table, it
 * returns `on(name, handler)`: the name is written once and picks both the schema and the handler's types from the
 * wire map. Every command is rate limited (one bucket per identity, or per socket), validated with its zod schema and acknowledged with
 * `{ok:true,...result}` or `{ok:false,error}`: the single place where inbound socket payloads become typed data and
 * errors become wire codes. Commands sent without an ack callback still run; their errors are only logged.
 */
export function commandsOf<C extends CommandMap<C>, S extends Socket<CommandListeners<C>>>(
  socket: S,
  schemas: CommandSchemas<C>,
  options: CommandOptions,
): OnCommand<C> {
  const limit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  const bucket = new TokenBucket(limit.capacity, limit.refillPerSecond);
  const shared = options.shared;
  const take = shared ? () => shared.buckets.take(shared.identity()) : () => bucket.take();
  // Arguments arrive as the client sent them (a payload may be missing, the ack too): read them untyped here.
  const raw = socket as unknown as Socket;
  return (name, handler) => {
    const schema = schemas[name];
    raw.on(String(name), async (...args: unknown[]) => {
      const maybeAck = args[args.length - 1];
      const ack = typeof maybeAck === 'function' ? (maybeAck as (response: Ack) => void) : undefined;
      // With an ack and no payload, args is just [ack].
      const payload = ack && args.length === 1 ? undefined : args[0];
      const reply = (response: Ack) => {
        if (ack) ack(response);
      };
      try {
        if (!take()) {
          throw new AppError(ErrorCode.RATE_LIMITED);
        }
        const parsed = schema.safeParse(payload ?? {});
        if (!parsed.success) throw invalidPayload(parsed.error);
        const result = await handler(parsed.data);
        reply({ ok: true, ...result });
      } catch (error) {
        const { body } = toWireError(error);
        if (body.code === ErrorCode.INTERNAL) {
          options.logger.error({ err: error, event: name, socketId: raw.id }, 'socket command failed');
        }
        reply({ ok: false, error: body });
      }
    });
  };
}
