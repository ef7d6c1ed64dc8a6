import type { Logger } from './logger.js';

/** The process events the lifecycle listens to (process itself, or an emitter in tests). */
export interface ProcessEvents {
  on(event: 'SIGINT' | 'SIGTERM', listener: (signal: NodeJS.Signals) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error, origin: string) => void): unknown;
}

export interface LifecycleOptions {
  events?: ProcessEvents;
  exit?: (code: number) => void;
  /** A shutdown that takes longer exits 1 anyway (a stuck close must not keep the process alive). */
  timeoutMs?: number;
}

/**
 * The process around the app: SIGINT/SIGTERM start one graceful shutdown, which closes what was registered in
 * reverse order (last built, first closed) and exits 0; and one policy for errors nobody caught:
 *
 * - An unhandled rejection is a promise nobody awaited (most often a library's fire-and-forget command on a
 *   connection that closed). It leaves no half-done synchronous work behind, so it is logged with its error and
 *   whether a shutdown is under way, and the process goes on: never an exit, and never a shutdown turned into exit 1.
 * - An uncaught exception interrupted code mid-way, so this process's state can no longer be trusted: it is logged
 *   at fatal and the process shuts down gracefully (leases released, sockets told) and exits 1. During a shutdown it
 *   is logged and the shutdown goes on, ending in exit 1.
 */
export class Lifecycle {
  private readonly closers: { name: string; close: () => Promise<void> }[] = [];
  private stopping: Promise<void> | null = null;
  private exitCode = 0;
  private readonly exit: (code: number) => void;
  private readonly timeoutMs: number;

  constructor(
    private readonly logger: Logger,
    options: LifecycleOptions = {},
  ) {
    this.exit = options.exit ?? ((code) => process.exit(code));
    this.timeoutMs = options.timeoutMs ?? 10_000;
    const events = options.events ?? process;
    const onSignal = (signal: NodeJS.Signals) => void this.stop(signal);
    events.on('SIGINT', onSignal);
    events.on('SIGTERM', onSignal);
    events.on('unhandledRejection', (reason) => {
      const stopping = this.stopping !== null;
      this.logger[stopping ? 'warn' : 'error']({ err: reason, stopping }, 'unhandled promise rejection; the process goes on');
    });
    events.on('uncaughtException', (error, origin) => {
      this.logger.fatal({ err: error, origin, stopping: this.stopping !== null }, 'uncaught exception; shutting down');
      this.exitCode = 1;
      void this.stop('uncaughtException');
    });
  }

  /** True once a shutdown started: startup steps still running should stop building. */
  get isStopping(): boolean {
    return this.stopping !== null;
  }

  /** Something to close at shutdown. Registered during a shutdown, it is closed before the exit too. */
  onStop(name: string, close: () => Promise<void>): void {
    this.closers.push({ name, close });
  }

  /** Closes everything registered, newest first, then exits (0 unless something failed or crashed). */
  stop(reason: string): Promise<void> {
    this.stopping ??= this.run(reason);
    return this.stopping;
  }

  private async run(reason: string): Promise<void> {
    this.logger.info({ signal: reason }, 'shutting down');
    let step = '';
    const timer = setTimeout(() => {
      this.logger.error({ step, pending: this.closers.map((closer) => closer.name) }, 'shutdown timed out; exiting');
      this.finish(1);
    }, this.timeoutMs);
    timer.unref();
    for (let closer = this.closers.pop(); closer; closer = this.closers.pop()) {
      step = closer.name;
      try {
        await closer.close();
      } catch (error) {
        this.logger.error({ err: error, part: closer.name }, 'shutdown step failed; closing the rest');
        this.exitCode = 1;
      }
    }
    clearTimeout(timer);
    this.finish(this.exitCode);
  }

  private finish(code: number): void {
    this.logger.flush();
    this.exit(code);
  }
}
