import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Redis, type Command, type RedisOptions } from 'ioredis';
import type { Logger } from '../kernel/index.js';

type Adapter = ReturnType<typeof createAdapter>;

/** Commands that wait on the server by design: never waited for at shutdown (the adapter stops reading on abort). */
const BLOCKING = new Set(['xread', 'xreadgroup', 'blpop', 'brpop', 'blmove', 'bzpopmin', 'bzpopmax']);
/** At shutdown, how long the adapter's commands in flight may take to be answered before the connections close. */
const SETTLE_MS = 2_000;

/**
 * The Redis connections of the socket.io streams adapter: the one we give it, and the ones it duplicates from it
 * (one blocked on XREAD for inter-node packets, one subscribed for ephemeral messages).
 *
 * The adapter sends some commands without ever handling their promise: SUBSCRIBE on its duplicate while it
 * connects, PUBLISH and SET on ours. When the adapter closes (io.close()), it disconnects its duplicates, and
 * ioredis rejects what is still queued with "Connection is closed." — an unhandled rejection that turned about one
 * shutdown in seven, right after a start, into exit 1. So every command sent on these connections is tracked:
 * shutdown waits for the ones in flight (`settle`) before the adapter closes, and a rejection the adapter ignores
 * is logged here instead of escaping.
 */
export class AdapterConnections {
  readonly client: Redis;
  private readonly connections = new Set<Redis>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing = false;

  constructor(
    url: string,
    private readonly logger: Logger,
  ) {
    // No retry limit: the blocking read must survive a Redis restart (the adapter re-issues it after a failure).
    this.client = this.connection(url, { maxRetriesPerRequest: null });
  }

  /** The adapter factory for socket.io's `adapter` option. */
  adapter(): Adapter {
    return createAdapter(this.client);
  }

  /** Waits (at most SETTLE_MS) until every non-blocking command sent so far has been answered. */
  async settle(): Promise<void> {
    if (this.inFlight.size > 0) await withTimeout(Promise.allSettled([...this.inFlight]), SETTLE_MS);
  }

  /** After io.close(): lets the adapter's last commands (its ADAPTER_CLOSE message) finish, then closes every connection. */
  async close(): Promise<void> {
    this.closing = true;
    await this.settle();
    await Promise.all(
      [...this.connections].map(async (connection) => {
        if (connection.status === 'end') return;
        const ended = new Promise<void>((resolve) => connection.once('end', () => resolve()));
        // QUIT waits behind a blocking XREAD, so the read-only duplicate is cut instead (its reader stops on abort).
        if (connection.status !== 'ready' || connection !== this.client) connection.disconnect();
        else await connection.quit().catch(() => connection.disconnect());
        await withTimeout(ended, SETTLE_MS);
      }),
    );
  }

  private connection(urlOrOptions: string | RedisOptions, options: RedisOptions = {}): Redis {
    const connection = typeof urlOrOptions === 'string' ? new this.Tracked(urlOrOptions, options) : new this.Tracked(urlOrOptions);
    connection.on('error', (error: Error) => {
      if (!this.closing) this.logger.warn({ err: error }, 'socket.io adapter redis error');
    });
    this.connections.add(connection);
    connection.once('end', () => this.connections.delete(connection));
    return connection;
  }

  private readonly Tracked = trackedRedis({
    track: (command) => this.track(command),
    duplicate: (options) => this.connection(options),
  });

  private track(command: Command): void {
    const name = command.name.toLowerCase();
    const settled = command.promise.then(
      () => undefined,
      (error: unknown) => {
        // The adapter handles some of these itself (its XREAD loop, XADD of cluster messages); logging them all at
        // debug keeps the ones it drops from escaping as unhandled rejections.
        this.logger.debug({ err: error, command: name, closing: this.closing }, 'socket.io adapter redis command failed');
      },
    );
    if (BLOCKING.has(name)) return;
    this.inFlight.add(settled);
    void settled.finally(() => this.inFlight.delete(settled));
  }
}

async function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** A Redis client class whose commands and duplicates are reported to `tracker`. */
function trackedRedis(tracker: { track(command: Command): void; duplicate(options: RedisOptions): Redis }) {
  return class TrackedRedis extends Redis {
    override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
      tracker.track(command);
      return super.sendCommand(command, stream);
    }

    override duplicate(override?: Partial<RedisOptions>): Redis {
      // What ioredis's own duplicate() does, with the copy tracked like the original.
      return tracker.duplicate({ ...this.options, ...override });
    }
  };
}
